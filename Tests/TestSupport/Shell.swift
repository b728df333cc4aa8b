import Glibc

/// A command line run by sh, for the tests that drive other programs (tmux, the oracle's
/// Python, the real-terminal script).
enum Shell {
    /// Runs `command` with sh and returns its exit status (1 at least when it failed, -1
    /// when it could not start) and its standard output.
    static func run(_ command: String) -> (status: Int32, output: String) {
        guard let pipe = popen(command, "r") else { return (-1, "popen failed") }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, pipe) }
            if count == 0 { break }
            output += buffer[..<count]
        }
        let status = pclose(pipe)
        return (status == 0 ? 0 : max(status >> 8, 1), String(decoding: output, as: UTF8.self))
    }

    /// `words` as one command line, each quoted for sh.
    static func quoted(_ words: [String]) -> String {
        words.map { "'" + $0.replacing("'", with: "'\\''") + "'" }.joined(separator: " ")
    }
}

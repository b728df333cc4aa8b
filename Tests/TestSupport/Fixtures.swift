import Glibc
import PTYKit
// ScreenTestSupport's helpers (packageDirectory, readFileBytes, the notation and the
// model's feed) are every user of TestSupport's too.
@_exported import ScreenTestSupport

@testable import idlewrap

extension TemporaryDirectory {
    /// The contents of `name`, or nil when it cannot be read.
    func read(_ name: String) -> String? {
        try? readFile(file(name))
    }
}

/// A password file made by `idlewrap --set-password` from a pipe.
func makePasswordFile(in directory: TemporaryDirectory, password: String = "open sesame") throws -> String {
    let path = directory.file("password")
    let setter = try TerminalDriver([
        "sh", "-c", "printf '%s\\n' \"$1\" | \"$0\" --set-password \"$2\"", TerminalDriver.idlewrap, password, path,
    ])
    guard setter.waitForExit() == .exited(0) else { throw TmuxError(message: "--set-password failed: \(setter.text)") }
    return path
}

extension String {
    /// The text without any run of `character` at its end.
    func trimmingSuffix(_ character: Character) -> String {
        var text = self
        while text.last == character { text.removeLast() }
        return text
    }
}

extension Duration {
    /// The duration in seconds, for test messages and limits given in seconds.
    var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// The names in directory `path` other than `.` and `..`; none if it cannot be read.
func directoryEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

import CPTYShims
import Glibc
import PTYKit

/// The session process's standard descriptors, which name its terminal: the relay, the raw
/// mode and the lock all use descriptors 0 and 1, so moving the session to another
/// terminal (or to none) is putting another file there.
enum ProcessTerminal {
    /// Puts `input` on descriptor 0 and `output` on 1 and 2. The originals stay open, the
    /// caller's to close.
    static func replace(input: FileDescriptor, output: FileDescriptor) throws(Errno) {
        for (source, target) in [(input, STDIN_FILENO), (output, STDOUT_FILENO), (output, STDERR_FILENO)]
        where source.rawValue != target {
            _ = try valueOrErrno { dup2(source.rawValue, target) }
        }
    }

    /// Puts /dev/null on descriptors 0, 1 and 2: a terminal that hung up is let go of
    /// (it can be freed), and nothing is written to whatever takes its number.
    static func replaceWithNothing() throws(Errno) {
        let null = try FileDescriptor.open("/dev/null", O_RDWR)
        defer { try? null.close() }
        try replace(input: null, output: null)
    }

    /// Leaves the terminal's session and process group for a session of its own, with no
    /// controlling terminal: the login's end and its job control no longer reach it.
    static func leaveTerminalSession() throws(Errno) {
        _ = try valueOrErrno { setsid() }
    }
}

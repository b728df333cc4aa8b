import CPTYShims
import Glibc

/// The master side of a new pseudo-terminal and the path of its replica.
/// The master is close-on-exec, so no command ever inherits it.
public final class PseudoTerminal {
    public let master: FileDescriptor
    public let replicaPath: String
    private var isOpen = true

    public init() throws(PTYError) {
        var path = [CChar](repeating: 0, count: 128)
        let fd: Int32
        do {
            fd = try valueOrErrno { cpty_open_master(&path, path.count) }
        } catch {
            throw PTYError(.openPseudoTerminal, error, context: "posix_openpt")
        }
        master = FileDescriptor(rawValue: fd)
        replicaPath = string(fromNulTerminated: path)
    }

    /// Gives the replica these settings and size before the command opens it.
    /// On Linux termios and window-size calls on the master apply to the replica.
    public func configure(attributes: TerminalAttributes?, size: WindowSize?) throws(PTYError) {
        do {
            try attributes?.apply(to: master)
        } catch {
            throw PTYError(.configureTerminal, error, context: "tcsetattr")
        }
        do {
            try size?.apply(to: master)
        } catch {
            throw PTYError(.configureTerminal, error, context: "TIOCSWINSZ")
        }
    }

    /// Closing the master hangs up the replica: its session gets SIGHUP.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        try? master.close()
    }

    deinit {
        close()
    }
}

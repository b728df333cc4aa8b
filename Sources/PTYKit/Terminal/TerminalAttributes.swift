import Glibc

/// A terminal's termios settings.
public struct TerminalAttributes: Sendable {
    public var termios: Glibc.termios

    public static func of(_ terminal: FileDescriptor) throws(Errno) -> TerminalAttributes {
        var attributes = Glibc.termios()
        _ = try valueOrErrno { tcgetattr(terminal.rawValue, &attributes) }
        return TerminalAttributes(termios: attributes)
    }

    public func apply(to terminal: FileDescriptor, when action: Int32 = TCSANOW) throws(Errno) {
        var attributes = termios
        _ = try valueOrErrno { tcsetattr(terminal.rawValue, action, &attributes) }
    }

    /// The same settings with input and output passed through untouched
    /// (cfmakeraw: no echo, no line editing, no signals, no CR/NL mapping).
    public var madeRaw: TerminalAttributes {
        var attributes = termios
        cfmakeraw(&attributes)
        return TerminalAttributes(termios: attributes)
    }

    public var isCanonical: Bool { termios.c_lflag & tcflag_t(ICANON) != 0 }
}

/// Puts a terminal in raw mode and puts it back exactly as it was. `restore`
/// is idempotent, so every exit path may call it.
public final class RawMode {
    public let terminal: FileDescriptor
    public let original: TerminalAttributes
    private var isRaw = false

    public init(_ terminal: FileDescriptor) throws(Errno) {
        self.terminal = terminal
        self.original = try TerminalAttributes.of(terminal)
        try original.madeRaw.apply(to: terminal)
        isRaw = true
    }

    /// Raw mode again, after something else changed the settings: a shell
    /// restores its own when a job stops, and leaves them when it continues.
    public func reapply() throws(Errno) {
        guard isRaw else { return }
        try original.madeRaw.apply(to: terminal)
    }

    /// Restores the saved settings. A terminal that has hung up cannot be
    /// restored; that is not an error.
    ///
    /// `draining` waits until written output has gone out (TCSADRAIN), so the
    /// last bytes are sent with the raw settings they were written under. On
    /// a terminal whose output is stalled (flow control, a reader that
    /// stopped reading) that wait never ends, so a path that must end, such
    /// as a signal asking idlewrap to go, restores at once (TCSANOW) instead.
    public func restore(draining: Bool = true) {
        guard isRaw else { return }
        isRaw = false
        try? original.apply(to: terminal, when: draining ? TCSADRAIN : TCSANOW)
    }

    deinit {
        restore(draining: false)
    }
}

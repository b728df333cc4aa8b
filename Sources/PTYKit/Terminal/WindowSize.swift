import Glibc

/// A terminal's size in character cells (and pixels, when the terminal says).
public struct WindowSize: Equatable, Sendable {
    public var rows: UInt16
    public var columns: UInt16
    public var pixelWidth: UInt16 = 0
    public var pixelHeight: UInt16 = 0

    public init(rows: UInt16, columns: UInt16, pixelWidth: UInt16 = 0, pixelHeight: UInt16 = 0) {
        self.rows = rows
        self.columns = columns
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// What a side of 0 (one the terminal does not report: a serial console, a pty nobody
    /// sized) is taken as, as the programs in it and tmux take it.
    public static let unreportedRows: UInt16 = 24
    public static let unreportedColumns: UInt16 = 80

    /// The size to draw for: sides of 0 as `unreportedRows` and `unreportedColumns`.
    public var drawingSize: WindowSize {
        WindowSize(
            rows: rows == 0 ? Self.unreportedRows : rows, columns: columns == 0 ? Self.unreportedColumns : columns,
            pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    }

    public static func of(_ terminal: FileDescriptor) throws(Errno) -> WindowSize {
        var size = winsize()
        _ = try valueOrErrno { ioctl(terminal.rawValue, UInt(TIOCGWINSZ), &size) }
        return WindowSize(
            rows: size.ws_row, columns: size.ws_col, pixelWidth: size.ws_xpixel, pixelHeight: size.ws_ypixel)
    }

    /// Sets the size; the kernel sends SIGWINCH to the terminal's foreground
    /// process group when it differs from the old one.
    public func apply(to terminal: FileDescriptor) throws(Errno) {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: pixelWidth, ws_ypixel: pixelHeight)
        _ = try valueOrErrno { ioctl(terminal.rawValue, UInt(TIOCSWINSZ), &size) }
    }
}

import Glibc

/// A bare file descriptor with the I/O calls PTYKit needs, each wrapped once.
/// It does not own the descriptor: whoever opened it closes it.
public struct FileDescriptor: Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// Opens `path`; the descriptor is always close-on-exec.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> FileDescriptor {
        let fd = try valueOrErrno { Glibc.open(path, flags | O_CLOEXEC, mode) }
        return FileDescriptor(rawValue: fd)
    }

    /// Reads into `buffer`; 0 means end of file. Throws `.wouldBlock` when a
    /// non-blocking descriptor has nothing.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads to end of file, but no more than `limit` + 1 bytes: a result longer
    /// than `limit` says the file is too large without reading all of it.
    public func readToEnd(limit: Int) throws(Errno) -> [UInt8] {
        var contents = [UInt8](repeating: 0, count: limit + 1)
        var filled = 0
        while filled < contents.count {
            let count = try contents.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }
            }.get()
            if count == 0 { break }
            filled += count
        }
        contents.removeSubrange(filled...)
        return contents
    }

    /// Writes some of `bytes`, returning how many were taken.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// Writes all of `bytes`, waiting for room when the descriptor is
    /// non-blocking.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var rest = bytes
        while !rest.isEmpty {
            do {
                let written = try write(rest)
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            } catch .wouldBlock {
                try waitUntilWritable()
            }
        }
    }

    public func writeAll(_ text: String) throws(Errno) {
        var text = text
        let result = text.withUTF8 { utf8 in
            Result { () throws(Errno) in try writeAll(UnsafeRawBufferPointer(utf8)) }
        }
        try result.get()
    }

    /// Waits until a write would not block: for writers of non-blocking descriptors.
    package func waitUntilWritable() throws(Errno) {
        var slot = pollfd(fd: rawValue, events: Int16(POLLOUT), revents: 0)
        let result = withUnsafeMutablePointer(to: &slot) { slot in
            Result { () throws(Errno) in try poll(UnsafeMutableBufferPointer(start: slot, count: 1), timeout: -1) }
        }
        _ = try result.get()
    }

    /// Waits until a read would not block, at most `milliseconds`; false when the time ran
    /// out first.
    package func waitUntilReadable(milliseconds: Int32) throws(Errno) -> Bool {
        var slot = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        let result = withUnsafeMutablePointer(to: &slot) { slot in
            Result { () throws(Errno) in
                try poll(UnsafeMutableBufferPointer(start: slot, count: 1), timeout: milliseconds)
            }
        }
        return try result.get() > 0
    }

    /// Closes the descriptor. Never retried: after EINTR Linux has closed it.
    public func close() throws(Errno) {
        _ = try valueOrErrno(retryOnInterrupt: false) { Glibc.close(rawValue) }
    }

    /// The open file's status flags (`F_GETFL`): access mode, O_NONBLOCK...
    public func statusFlags() throws(Errno) -> Int32 {
        try valueOrErrno { fcntl(rawValue, F_GETFL) }
    }

    public func setNonblocking(_ on: Bool) throws(Errno) {
        let flags = try statusFlags()
        let wanted = on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        if wanted != flags {
            _ = try valueOrErrno { fcntl(rawValue, F_SETFL, wanted) }
        }
    }

    public var isTerminal: Bool {
        isatty(rawValue) == 1
    }

    public func status() throws(Errno) -> stat {
        var info = stat()
        _ = try valueOrErrno { fstat(rawValue, &info) }
        return info
    }

    public func changeMode(_ mode: mode_t) throws(Errno) {
        _ = try valueOrErrno { fchmod(rawValue, mode) }
    }

    /// Waits until what was written is on the disk: `fsync`.
    public func synchronize() throws(Errno) {
        _ = try valueOrErrno { fsync(rawValue) }
    }

    /// Discards input the terminal received but nobody has read yet.
    public func discardPendingInput() throws(Errno) {
        _ = try valueOrErrno { tcflush(rawValue, TCIFLUSH) }
    }

    /// The path of the terminal on this descriptor, e.g. /dev/pts/3, or nil
    /// when it is not one.
    public func terminalPath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        guard ttyname_r(rawValue, &buffer, buffer.count) == 0 else { return nil }
        return string(fromNulTerminated: buffer)
    }

    /// The foreground process group of the terminal on this descriptor.
    public func foregroundProcessGroup() throws(Errno) -> pid_t {
        try valueOrErrno { tcgetpgrp(rawValue) }
    }
}

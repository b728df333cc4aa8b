import CPTYShims
import Glibc

/// A counter in the kernel (Linux's eventfd) whose descriptor is readable
/// while the count is above zero: how another thread wakes a loop that polls,
/// such as a `Relay` watching `descriptor`. It owns the descriptor.
public final class EventCounter: @unchecked Sendable {
    /// Non-blocking and close-on-exec; readable until `reset()`.
    public let descriptor: FileDescriptor

    public init() throws(Errno) {
        descriptor = FileDescriptor(rawValue: try valueOrErrno { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) })
    }

    deinit {
        try? descriptor.close()
    }

    /// Adds one, from any thread. It only fails when the count is about to
    /// overflow, and then the descriptor is readable anyway.
    public func signal() {
        var one: UInt64 = 1
        _ = try? withUnsafeBytes(of: &one) { (buffer) throws(Errno) in
            try descriptor.write(buffer)
        }
    }

    /// Takes the count back to zero, returning what it was (0 when nothing
    /// was signalled since the last reset).
    @discardableResult
    public func reset() -> UInt64 {
        var count: UInt64 = 0
        _ = try? withUnsafeMutableBytes(of: &count) { (buffer) throws(Errno) in
            try descriptor.read(into: buffer)
        }
        return count
    }
}

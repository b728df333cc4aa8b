import Glibc

/// A point on the monotonic clock, in nanoseconds since an arbitrary start.
/// Deadlines use it so that changes of the wall clock cannot move them.
public struct MonotonicInstant: Comparable, Hashable, Sendable {
    public let nanoseconds: Int64

    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    public static func now() -> MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool {
        a.nanoseconds < b.nanoseconds
    }

    /// Saturates instead of overflowing, so "never" can be a huge duration.
    public static func + (instant: MonotonicInstant, nanoseconds: Int64) -> MonotonicInstant {
        let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(nanoseconds)
        return MonotonicInstant(nanoseconds: overflow ? .max : sum)
    }

    /// The earlier of two optional deadlines; nil (never) only when both are.
    public static func earliest(_ a: MonotonicInstant?, _ b: MonotonicInstant?) -> MonotonicInstant? {
        guard let a, let b else { return a ?? b }
        return min(a, b)
    }

    public static func - (a: MonotonicInstant, b: MonotonicInstant) -> Int64 {
        a.nanoseconds &- b.nanoseconds
    }
}

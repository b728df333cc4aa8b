import Glibc

/// A point on the monotonic clock (CLOCK_MONOTONIC), in nanoseconds since an arbitrary
/// start. Deadlines use it so that changes of the wall clock cannot move them; how far
/// apart two are, or how far ahead a deadline lies, is a `Duration`.
public struct MonotonicInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds on the clock's own scale, as clock_gettime gives them.
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
    public static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(duration.wholeNanoseconds)
        return MonotonicInstant(nanoseconds: overflow ? (duration < .zero ? .min : .max) : sum)
    }

    public static func - (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        instant + (.zero - duration)
    }

    /// How long after `b` `a` is: negative when it is before.
    public static func - (a: MonotonicInstant, b: MonotonicInstant) -> Duration {
        .nanoseconds(a.nanoseconds &- b.nanoseconds)
    }

    /// The earlier of two optional deadlines; nil (never) only when both are. Compared in
    /// place: the relay asks it every round, and a list would be made and freed each time.
    public static func earliest(_ a: MonotonicInstant?, _ b: MonotonicInstant?) -> MonotonicInstant? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// The earliest of `deadlines`; nil (never) only when all are nil. (An array, not any
    /// sequence: a generic call across modules would look up its types at run time.)
    public static func earliest(of deadlines: [MonotonicInstant?]) -> MonotonicInstant? {
        deadlines.reduce(nil, earliest)
    }
}

extension Duration {
    /// The duration in whole nanoseconds (a finer rest dropped), saturating at the range
    /// of `Int64` (about 292 years either way): what the kernel's clocks count in.
    package var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, overflowed) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowed ? (seconds < 0 ? .min : .max) : sum
    }
}

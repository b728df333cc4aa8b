import Glibc
import PTYKit

/// Where time comes from, so tests can move it by hand.
protocol TimeSource: AnyObject {
    func now() -> MonotonicInstant
    /// The wall clock, for the times the lock screen shows.
    func wallTime() -> time_t
}

final class MonotonicTimeSource: TimeSource {
    func now() -> MonotonicInstant { MonotonicInstant.now() }
    func wallTime() -> time_t { time(nil) }
}

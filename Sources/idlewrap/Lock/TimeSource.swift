import PTYKit

/// Where time comes from, so tests can move it by hand.
protocol TimeSource: AnyObject {
    func now() -> MonotonicInstant
}

final class MonotonicTimeSource: TimeSource {
    func now() -> MonotonicInstant { MonotonicInstant.now() }
}

import PTYKit

/// The idle deadline: activity pushes it to `timeout` from now. It is a
/// single instant the relay sleeps until, never a periodic tick (tmux's
/// `lock-after-time` works the same way, and 0 means off there too).
struct IdleTimer {
    /// 0 means never lock on idle.
    let timeout: Nanoseconds
    private(set) var deadline: MonotonicInstant?
    /// The last activity (or the start), for --list's idle time.
    private(set) var lastActivity: MonotonicInstant?

    init(timeout: Nanoseconds) {
        self.timeout = timeout
    }

    mutating func restart(at now: MonotonicInstant) {
        lastActivity = now
        deadline = timeout > 0 ? now + timeout : nil
    }

    mutating func stop() {
        deadline = nil
    }

    func hasExpired(at now: MonotonicInstant) -> Bool {
        deadline.map { $0 <= now } ?? false
    }
}

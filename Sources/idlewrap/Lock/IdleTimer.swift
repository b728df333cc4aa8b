import PTYKit

/// The idle deadline: activity pushes it to `timeout` from now. It is a
/// single instant the relay sleeps until, never a periodic tick (tmux's
/// `lock-after-time` works the same way, and 0 means off there too).
struct IdleTimer {
    /// Zero means never lock on idle.
    let timeout: Duration
    private(set) var deadline: MonotonicInstant?
    /// The last activity (or the start), for --list's idle time.
    private(set) var lastActivity: MonotonicInstant?

    init(timeout: Duration) {
        self.timeout = timeout
    }

    mutating func restart(at now: MonotonicInstant) {
        lastActivity = now
        deadline = timeout > .zero ? now + timeout : nil
    }

    mutating func stop() {
        deadline = nil
    }

    func hasExpired(at now: MonotonicInstant) -> Bool {
        deadline.map { $0 <= now } ?? false
    }
}

import PTYKit

/// When an idle lock is due, and the `--warn` countdown in the title before it: typing
/// restarts the idle timer, the terminal's own replies to the command's queries do not
/// (also when a reply comes in several reads), and a key takes the countdown away.
struct IdleWatch {
    private let timeout: Duration
    private var idle: IdleTimer
    private var warning: WarningTitle
    /// Where the terminal's input stands between reads: inside a reply or not.
    private var replies = TerminalReplyScanner()

    init(timeout: Duration, warn: Duration, now: MonotonicInstant) {
        self.timeout = timeout
        idle = IdleTimer(timeout: timeout)
        warning = WarningTitle(length: warn)
        idle.restart(at: now)
    }

    /// The last keystroke that counted as activity, or the start.
    var lastActivity: MonotonicInstant? { idle.lastActivity }

    /// When the idle lock is due; nil without a timeout or once stopped.
    var lockDeadline: MonotonicInstant? { idle.deadline }

    /// The countdown's next change (or start), else the idle lock.
    func deadline(now: MonotonicInstant) -> MonotonicInstant? {
        warning.deadline(lockAt: idle.deadline, timeout: timeout, now: now) ?? idle.deadline
    }

    /// Input read while unlocked; true if someone typed, which restarts the timer and
    /// ends the countdown.
    mutating func noteInput(_ bytes: UnsafeRawBufferPointer, at now: MonotonicInstant) -> Bool {
        guard replies.holdsKeys(bytes) else { return false }
        idle.restart(at: now)
        warning.hide()
        return true
    }

    /// A deadline passed: true if the idle lock is due; otherwise the countdown may move.
    mutating func deadlinePassed(at now: MonotonicInstant) -> Bool {
        if idle.hasExpired(at: now) { return true }
        if let start = warning.start(lockAt: idle.deadline, timeout: timeout), start <= now, let lockAt = idle.deadline
        {
            warning.show(seconds: WarningTitle.secondsLeft(until: lockAt, at: now))
        }
        return false
    }

    /// A lock is due or up: no idle lock until `restart`.
    mutating func stop() {
        idle.stop()
    }

    /// Unlocked: the timer runs from now, and a reply begun before the lock counts no more.
    mutating func restart(at now: MonotonicInstant) {
        replies.reset()
        idle.restart(at: now)
    }

    /// The command set its title to `title`; the countdown writes it again when it ends.
    mutating func commandDidSetTitle(_ title: [UInt8]) {
        warning.commandDidSetTitle(title)
    }

    var isCountingDown: Bool { warning.isShowing }

    /// Whether `titleBytes` has any to give.
    var titleIsPending: Bool { warning.isPending }

    /// The bytes that bring the title to what the countdown wants now.
    mutating func titleBytes() -> [UInt8] {
        warning.update()
    }

    /// The bytes that take the countdown off the title, if it shows.
    mutating func endCountdown() -> [UInt8] {
        warning.hide()
        return warning.update()
    }
}

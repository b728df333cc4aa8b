import Glibc
import PTYKit

/// Something a session waits for besides the terminal and the command: a descriptor to
/// poll, a deadline, or both (the control socket and each of its connections, logind's
/// bus, the lock's deadlines and its authenticator, the ending's deadlines). The session
/// asks every source for its descriptor and deadline after each event, polls the
/// descriptors through the relay, and sleeps until the earliest of the deadlines; it
/// calls `ready` when a source's descriptor is, and `deadlinePassed` once its deadline
/// has. Nothing here blocks.
protocol SessionSource: AnyObject {
    /// The descriptor to poll; nil while there is none to watch.
    var descriptor: FileDescriptor? { get }
    /// What to poll `descriptor` for: POLLIN, and POLLOUT while output waits.
    var events: Int16 { get }
    /// When `deadlinePassed` is due; nil for never.
    var deadline: MonotonicInstant? { get }
    /// Whether the source is done; the session drops it, and stops watching its
    /// descriptor, which the source closes itself.
    var isFinished: Bool { get }

    /// `descriptor` is ready for `events` (or hung up, or failed: reading says which).
    func ready(at now: MonotonicInstant)
    /// `deadline` is `now` or earlier.
    func deadlinePassed(at now: MonotonicInstant)
    /// The session has dropped the finished source and stopped watching its descriptor:
    /// the source may close it now.
    func dropped()
}

extension SessionSource {
    var descriptor: FileDescriptor? { nil }
    var events: Int16 { Int16(POLLIN) }
    var deadline: MonotonicInstant? { nil }
    var isFinished: Bool { false }
    func ready(at now: MonotonicInstant) {}
    func deadlinePassed(at now: MonotonicInstant) {}
    func dropped() {}
}

/// A deadline alone, read and acted on through closures: the session's own.
final class DeadlineSource: SessionSource {
    private let due: () -> MonotonicInstant?
    private let passed: (MonotonicInstant) -> Void

    init(due: @escaping () -> MonotonicInstant?, passed: @escaping (MonotonicInstant) -> Void) {
        self.due = due
        self.passed = passed
    }

    var deadline: MonotonicInstant? { due() }

    func deadlinePassed(at now: MonotonicInstant) {
        passed(now)
    }
}

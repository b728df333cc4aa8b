import PTYKit

/// The lock as a session source: its deadline (the idle lock, the warning's countdown, a
/// lock waiting for an output boundary, the back-off after a wrong password, a redraw),
/// and its authenticator's descriptor while a check runs (PAM's thread wakes the relay
/// through it).
final class LockSource: SessionSource {
    private let lock: LockController
    /// Called after the lock's deadline was handled: the command may have ended while the
    /// lock waited for its output to reach a boundary.
    private let afterDeadline: () -> Void
    /// What the lock asked to have watched (`LockHost.watch`).
    var authenticatorReadiness: FileDescriptor?
    /// While the session has no terminal, nothing is drawn and nobody types: the lock
    /// wakes only to engage (a detached session costs no wake-ups).
    var isDetached = false

    init(_ lock: LockController, afterDeadline: @escaping () -> Void) {
        self.lock = lock
        self.afterDeadline = afterDeadline
    }

    var descriptor: FileDescriptor? { authenticatorReadiness }

    var deadline: MonotonicInstant? {
        guard isDetached else { return lock.nextDeadline }
        if case .locking(let giveUpAt) = lock.state { return giveUpAt }
        return nil
    }

    func ready(at now: MonotonicInstant) {
        lock.handleAuthenticatorReadiness()
    }

    func deadlinePassed(at now: MonotonicInstant) {
        lock.handleDeadline()
        afterDeadline()
    }
}

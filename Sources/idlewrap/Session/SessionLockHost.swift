import Glibc
import PTYKit

/// What the lock asks of its session: the terminal, the command, and what locking and
/// unlocking mean for the relay, the log, the hooks and the ending.
extension Session: LockHost {
    func show(_ bytes: UnsafeRawBufferPointer) {
        display.write(bytes)
    }

    func forward(_ bytes: UnsafeRawBufferPointer) {
        relay.sendToCommand(bytes)
    }

    func discardTypedAhead() {
        relay.discardTypedAhead()
    }

    /// The lock screen is drawn for the size the command's screen is modelled at.
    var windowSize: WindowSize { display.windowSize }

    func watch(_ descriptor: FileDescriptor?) {
        lockSource.authenticatorReadiness = descriptor
    }

    func lockWillEngage() {
        guardian.lockHolds(true)
    }

    func lockDidEngage() {
        // A command that reads nothing must not keep the password from being read, and
        // the password must not stay in the relay's buffer.
        relay.readsInputAhead = true
        relay.clearsInputAfterUse = true
        log.record("session locked")
        hooks.locked()
        ending.lockEngaged(at: clock.now())
    }

    func lockDidRelease() {
        guardian.lockHolds(false)
        relay.readsInputAhead = false
        relay.clearsInputAfterUse = false
        ending.lockReleased()
        log.record("session unlocked")
        hooks.unlocked()
        finishIfOver()
    }

    func unlockDidFail(message: String, failures: Int) {
        log.record("unlock failed (\(failures) so far)", priority: LOG_WARNING)
    }

    func checkIsUnavailable(reason: String) {
        log.record("unlock check unavailable (\(reason))", priority: LOG_ERR)
    }
}

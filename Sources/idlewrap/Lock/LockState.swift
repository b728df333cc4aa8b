import PTYKit

/// Where the session stands with respect to the lock.
enum LockState: Equatable {
    /// Unlocked: keys go to the command, its output to the screen.
    case active
    /// A lock is due but the command's output stopped inside an escape
    /// sequence or a UTF-8 character; the lock waits for its end, at most
    /// until `giveUpAt`.
    case locking(giveUpAt: MonotonicInstant)
    /// The lock screen is up: keys go to it, never to the command.
    case locked(LockPhase)
    /// The session is ending: the lock does nothing more.
    case abandoned
}

/// What the lock screen is doing.
enum LockPhase: Equatable {
    /// Reading a line in answer to the authenticator's question.
    case prompting
    /// An answer was given; the authenticator is checking it.
    case checking
    /// After a failure, keys are ignored until then.
    case waiting(until: MonotonicInstant)
}

extension LockState {
    /// The lock screen is up; in `.locking` keys still reach the command.
    var isLocked: Bool {
        if case .locked = self { return true }
        return false
    }

    /// A lock is due or up: the session must not end as if nothing were locked.
    var isLockingOrLocked: Bool {
        switch self {
        case .locking, .locked: return true
        case .active, .abandoned: return false
        }
    }
}

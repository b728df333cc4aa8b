import Glibc
import PTYKit

/// How a session ends, as rules apart from the relay: when the command is hung up and
/// why, when SIGKILL follows, when idlewrap stops waiting, and the exit status. `Session`
/// carries out the steps these rules give; tests drive them with a hand-moved clock.
struct SessionEnding: Equatable {
    enum Reason: Equatable {
        /// idlewrap got this signal, or the terminal hung up (SIGHUP).
        case signal(Int32)
        /// --kill-after: the session stayed locked too long.
        case lockedTooLong
        /// --detached-kill-after: the session stayed without a terminal too long.
        case detachedTooLong
        /// An ssh command ended while locked, when perhaps nobody is there to
        /// unlock (automation with `ssh -tt`); `discarded` tells whether any of
        /// its output was, or may have been, held back and is now dropped.
        case sshCommandEndedWhileLocked(discarded: Bool)
    }

    enum Phase: Equatable {
        /// `killAfterLockAt`: when --kill-after ends the session, while it is locked.
        case running(killAfterLockAt: MonotonicInstant?)
        /// The command was hung up; SIGKILL follows at `killAt`, and once `killed`,
        /// idlewrap gives up waiting at the next deadline.
        case hangingUp(Reason, killAt: MonotonicInstant, killed: Bool)
    }

    /// What the session must do next.
    enum Step: Equatable {
        case nothing
        /// Hang up the command: SIGHUP to its session, and SIGCONT so that a stopped job
        /// acts on it. What the lock held is dropped.
        case hangUp(Reason)
        /// SIGKILL to the command's session: it lingered past the grace.
        case kill
        /// Stop relaying and leave: the command is over, or even SIGKILL did not end it
        /// (a process stuck in the kernel), and idlewrap leaves rather than hang with it.
        case stop
    }

    /// How long a hung-up command may linger before SIGKILL.
    static let hangupGrace: Duration = .seconds(10)
    /// How long idlewrap waits after SIGKILL.
    static let killGrace: Duration = .seconds(1)

    /// --kill-after; zero is never.
    let killAfter: Duration
    /// --detached-kill-after; zero is never.
    let detachedKillAfter: Duration
    private(set) var phase = Phase.running(killAfterLockAt: nil)
    /// When --detached-kill-after ends the session, while it has no terminal.
    private(set) var killAfterDetachAt: MonotonicInstant?

    init(killAfter: Duration, detachedKillAfter: Duration = .zero) {
        self.killAfter = killAfter
        self.detachedKillAfter = detachedKillAfter
    }

    var isRunning: Bool {
        if case .running = phase { true } else { false }
    }

    /// The next time `deadlinePassed` has something to do: --kill-after while locked, or
    /// the hang-up's next step.
    var deadline: MonotonicInstant? {
        switch phase {
        case .running(let killAfterLockAt): .earliest(killAfterLockAt, killAfterDetachAt)
        case .hangingUp(_, let killAt, _): killAt
        }
    }

    /// The session lost its terminal at `now`: --detached-kill-after starts counting.
    mutating func detached(at now: MonotonicInstant) {
        guard isRunning, detachedKillAfter > .zero else { return }
        killAfterDetachAt = now + detachedKillAfter
    }

    /// The session has a terminal again.
    mutating func attached() {
        killAfterDetachAt = nil
    }

    /// The lock engaged at `now`: --kill-after starts counting.
    mutating func lockEngaged(at now: MonotonicInstant) {
        guard isRunning, killAfter > .zero else { return }
        phase = .running(killAfterLockAt: now + killAfter)
    }

    mutating func lockReleased() {
        guard isRunning else { return }
        phase = .running(killAfterLockAt: nil)
    }

    /// Starts hanging up at `now`; true if that is new (a session hangs up once).
    mutating func hangUp(_ reason: Reason, at now: MonotonicInstant) -> Bool {
        guard isRunning else { return false }
        phase = .hangingUp(reason, killAt: now + SessionEnding.hangupGrace, killed: false)
        return true
    }

    /// What is due at `now`.
    mutating func deadlinePassed(at now: MonotonicInstant) -> Step {
        switch phase {
        case .running where killAfterDetachAt.map { $0 <= now } == true:
            return .hangUp(.detachedTooLong)
        case .running(let killAt?) where killAt <= now:
            return .hangUp(.lockedTooLong)
        case .running:
            return .nothing
        case .hangingUp(let reason, let killAt, let killed) where killAt <= now:
            guard !killed else { return .stop }
            phase = .hangingUp(reason, killAt: now + SessionEnding.killGrace, killed: true)
            return .kill
        case .hangingUp:
            return .nothing
        }
    }

    /// What the relay and the lock say of the session, for `check`.
    struct Progress: Equatable {
        /// A command run for ssh without an interactive shell (see `CommandPlan`).
        var isSSHCommand = false
        var isLockingOrLocked = false
        var commandHasExited = false
        var outputEnded = false
        /// Output that arrived while locked, never shown.
        var heldBytes = 0
    }

    /// Whether the session is over, or must be ended, given `progress`. An interactive
    /// session whose command exited while locked stays locked until the unlock. An ssh
    /// command that ended while locked ends the session at once, once its output is read
    /// to the end: waiting for a password that automation will never type would hang it
    /// for ever.
    func check(_ progress: Progress) -> Step {
        guard progress.commandHasExited else { return .nothing }
        switch phase {
        case .running:
            if progress.isSSHCommand && progress.isLockingOrLocked && progress.outputEnded {
                return .hangUp(.sshCommandEndedWhileLocked(discarded: progress.heldBytes > 0))
            }
            return progress.outputEnded && !progress.isLockingOrLocked ? .stop : .nothing
        case .hangingUp:
            return .stop
        }
    }

    /// idlewrap's exit status once the relay is over, given how the command ended, and
    /// what to say on stderr first, if anything.
    func exitStatus(command: TerminationStatus?) -> (status: Int32, message: String?) {
        switch phase {
        case .hangingUp(.signal(let signal), _, _):
            return (ExitStatus.killed(by: signal), nil)
        case .hangingUp(.lockedTooLong, _, _):
            // Said on the terminal: whoever comes back finds a shell prompt, not the session.
            return (
                command?.shellStatus ?? ExitStatus.killed(by: SIGHUP),
                "the session ended: it was locked for longer than --kill-after \(formatDuration(killAfter))"
            )
        case .hangingUp(.detachedTooLong, _, _):
            // Nobody sees stderr: the log says it.
            return (command?.shellStatus ?? ExitStatus.killed(by: SIGHUP), nil)
        case .hangingUp(.sshCommandEndedWhileLocked(let discarded), _, _):
            guard discarded else { return (command?.shellStatus ?? ExitStatus.failure, nil) }
            // Not the command's status: a script must not take the output it got for
            // all there was.
            return (
                ExitStatus.failure, "the command ended while the session was locked; its held output was discarded"
            )
        case .running:
            return (command?.shellStatus ?? ExitStatus.failure, nil)
        }
    }

    /// Whether idlewrap leaves because it was asked to go (a signal, a hung-up terminal):
    /// then it does not wait for output to drain when it restores the terminal.
    var isSignalled: Bool {
        if case .hangingUp(.signal, _, _) = phase { true } else { false }
    }
}

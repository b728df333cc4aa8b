import Glibc
import PTYKit
import Testing

@testable import idlewrap

/// The ending and hang-up rules on a hand-moved clock: --kill-after, the hang-up's
/// grace before SIGKILL and the wait after it, ssh commands that end while locked, and
/// the exit status each way out gives.
@Suite struct SessionEndingTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test func killAfterCountsOnlyWhileLockedAndHangsUpWhenItPasses() {
        var ending = SessionEnding(killAfter: .seconds(60))
        #expect(ending.deadline == nil)
        ending.lockEngaged(at: start)
        #expect(ending.deadline == start + .seconds(60))
        expectStep(&ending, at: start + .seconds(59), .nothing)
        ending.lockReleased()
        #expect(ending.deadline == nil, "an unlock stops the count")
        ending.lockEngaged(at: start + .seconds(100))
        expectStep(&ending, at: start + .seconds(160), .hangUp(.lockedTooLong))
    }

    @Test func killAfterOffNeverEnds() {
        var ending = SessionEnding(killAfter: .zero)
        ending.lockEngaged(at: start)
        #expect(ending.deadline == nil)
        expectStep(&ending, at: start + .seconds(1_000_000), .nothing)
    }

    @Test func aHangUpKillsAfterTenSecondsAndGivesUpOneSecondLater() {
        var ending = SessionEnding(killAfter: .seconds(60))
        ending.lockEngaged(at: start)
        let first = ending.hangUp(.signal(SIGTERM), at: start)
        let second = ending.hangUp(.signal(SIGHUP), at: start)
        #expect(first)
        #expect(!second, "a session hangs up once")
        #expect(!ending.isRunning)
        #expect(ending.deadline == start + .seconds(10), "--kill-after no longer counts")
        expectStep(&ending, at: start + .seconds(9), .nothing)
        expectStep(&ending, at: start + .seconds(10), .kill)
        #expect(ending.deadline == start + .seconds(11))
        expectStep(&ending, at: start + .milliseconds(10_500), .nothing)
        expectStep(&ending, at: start + .seconds(11), .stop)
        #expect(ending.exitStatus(command: nil) == (143, nil))
    }

    @Test func theLockCannotBeEngagedOnceTheSessionHangsUp() {
        var ending = SessionEnding(killAfter: .seconds(5))
        _ = ending.hangUp(.signal(SIGHUP), at: start)
        ending.lockEngaged(at: start)
        #expect(ending.deadline == start + .seconds(10))
    }

    @Test func anInteractiveCommandThatExitsWhileLockedWaitsForTheUnlock() {
        let ending = SessionEnding(killAfter: .zero)
        var progress = SessionEnding.Progress(isLockingOrLocked: true, commandHasExited: true, outputEnded: true)
        #expect(ending.check(progress) == .nothing)
        progress.isLockingOrLocked = false
        #expect(ending.check(progress) == .stop)
        progress.outputEnded = false
        #expect(ending.check(progress) == .nothing, "its output is written out first")
        progress.commandHasExited = false
        progress.outputEnded = true
        #expect(ending.check(progress) == .nothing, "a background job's end of output is not the command's exit")
    }

    @Test func anSSHCommandThatEndsWhileLockedEndsTheSessionOnceItsOutputIsRead() {
        let ending = SessionEnding(killAfter: .zero)
        var progress = SessionEnding.Progress(
            isSSHCommand: true, isLockingOrLocked: true, commandHasExited: true, outputEnded: false)
        #expect(ending.check(progress) == .nothing, "read to its end first")
        progress.outputEnded = true
        #expect(ending.check(progress) == .hangUp(.sshCommandEndedWhileLocked(discarded: false)))
        progress.heldBytes = 12
        #expect(ending.check(progress) == .hangUp(.sshCommandEndedWhileLocked(discarded: true)))
    }

    @Test func onceHangingUpTheCommandsExitStops() {
        var ending = SessionEnding(killAfter: .zero)
        _ = ending.hangUp(.lockedTooLong, at: start)
        #expect(ending.check(SessionEnding.Progress(commandHasExited: false)) == .nothing)
        #expect(ending.check(SessionEnding.Progress(commandHasExited: true)) == .stop)
    }

    @Test func theExitStatusOfEachWayOut() {
        var running = SessionEnding(killAfter: .zero)
        #expect(running.exitStatus(command: .exited(7)) == (7, nil))
        #expect(running.exitStatus(command: .signaled(SIGKILL)) == (137, nil))
        #expect(running.exitStatus(command: nil) == (125, nil))
        #expect(!running.isSignalled)

        _ = running.hangUp(.signal(SIGINT), at: start)
        #expect(running.exitStatus(command: .exited(0)) == (130, nil), "idlewrap's signal, not the command's status")
        #expect(running.isSignalled)

        var lockedTooLong = SessionEnding(killAfter: .seconds(1))
        _ = lockedTooLong.hangUp(.lockedTooLong, at: start)
        let said = "the session ended: it was locked for longer than --kill-after 1s"
        #expect(lockedTooLong.exitStatus(command: .signaled(SIGHUP)) == (129, said))
        #expect(lockedTooLong.exitStatus(command: nil) == (129, said))
        #expect(!lockedTooLong.isSignalled)

        var kept = SessionEnding(killAfter: .zero)
        _ = kept.hangUp(.sshCommandEndedWhileLocked(discarded: false), at: start)
        #expect(kept.exitStatus(command: .exited(3)) == (3, nil))
        var discarded = SessionEnding(killAfter: .zero)
        _ = discarded.hangUp(.sshCommandEndedWhileLocked(discarded: true), at: start)
        #expect(
            discarded.exitStatus(command: .exited(0))
                == (125, "the command ended while the session was locked; its held output was discarded"))
    }

    /// `deadlinePassed` mutates, which #expect cannot call.
    private func expectStep(
        _ ending: inout SessionEnding, at now: MonotonicInstant, _ expected: SessionEnding.Step,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let step = ending.deadlinePassed(at: now)
        #expect(step == expected, sourceLocation: sourceLocation)
    }
}

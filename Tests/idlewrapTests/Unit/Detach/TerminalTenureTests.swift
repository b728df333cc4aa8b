import Glibc
import PTYKit
import Testing

@testable import idlewrap

@Suite struct TerminalTenureTests {
    @Test func neverDetachingHangsUp() {
        var tenure = TerminalTenure(policy: .never, owner: 1000)
        #expect(tenure.terminalWentAway(at: 5) == .hangUp)
        #expect(tenure.state == .original)
        #expect(
            tenure.attach(peer: 1000, take: true, locked: true)
                == .refused("the session does not detach (--detach never)"))
    }

    @Test func aHangUpDetachesOnceAndLeavesTheTerminalsSessionTheFirstTime() {
        var tenure = TerminalTenure(policy: .hangup, owner: 1000)
        #expect(tenure.terminalWentAway(at: 5) == .detach(first: true))
        #expect(tenure.detachedSince == 5)
        #expect(tenure.terminalWentAway(at: 9) == .nothing, "a detached session ignores the hang-up")
        #expect(tenure.detachedSince == 5)
        #expect(tenure.attach(peer: 1000, take: false, locked: true) == .attach)
        #expect(tenure.state == .attached)
        #expect(tenure.detachedSince == nil)
        #expect(tenure.terminalWentAway(at: 20) == .detach(first: false))
        #expect(tenure.detachedSince == 20)
    }

    @Test func aHangUpIsTheSessionsOnlyOnTheFirstTerminal() {
        var tenure = TerminalTenure(policy: .hangup, owner: 1000)
        #expect(tenure.hangUpIsTheTerminals)
        #expect(tenure.attach(peer: 1000, take: true, locked: true) == .takeOver(original: true))
        #expect(!tenure.hangUpIsTheTerminals, "the first terminal's hang-up after a take")
        _ = tenure.terminalWentAway(at: 5)
        #expect(!tenure.hangUpIsTheTerminals)
    }

    @Test func onlyTheSessionsOwnUserAttachesNotEvenRoot() {
        var tenure = TerminalTenure(policy: .hangup, owner: 1000)
        _ = tenure.terminalWentAway(at: 5)
        #expect(tenure.attach(peer: 0, take: false, locked: true) == .refused("uid 0 is not the session's user"))
        #expect(tenure.attach(peer: 1001, take: true, locked: true) == .refused("uid 1001 is not the session's user"))
        #expect(tenure.detachedSince == 5, "a refusal changes nothing")
    }

    @Test func aNewTerminalWaitsForTheLock() {
        var tenure = TerminalTenure(policy: .hangup, owner: 1000)
        _ = tenure.terminalWentAway(at: 5)
        #expect(tenure.attach(peer: 1000, take: false, locked: false) == .refused("the session is locking; try again"))
        #expect(tenure.detachedSince == 5)
        #expect(tenure.refusal(of: 0) == "uid 0 is not the session's user")
        #expect(tenure.refusal(of: 1000) == nil)
    }

    @Test func aSessionWithATerminalIsTakenOnlyWithTake() {
        var tenure = TerminalTenure(policy: .hangup, owner: 1000)
        #expect(
            tenure.attach(peer: 1000, take: false, locked: true)
                == .refused("the session has a terminal (--take takes it)"))
        #expect(tenure.state == .original)
        #expect(tenure.attach(peer: 1000, take: true, locked: true) == .takeOver(original: true))
        #expect(
            tenure.attach(peer: 1000, take: false, locked: true)
                == .refused("the session has a terminal (--take takes it)"))
        #expect(tenure.attach(peer: 1000, take: true, locked: true) == .takeOver(original: false))
        #expect(tenure.state == .attached)
    }
}

@Suite struct AttachMessageTests {
    @Test func messagesAreLinesAndReadBack() {
        for message in [
            AttachMessage.attached, .refused("no terminal was passed"), .exit(0), .exit(255), .detached, .resized,
        ] {
            var received = Array(message.line.utf8)
            #expect(AttachMessage.take(from: &received) == [message])
            #expect(received.isEmpty)
        }
    }

    @Test func partLinesWaitAndNonsenseIsNil() {
        var received = Array("exit 7\nresi".utf8)
        #expect(AttachMessage.take(from: &received) == [.exit(7)])
        #expect(received == Array("resi".utf8))
        received += Array("zed\nexit 300\nexit x\nunlock\n".utf8)
        #expect(AttachMessage.take(from: &received) == [.resized, nil, nil, nil])
        received = [UInt8](repeating: UInt8(ascii: "a"), count: 300)
        #expect(AttachMessage.take(from: &received) == [nil])
        #expect(received.isEmpty)
    }

    @Test func aReasonStaysOnItsLine() {
        #expect(AttachMessage.refused("a\nb").line == "refused a^Jb\n")
    }

    @Test func attachRequestsParse() {
        #expect(ControlRequest.parse(Array("attach\n".utf8)) == .request(.attach))
        #expect(ControlRequest.parse(Array("take\n".utf8)) == .request(.take))
        #expect(ControlRequest.parse(Array("attach --take\n".utf8)) == .invalid)
    }
}

@Suite struct DetachedSessionTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test func detachedKillAfterCountsOnlyWhileDetached() {
        var ending = SessionEnding(killAfter: .zero, detachedKillAfter: .seconds(60))
        #expect(ending.deadline == nil)
        ending.detached(at: start)
        #expect(ending.deadline == start + .seconds(60))
        ending.attached()
        #expect(ending.deadline == nil)
        ending.detached(at: start + .seconds(100))
        #expect(ending.deadlinePassed(at: start + .seconds(159)) == .nothing)
        #expect(ending.deadlinePassed(at: start + .seconds(160)) == .hangUp(.detachedTooLong))
    }

    @Test func theEarlierOfTheTwoLimitsEnds() {
        var ending = SessionEnding(killAfter: .seconds(30), detachedKillAfter: .seconds(60))
        ending.lockEngaged(at: start)
        ending.detached(at: start)
        #expect(ending.deadline == start + .seconds(30))
        #expect(ending.deadlinePassed(at: start + .seconds(30)) == .hangUp(.lockedTooLong))
    }

    @Test func aDetachedSessionSaysSoAndSinceWhen() throws {
        let status = SessionStatus(
            pid: 42, terminal: "/dev/pts/3", user: "alice", command: "vim", idleSeconds: 5, locked: true,
            locksInSeconds: nil, detachedSince: 1_800_000_000)
        #expect(status.reply.hasSuffix("state detached\nlocks-in none\ndetached-since 1800000000\n"))
        #expect(SessionStatus(reply: status.reply) == status)
        #expect(status.json.contains("\"state\": \"detached\""))
        #expect(status.json.contains("\"detached_since\": 1800000000"))
        #expect(SessionTable.row(status)[5] == "detached")
        // A state and a time that disagree are no reply.
        #expect(SessionStatus(reply: status.reply.replacing("state detached", with: "state locked")) == nil)
    }
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

@Suite struct GuardianTests {
    /// Only a session process that said it was done passes its status on; any other end
    /// is idlewrap's failure, and a locked terminal stays locked.
    @Test func theVerdictOnEveryEndInEveryCondition() {
        let ends: [TerminationStatus] = [.exited(0), .exited(7), .exited(125), .signaled(SIGKILL), .signaled(SIGSEGV)]
        for end in ends {
            let locked = Guardian.verdict(on: end, condition: .locked)
            let open = Guardian.verdict(on: end, condition: .open)
            let released = Guardian.verdict(on: end, condition: .released)
            let finished = Guardian.verdict(on: end, condition: .finished)
            #expect(locked == .keepLocked, "\(end)")
            #expect(open == .giveBack, "\(end)")
            #expect(finished == released, "\(end)")
            switch end {
            case .exited(let status): #expect(released == .passOn(status))
            case .signaled: #expect(released == .report)
            }
        }
    }

    /// The page starts open and holds what the session process last said.
    @Test func thePageSaysWhatTheSessionProcessToldIt() throws {
        let page = GuardianPage(try GuardianCalls.sharedPage())
        #expect(page.condition == .open)
        let link = GuardianLink(sessionPid: getpid(), page: page)
        link.lockHolds(true)
        #expect(page.condition == .locked)
        link.commandStarted(1234)
        #expect(page.commandPid == 1234)
        link.commandReaped()
        #expect(page.commandPid == 0)
        link.lockHolds(false)
        #expect(page.condition == .open)
        link.release()
        #expect(page.condition == .released)
    }

    /// The guardian lets go of its pages of code and constants after the split: they
    /// leave the process's resident set, and what runs afterwards faults them back in.
    @Test func theReadOnlyPagesGoAndComeBackWhenRun() throws {
        func residentPages() throws -> Int {
            let statm = try #require(readText("/proc/self/statm"))
            return try #require(Int(statm.split(separator: " ")[1]))
        }
        let before = try residentPages()
        #expect(GuardianCalls.dropReadOnlyPages())
        #expect(try residentPages() < before)
        let buffer = OutputBuffer(capacity: 256)
        TerminalReset.append(to: buffer)
        #expect(String(decoding: buffer.bytes, as: UTF8.self).contains("\u{1b}[?9001l"))
    }

    /// The guardian knows nothing of what the command left on, so its reset switches off
    /// every mode that keeps a password out or echoes it: KAM, SRM reset and
    /// win32-input-mode among the rest.
    @Test func theResetLetsAPasswordInWhateverTheCommandLeftOn() {
        let buffer = OutputBuffer(capacity: 256)
        TerminalReset.append(to: buffer)
        let text = String(decoding: buffer.bytes, as: UTF8.self)
        for off in ["\u{1b}[2l", "\u{1b}[12h", "\u{1b}[?9001l", "\u{1b}[?1000l", "\u{1b}[?2004l"] {
            #expect(text.contains(off), "\(off.debugDescription) missing from \(text.debugDescription)")
        }
    }
}

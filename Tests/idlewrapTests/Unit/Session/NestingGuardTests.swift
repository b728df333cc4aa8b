import Glibc
import Testing

@testable import idlewrap

struct NestingGuardTests {
    func environment(_ entries: [String: String]) -> Environment {
        Environment(entries: entries.map { "\($0.key)=\($0.value)" })
    }

    @Test func nothingClaimedIsUnclaimed() {
        #expect(NestingGuard.check(environment: environment([:])) == .unclaimed)
    }

    @Test func halfAClaimIsNotVerified() {
        #expect(NestingGuard.check(environment: environment(["IDLEWRAP_TTY": "/dev/tty"]))
            == .unverified(reason: "only one of IDLEWRAP_TTY and IDLEWRAP_PID is set"))
        #expect(NestingGuard.check(environment: environment(["IDLEWRAP_PID": "\(getppid())"]))
            == .unverified(reason: "only one of IDLEWRAP_TTY and IDLEWRAP_PID is set"))
    }

    @Test func aPidThatIsNotOneIsNotVerified() {
        for pid in ["", "abc", "0", "1", "-5", "12x"] {
            #expect(NestingGuard.check(environment: environment(["IDLEWRAP_TTY": "/dev/null", "IDLEWRAP_PID": pid]))
                == .unverified(reason: "IDLEWRAP_PID is not a process id"))
        }
    }

    @Test func aTerminalThatIsNotStdinIsNotVerified() {
        // /dev/null is a character device but not the terminal on stdin.
        #expect(NestingGuard.check(environment: environment(["IDLEWRAP_TTY": "/dev/null", "IDLEWRAP_PID": "\(getppid())"]))
            == .unverified(reason: "IDLEWRAP_TTY is not this terminal"))
    }

    @Test func processStatusNamesAndParents() throws {
        let status = try #require(ProcessStatus.read(getpid()))
        #expect(status.parent == getppid())
        #expect(ProcessStatus.parse("42 (idle wrap) S 7 42 42 0 -1")?.name == "idle wrap")
        // A name may hold ") " itself: the last parenthesis ends it.
        let tricky = try #require(ProcessStatus.parse("42 (a) S 1 (b) R 9 42 42 0 -1"))
        #expect(tricky.name == "a) S 1 (b")
        #expect(tricky.parent == 9)
        #expect(ProcessStatus.parse("garbage") == nil)
        #expect(ProcessStatus.read(-1) == nil)
    }
}

import Glibc
import Testing

@testable import TestSupport
@testable import idlewrap

struct NestingGuardTests {
    func environment(_ entries: [String: String]) -> Environment {
        Environment(entries: entries.map { "\($0.key)=\($0.value)" })
    }

    @Test func nothingClaimedIsUnclaimed() {
        #expect(NestingGuard.check(environment: environment([:])) == .unclaimed)
    }

    @Test func anotherTerminalOrNoTerminalIsUnclaimed() {
        // /dev/null is a character device, but not the terminal on stdin and
        // stdout; a tmux pane sees another terminal's IDLEWRAP_TTY like this.
        #expect(
            NestingGuard.check(environment: environment(["IDLEWRAP_TTY": "/dev/null", "IDLEWRAP_PID": "\(getppid())"]))
                == .unclaimed)
        #expect(
            NestingGuard.check(
                environment: environment(["IDLEWRAP_TTY": "/no/such/tty", "IDLEWRAP_PID": "\(getppid())"]))
                == .unclaimed)
        #expect(NestingGuard.check(environment: environment(["IDLEWRAP_PID": "\(getppid())"])) == .unclaimed)
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

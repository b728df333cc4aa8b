import Glibc
import Testing

@testable import PTYKit

@Suite struct ChildProcessTests {
    func run(_ arguments: [String]) throws -> TerminationStatus {
        let terminal = try PseudoTerminal()
        let child = try ChildProcess.spawn(
            arguments, environment: ["PATH=/usr/bin:/bin"], terminalPath: terminal.replicaPath)
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        return TerminationStatus(waitStatus: status)
    }

    @Test func exitCodesAndSignalsAreReported() throws {
        #expect(try run(["sh", "-c", "exit 3"]) == .exited(3))
        #expect(try run(["sh", "-c", "kill -TERM $$"]) == .signaled(SIGTERM))
        #expect(TerminationStatus.signaled(SIGTERM).shellStatus == 143)
        #expect(TerminationStatus.exited(3).shellStatus == 3)
    }

    @Test func missingCommandIsNotFound() {
        #expect {
            _ = try run(["idlewrap-no-such-command"])
        } throws: { error in
            let error = error as? PTYError
            return error?.code == .commandNotFound
                && error?.description == "idlewrap-no-such-command: command not found"
        }
    }

    @Test func directoryIsNotExecutable() {
        #expect {
            _ = try run(["/tmp"])
        } throws: { error in
            (error as? PTYError)?.code == .commandNotExecutable
        }
    }

    @Test func childIsSessionLeaderOnTheTerminalWithDefaultSignals() throws {
        // SIGINT ignored here must not stay ignored in the child: it must die of it.
        signal(SIGINT, SIG_IGN)
        defer { signal(SIGINT, SIG_DFL) }
        #expect(
            try run(["sh", "-c", "[ $(ps -o sid= -p $$) -eq $$ ] && [ -t 0 ] && kill -INT $$"]) == .signaled(SIGINT))
    }
}

import Glibc
import PTYKit
import Testing

@testable import idlewrap

/// What a client makes of a session that closes the connection without a word:
/// a session that ended meanwhile is not an error (a machine-wide --lock-all
/// races with sessions ending), one that is still running is.
@Suite(.timeLimit(.minutes(1)), .requires(.python3))
struct ControlClientTests {
    /// A stand-in session: python3 listens at DIRECTORY/ITS-PID, accepts one
    /// connection, unlinks its socket or not, closes the connection unanswered,
    /// then lingers until the test is done.
    private func standIn(in directory: TemporaryDirectory, unregisters: Bool) throws -> (ChildProcess, String) {
        let script = """
            import os, socket, sys, time
            path = os.path.join(sys.argv[1], str(os.getpid()))
            server = socket.socket(socket.AF_UNIX); server.bind(path); server.listen(1)
            connection, _ = server.accept(); connection.recv(64)
            if sys.argv[2] == "yes": os.unlink(path)
            connection.close(); time.sleep(30)
            """
        let program = try directory.write("session.py", script)
        let process = try ChildProcess.spawnDetachedShell(
            "exec /usr/bin/python3 \(program) \(directory.path) \(unregisters ? "yes" : "no")", environment: [])
        // `exec` keeps the pid, which names the socket.
        let path = directory.file(String(process.pid))
        let deadline = MonotonicInstant.now() + .seconds(20)
        while (try? FileSystem.status(ofPath: path, followingLinks: false)) == nil && MonotonicInstant.now() < deadline
        {
            usleep(10_000)
        }
        return (process, path)
    }

    private func end(_ process: ChildProcess) {
        process.send(SIGKILL)
        let deadline = MonotonicInstant.now() + .seconds(10)
        while (try? process.reapIfExited()) == nil && MonotonicInstant.now() < deadline { usleep(10_000) }
    }

    @Test func aSessionThatUnregisteredWhileAskedIsGone() throws {
        let directory = try TemporaryDirectory()
        let (process, path) = try standIn(in: directory, unregisters: true)
        defer { end(process) }
        #expect(ControlClient.send(.lock, to: .init(path: path, uid: getuid())) == .gone)
    }

    @Test func aRunningSessionThatDoesNotAnswerIsAFailure() throws {
        let directory = try TemporaryDirectory()
        let (process, path) = try standIn(in: directory, unregisters: false)
        defer { end(process) }
        #expect(ControlClient.send(.lock, to: .init(path: path, uid: getuid())) == .failed("closed without an answer"))
    }
}

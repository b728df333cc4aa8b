import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

/// What a client makes of a session that closes the connection without a word:
/// a session that ended meanwhile is not an error (a machine-wide --lock-all
/// races with sessions ending), one that is still running is.
@Suite(.timeLimit(.minutes(1)), .requires(.python3))
struct ControlClientTests {
    /// A stand-in session: python3 listens at DIRECTORY/ITS-PID, accepts one
    /// connection, unlinks its socket or not, closes the connection unanswered,
    /// then lingers until the test is done. Like a session, it puts its socket
    /// under that name only once it listens: a socket file that is there while
    /// nobody listens yet was once refused as stale, a race the test lost
    /// under load.
    private func standIn(in directory: TemporaryDirectory, unregisters: Bool) throws -> (ChildProcess, String) {
        let script = """
            import os, socket, sys, time
            path = os.path.join(sys.argv[1], str(os.getpid()))
            server = socket.socket(socket.AF_UNIX); server.bind(path + ".new"); server.listen(1)
            os.rename(path + ".new", path)
            connection, _ = server.accept(); connection.recv(64)
            if sys.argv[2] == "yes": os.unlink(path)
            connection.close(); time.sleep(30)
            """
        let program = try directory.write("session.py", script)
        // Named idlewrap, as root's client wants the program behind a socket to be.
        let python = directory.file("idlewrap")
        try #require(TestUser.run(["/bin/cp", "/usr/bin/python3", python]))
        let process = try ChildProcess.spawnDetachedShell(
            "exec \(python) \(program) \(directory.path) \(unregisters ? "yes" : "no")", environment: [])
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

    /// The outcome of asking the one session in `directory`.
    private func ask(_ request: ControlRequest, in directory: TemporaryDirectory) throws -> ControlClient.Outcome? {
        let opened = try #require(try RuntimeDirectory.open(directory.path, uid: getuid()).get())
        let endpoints = ControlClient.endpoints(in: opened)
        try #require(endpoints.count == 1)
        return ControlClient.ask(request, endpoints).first
    }

    @Test func aSessionThatUnregisteredWhileAskedIsGone() throws {
        let directory = try TemporaryDirectory()
        let (process, _) = try standIn(in: directory, unregisters: true)
        defer { end(process) }
        #expect(try ask(.lock, in: directory) == .gone)
    }

    @Test func aRunningSessionThatDoesNotAnswerIsAFailure() throws {
        let directory = try TemporaryDirectory()
        let (process, _) = try standIn(in: directory, unregisters: false)
        defer { end(process) }
        #expect(try ask(.lock, in: directory) == .failed("closed without an answer"))
    }
}

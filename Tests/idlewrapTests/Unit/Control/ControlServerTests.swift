import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

/// A session's control socket at its end.
struct ControlServerTests {
    /// A server in a runtime directory of the test's own, named by a pid no process has.
    private func register(in directory: TemporaryDirectory) throws -> ControlServer {
        chmod(directory.path, 0o700)
        let environment = Environment(entries: ["XDG_RUNTIME_DIR=\(directory.path)"])
        return try ControlServer.register(pid: 4_194_003, uid: getuid(), environment: environment).get()
    }

    @Test func theEndRemovesTheSocket() throws {
        let directory = try TemporaryDirectory()
        let server = try register(in: directory)
        server.shutDown()
        #expect((try? FileSystem.status(ofPath: server.path, followingLinks: false)) == nil)
    }

    /// Once a `--take` let the guardian go, its pid, which names the socket, may be a new
    /// session's, whose socket replaces the old one's name: the old session's end leaves it.
    @Test func theEndLeavesASocketThatTookItsName() throws {
        let directory = try TemporaryDirectory()
        let server = try register(in: directory)
        let newer = try UnixSocket.listen(at: server.path + ".new")
        defer { try? newer.close() }
        try FileSystem.rename(server.path + ".new", to: server.path)
        server.shutDown()
        #expect((try? FileSystem.status(ofPath: server.path, followingLinks: false)) != nil)
    }
}

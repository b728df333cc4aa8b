import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

@Suite struct UnixSocketTests {
    /// A fresh socket path in a private directory.
    private func socketPath() throws -> (directory: String, path: String) {
        var template = Array("/tmp/ptykit-socket-test.XXXXXX".utf8CString)
        try #require(mkdtemp(&template) != nil, "mkdtemp failed: \(errno)")
        let directory = string(fromNulTerminated: template)
        return (directory, directory + "/s")
    }

    private func cleanUp(_ directory: String, _ path: String) {
        unlink(path)
        rmdir(directory)
    }

    @Test func aConnectionIsAcceptedAndItsPeerKnown() throws {
        let (directory, path) = try socketPath()
        defer { cleanUp(directory, path) }
        let listener = try UnixSocket.listen(at: path)
        defer { try? listener.close() }
        // Nothing waits yet: accept does not block.
        #expect(try UnixSocket.accept(on: listener) == nil)
        let client = try UnixSocket.connect(to: path)
        defer { try? client.close() }
        let server = try #require(try UnixSocket.accept(on: listener))
        defer { try? server.close() }
        #expect(try server.statusFlags() & O_NONBLOCK != 0)
        #expect(fcntl(server.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        let peer = try UnixSocket.peerCredentials(of: server)
        #expect(peer == UnixSocket.PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid()))
        try UnixSocket.sendAll("lock\n", on: client)
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = try buffer.withUnsafeMutableBytes { try server.read(into: $0) }
        #expect(Array(buffer[..<count]) == Array("lock\n".utf8))
    }

    @Test func aSocketNobodyListensOnRefusesAndSendingToAGonePeerFails() throws {
        let (directory, path) = try socketPath()
        defer { cleanUp(directory, path) }
        let listener = try UnixSocket.listen(at: path)
        let client = try UnixSocket.connect(to: path)
        defer { try? client.close() }
        try listener.close()
        do {
            _ = try UnixSocket.connect(to: path)
            Issue.record("connected to a closed listener")
        } catch {
            #expect(error.underlying == Errno(rawValue: ECONNREFUSED))
            #expect(error.description.hasPrefix("socket call failed (connect \(path))"))
        }
        // The listener went with the connection still in its backlog: the
        // client's send fails with EPIPE or ECONNRESET.
        #expect(throws: Errno.self) {
            for _ in 0..<3 { try UnixSocket.sendAll("status\n", on: client) }
        }
    }

    @Test func aPathTooLongIsRefusedBeforeAnyCall() {
        let long = "/tmp/" + String(repeating: "x", count: 200)
        do {
            _ = try UnixSocket.listen(at: long)
            Issue.record("listened at a path longer than sun_path")
        } catch {
            #expect(error.underlying == Errno(rawValue: ENAMETOOLONG))
        }
    }

    /// A connection through the open socket file reaches that file, even
    /// once its name has gone or points elsewhere.
    @Test func aConnectionThroughTheOpenFileReachesThatFile() throws {
        let (directory, path) = try socketPath()
        defer { cleanUp(directory, path) }
        let listener = try UnixSocket.listen(at: path)
        defer { try? listener.close() }
        let parent = try FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY)
        defer { try? parent.close() }
        let file = try FileSystem.openWithoutFollowing("s", in: parent)
        defer { try? file.close() }
        #expect(rename(path, directory + "/moved") == 0)
        #expect(symlink("/nonexistent", path) == 0)
        defer { unlink(directory + "/moved") }
        let client = try UnixSocket.connect(toSocketOpenOn: file)
        defer { try? client.close() }
        let server = try #require(try UnixSocket.accept(on: listener))
        try? server.close()
    }
}

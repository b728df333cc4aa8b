import Glibc
import PTYKit

/// A wrapping idlewrap's control socket, `DIRECTORY/PID`, which --lock-all
/// and --list talk to (dtach's master socket, tmux's per-user directory).
///
/// It lives on the relay's one thread and never blocks it: the listener and
/// each connection are watched by the relay; accepting and reading are
/// non-blocking; a connection gets at most `patience` to send its one request
/// line and is then closed, so a client that sends nothing costs nothing. Only
/// a peer with our uid, or root, is answered (SO_PEERCRED); anyone else is
/// closed unanswered, although the directory's mode should already keep them out.
final class ControlServer {
    /// How long a client has to send its request.
    static let patience: Duration = .seconds(2)
    /// Connections served at once; more are closed unanswered.
    static let maximumConnections = 8
    /// How long accepting pauses after accept failed (out of descriptors):
    /// the waiting connection keeps the listener readable, and retrying at
    /// once would spin, as tmux's server_accept knows.
    static let acceptPause: Duration = .seconds(1)

    private(set) var path: String
    private(set) var listener: FileDescriptor
    /// The socket file's device and inode, so that only this very file is ever removed.
    private var file: (device: dev_t, inode: ino_t)
    private let owner: uid_t
    private var connections: [FileDescriptor: Connection] = [:]
    /// While set, the listener is not to be watched.
    private(set) var acceptPausedUntil: MonotonicInstant?

    private struct Connection {
        let peer: UnixSocket.PeerCredentials
        var received: [UInt8] = []
        /// Passed along with the request (an attaching client's terminal).
        var descriptors: [FileDescriptor] = []
        let deadline: MonotonicInstant
    }

    /// The most descriptors a request may pass: a terminal's input and output.
    static let maximumPassed = 2

    private init(path: String, listener: FileDescriptor, file: (device: dev_t, inode: ino_t), owner: uid_t) {
        self.path = path
        self.listener = listener
        self.file = file
        self.owner = owner
    }

    /// Listens at `DIRECTORY/PID` in the user's runtime directory; or says why not.
    static func register(
        pid: pid_t, uid: uid_t, environment: Environment, outlivingLogin: Bool = false
    ) -> Result<ControlServer, ControlProblem> {
        let directory: String
        switch RuntimeDirectory.forRegistering(uid: uid, environment: environment, outlivingLogin: outlivingLogin) {
        case .success(let found): directory = found
        case .failure(let reason): return .failure(reason)
        }
        return listen(at: "\(directory)/\(pid)").map {
            ControlServer(path: $0.path, listener: $0.listener, file: $0.file, owner: uid)
        }
    }

    /// A listener at `path`. It is made under another name and renamed once it listens,
    /// so that the socket's name never stands for a socket nobody listens on yet, which a
    /// client would take for a stale one. The rename replaces a socket left by an earlier
    /// process with the same pid, killed by SIGKILL.
    private static func listen(at path: String) -> Result<
        (path: String, listener: FileDescriptor, file: (device: dev_t, inode: ino_t)), ControlProblem
    > {
        let unready = path + ".new"
        try? FileSystem.removeFile(unready)
        let listener: FileDescriptor
        do {
            listener = try UnixSocket.listen(at: unready)
        } catch {
            return .failure(ControlProblem(error.description))
        }
        do {
            let file = try FileSystem.status(ofPath: unready, followingLinks: false)
            try FileSystem.rename(unready, to: path)
            return .success((path, listener, (file.st_dev, file.st_ino)))
        } catch {
            try? listener.close()
            try? FileSystem.removeFile(unready)
            return .failure(ControlProblem("cannot rename \(unready) to \(path): \(error)"))
        }
    }

    /// Listens anew as `pid`, this process, in the same directory, and lets go of the
    /// socket named by the guardian's pid. Once the guardian has gone (`GuardianLink.leave`),
    /// its pid can come back for a new idlewrap of the user's, whose socket would take this
    /// one's name and hide the session from --list and --attach; this process's own pid is
    /// nobody else's while it lives. The listener is made anew, not renamed, because the
    /// kernel names the process that listened (SO_PEERCRED), and clients check that it is
    /// the one the name says. Connections already accepted go on; one still waiting to be
    /// accepted on the old listener is refused, as at a session's end.
    func move(toPid pid: pid_t) throws(ControlProblem) {
        let directory = path[..<(path.lastIndex(of: "/") ?? path.startIndex)]
        let moved = try Self.listen(at: "\(directory)/\(pid)").get()
        removeFileIfOwn()
        try? listener.close()
        (path, listener, file) = moved
    }

    /// The earliest time a silent client must be cut off, or accepting resume.
    var deadline: MonotonicInstant? {
        MonotonicInstant.earliest(connections.values.map(\.deadline).min(), acceptPausedUntil)
    }

    /// Whether accepting was paused and may resume now; the caller then
    /// watches the listener again.
    func resumeAccepting(at now: MonotonicInstant) -> Bool {
        guard let until = acceptPausedUntil, until <= now else { return false }
        acceptPausedUntil = nil
        return true
    }

    func isConnection(_ descriptor: FileDescriptor) -> Bool {
        connections[descriptor] != nil
    }

    /// When `connection` must have sent its request.
    func deadline(of connection: FileDescriptor) -> MonotonicInstant? {
        connections[connection]?.deadline
    }

    /// Takes the waiting connections, and returns those the relay should
    /// now watch. Peers that are neither our user nor root, and any beyond
    /// `maximumConnections`, are closed at once. When accept fails, accepting
    /// pauses (`acceptPausedUntil`): the caller stops watching the listener.
    func acceptWaiting(now: MonotonicInstant) -> [FileDescriptor] {
        var accepted: [FileDescriptor] = []
        while true {
            let next: FileDescriptor?
            do {
                next = try UnixSocket.accept(on: listener)
            } catch {
                acceptPausedUntil = now + ControlServer.acceptPause
                break
            }
            guard let connection = next else { break }
            guard connections.count < ControlServer.maximumConnections,
                let peer = try? UnixSocket.peerCredentials(of: connection), peer.uid == owner || peer.uid == 0
            else {
                try? connection.close()
                continue
            }
            connections[connection] = Connection(peer: peer, deadline: now + ControlServer.patience)
            accepted.append(connection)
        }
        return accepted
    }

    /// Reads what `connection` sent. Once it is a whole request, `answer`
    /// gives the reply, which is sent before the connection is closed, or keeps
    /// the connection (an attach). Returns true when the connection is finished:
    /// the caller stops watching it and then calls `close(_:)`, which leaves a
    /// kept connection alone.
    func serve(_ connection: FileDescriptor, answer: (ControlCall) -> ControlAnswer) -> Bool {
        guard var state = connections[connection] else { return true }
        var buffer = [UInt8](repeating: 0, count: ControlRequest.maximumLength)
        let room = ControlRequest.maximumLength - state.received.count
        let read = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in
                try UnixSocket.receive(
                    into: UnsafeMutableRawBufferPointer(rebasing: raw[..<room]),
                    capacity: ControlServer.maximumPassed - state.descriptors.count, on: connection)
            }
        }
        switch read {
        case .success(let received):
            state.descriptors += received.descriptors
            connections[connection] = state
            guard received.count > 0 else { return true }
            state.received += buffer[..<received.count]
        case .failure(.wouldBlock): return false
        case .failure: return true
        }
        connections[connection] = state
        let reply: String
        switch ControlRequest.parse(state.received) {
        case .incomplete: return false
        case .invalid: reply = ControlRequest.errorReply
        case .request(let request):
            let call = ControlCall(
                request: request, peer: state.peer, connection: connection, descriptors: state.descriptors)
            state.descriptors = []
            connections[connection] = state
            switch answer(call) {
            case .reply(let text): reply = text
            case .kept:
                connections.removeValue(forKey: connection)
                return true
            }
        }
        // A reply is a few hundred bytes, far below a socket's buffer: one
        // non-blocking write takes it, and a peer that does not read loses it.
        let bytes = Array(reply.utf8)
        _ = bytes.withUnsafeBytes { try? UnixSocket.send($0, on: connection) }
        return true
    }

    /// The connections whose client took too long; the caller stops watching
    /// them and then calls `close(_:)`.
    func overdue(at now: MonotonicInstant) -> [FileDescriptor] {
        connections.filter { $0.value.deadline <= now }.map(\.key)
    }

    func close(_ connection: FileDescriptor) {
        guard let state = connections.removeValue(forKey: connection) else { return }
        for descriptor in state.descriptors { try? descriptor.close() }
        try? connection.close()
    }

    /// Unregisters: removes the socket file, if it is still this one, and closes
    /// everything. The caller has stopped watching the descriptors.
    func shutDown() {
        for connection in connections.keys { close(connection) }
        connections = [:]
        removeFileIfOwn()
        try? listener.close()
    }

    /// Removes the socket file if it is still this one: a new process with the pid that
    /// names it may have put its own in its place.
    private func removeFileIfOwn() {
        if let now = try? FileSystem.status(ofPath: path, followingLinks: false),
            now.st_dev == file.device && now.st_ino == file.inode
        {
            try? FileSystem.removeFile(path)
        }
    }

    var descriptors: [FileDescriptor] {
        [listener] + connections.keys
    }
}

/// A whole request as the session gets it.
struct ControlCall {
    let request: ControlRequest
    /// Who sent it, as the kernel says (SO_PEERCRED).
    let peer: UnixSocket.PeerCredentials
    let connection: FileDescriptor
    /// What came with it: an attaching client's terminal. The session's to close,
    /// whatever it answers.
    let descriptors: [FileDescriptor]
}

/// What the session makes of a request.
enum ControlAnswer: Equatable {
    /// Sent, then the connection closes.
    case reply(String)
    /// The session keeps the connection (an attach): the server forgets it unclosed.
    case kept
}

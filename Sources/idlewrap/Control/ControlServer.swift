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
    static let patience: Nanoseconds = 2_000_000_000
    /// Connections served at once; more wait in the listen backlog.
    static let maximumConnections = 8

    let path: String
    let listener: FileDescriptor
    private let owner: uid_t
    private var connections: [FileDescriptor: Connection] = [:]

    private struct Connection {
        var received: [UInt8] = []
        let deadline: MonotonicInstant
    }

    private init(path: String, listener: FileDescriptor, owner: uid_t) {
        self.path = path
        self.listener = listener
        self.owner = owner
    }

    /// Listens at `DIRECTORY/PID` in the user's runtime directory; or says why not.
    static func register(pid: pid_t, uid: uid_t, environment: Environment) -> Result<ControlServer, NotRegistered> {
        let directory: String
        switch RuntimeDirectory.forRegistering(uid: uid, environment: environment) {
        case .success(let found): directory = found
        case .failure(let reason): return .failure(reason)
        }
        let path = "\(directory)/\(pid)"
        // A socket left by an earlier process with our pid, killed by
        // SIGKILL: nobody listens on it, and the directory is ours.
        try? FileSystem.removeFile(path)
        do {
            return .success(ControlServer(path: path, listener: try UnixSocket.listen(at: path), owner: uid))
        } catch {
            return .failure(NotRegistered(error.description))
        }
    }

    /// The earliest time a silent client must be cut off.
    var deadline: MonotonicInstant? {
        connections.values.map(\.deadline).min()
    }

    func isConnection(_ descriptor: FileDescriptor) -> Bool {
        connections[descriptor] != nil
    }

    /// Takes the waiting connections, and returns those the relay should
    /// now watch. Peers that are neither our user nor root are closed at once.
    func acceptWaiting(now: MonotonicInstant) -> [FileDescriptor] {
        var accepted: [FileDescriptor] = []
        while connections.count < ControlServer.maximumConnections {
            guard let connection = try? UnixSocket.accept(on: listener) else { break }
            guard let peer = try? UnixSocket.peerCredentials(of: connection), peer.uid == owner || peer.uid == 0 else {
                try? connection.close()
                continue
            }
            connections[connection] = Connection(deadline: now + ControlServer.patience)
            accepted.append(connection)
        }
        return accepted
    }

    /// Reads what `connection` sent. Once it is a whole request, `answer`
    /// gives the reply, which is sent before the connection is closed. Returns
    /// true when the connection is finished: the caller stops watching it and
    /// then calls `close(_:)`.
    func serve(_ connection: FileDescriptor, answer: (ControlRequest) -> String) -> Bool {
        guard var state = connections[connection] else { return true }
        var buffer = [UInt8](repeating: 0, count: ControlRequest.maximumLength)
        let room = ControlRequest.maximumLength - state.received.count
        let read = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in try connection.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[..<room])) }
        }
        switch read {
        case .success(0): return true
        case .success(let count): state.received += buffer[..<count]
        case .failure(.wouldBlock): return false
        case .failure: return true
        }
        connections[connection] = state
        let reply: String
        switch ControlRequest.parse(state.received) {
        case .incomplete: return false
        case .invalid: reply = ControlRequest.errorReply
        case .request(let request): reply = answer(request)
        }
        // A reply is a few hundred bytes, far below a socket's buffer: one
        // non-blocking write takes it, and a peer that does not read loses it.
        _ = try? connection.writeOnce(reply)
        return true
    }

    /// The connections whose client took too long; the caller stops watching
    /// them and then calls `close(_:)`.
    func overdue(at now: MonotonicInstant) -> [FileDescriptor] {
        connections.filter { $0.value.deadline <= now }.map(\.key)
    }

    func close(_ connection: FileDescriptor) {
        guard connections.removeValue(forKey: connection) != nil else { return }
        try? connection.close()
    }

    /// Unregisters: removes the socket file and closes everything. The caller
    /// has stopped watching the descriptors.
    func shutDown() {
        for connection in connections.keys { try? connection.close() }
        connections = [:]
        try? FileSystem.removeFile(path)
        try? listener.close()
    }

    var descriptors: [FileDescriptor] {
        [listener] + connections.keys
    }
}

extension FileDescriptor {
    /// One write of `text`, never waiting: a non-blocking socket takes all of
    /// a short reply or, when its peer stopped reading, whatever fits.
    fileprivate func writeOnce(_ text: String) throws(Errno) {
        var text = text
        let result = text.withUTF8 { utf8 in
            Result { () throws(Errno) in _ = try write(UnsafeRawBufferPointer(utf8)) }
        }
        try result.get()
    }
}

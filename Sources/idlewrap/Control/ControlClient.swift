import Glibc
import PTYKit

/// The client side of the control sockets, for --lock-all and --list: finds
/// the sockets of the users asked for, and asks each session one request.
enum ControlClient {
    /// How long a session has to answer. A wrapping idlewrap answers at once;
    /// one that is stopped (^Z on an outer shell) does not.
    static let patience: Duration = .seconds(3)
    /// The longest reply read; a `status` reply is far shorter.
    static let maximumReply = 4096

    /// One session's socket, and the user it must belong to.
    struct Endpoint: Equatable {
        let path: String
        let uid: uid_t
    }

    enum Outcome: Equatable {
        case reply(String)
        /// Nobody listened (the session was killed): the socket file was removed.
        case stale
        /// The session ended meanwhile.
        case gone
        case failed(String)
    }

    /// The sockets of `uids`' sessions: entries named by a pid that are
    /// sockets owned by that user, in directories that are safe. The caller's
    /// `environment` (XDG_RUNTIME_DIR) counts only for the caller's own uid.
    static func endpoints(of uids: [uid_t], environment: Environment) -> [Endpoint] {
        var found: [Endpoint] = []
        for uid in uids {
            let ownEnvironment = uid == getuid() ? environment : nil
            for directory in RuntimeDirectory.candidates(uid: uid, environment: ownEnvironment) {
                let names = (try? FileSystem.entries(ofDirectory: directory)) ?? []
                for name in names.sorted(by: { (Int($0) ?? 0) < (Int($1) ?? 0) }) where isPid(name) {
                    let path = "\(directory)/\(name)"
                    guard let info = try? FileSystem.status(ofPath: path, followingLinks: false),
                        info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == uid
                    else { continue }
                    found.append(Endpoint(path: path, uid: uid))
                }
            }
        }
        return found
    }

    /// Sends `request` to the session at `endpoint` and returns its reply.
    /// The session must be run by the endpoint's user (SO_PEERCRED): a socket
    /// that someone else answers is not trusted with a request.
    static func send(_ request: ControlRequest, to endpoint: Endpoint) -> Outcome {
        let connection: FileDescriptor
        do {
            connection = try UnixSocket.connect(to: endpoint.path)
        } catch {
            switch error.underlying?.rawValue {
            case ECONNREFUSED?:
                try? FileSystem.removeFile(endpoint.path)
                return .stale
            case ENOENT?:
                return .gone
            default:
                return .failed(error.description)
            }
        }
        defer { try? connection.close() }
        do {
            let peer = try UnixSocket.peerCredentials(of: connection)
            guard peer.uid == endpoint.uid else {
                return .failed("answered by uid \(peer.uid), not by uid \(endpoint.uid)")
            }
            try UnixSocket.sendAll(request.line, on: connection)
        } catch let error as PTYError {
            return hasEnded(endpoint) ? .gone : .failed(error.description)
        } catch {
            return hasEnded(endpoint) ? .gone : .failed("cannot send the request: \(error)")
        }
        let outcome = readReply(from: connection)
        if case .failed = outcome, hasEnded(endpoint) { return .gone }
        return outcome
    }

    /// Whether the session behind `endpoint` is over: it unregistered, or its
    /// process is gone. A session that ends while it is asked is not an error;
    /// one that is still there and does not answer is.
    private static func hasEnded(_ endpoint: Endpoint) -> Bool {
        let pid = endpoint.path.split(separator: "/").last.map(String.init) ?? ""
        return (try? FileSystem.status(ofPath: endpoint.path, followingLinks: false)) == nil
            || (try? FileSystem.status(ofPath: "/proc/\(pid)")) == nil
    }

    /// Reads until the session closes the connection, at most `patience`.
    private static func readReply(from connection: FileDescriptor) -> Outcome {
        let deadline = MonotonicInstant.now() + patience
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while reply.count < maximumReply {
            let left = deadline - MonotonicInstant.now()
            guard left > .zero else { return .failed("no answer within \(patience.components.seconds) s") }
            var slot = pollfd(fd: connection.rawValue, events: Int16(POLLIN), revents: 0)
            let ready = withUnsafeMutablePointer(to: &slot) { slot in
                Result { () throws(Errno) in
                    try poll(
                        UnsafeMutableBufferPointer(start: slot, count: 1),
                        timeout: Int32(left.wholeNanoseconds / 1_000_000 + 1))
                }
            }
            guard case .success(let count) = ready else { return .failed("poll failed") }
            if count == 0 { continue }
            let read = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in try connection.read(into: raw) }
            }
            switch read {
            case .success(0):
                // Closed without a word: the session does not answer us.
                return reply.isEmpty
                    ? .failed("closed without an answer") : .reply(String(decoding: reply, as: UTF8.self))
            case .success(let count): reply += buffer[..<count]
            case .failure(.wouldBlock): continue
            case .failure(let error): return .failed("cannot read the answer: \(error)")
            }
        }
        return .failed("the answer is too long")
    }

    private static func isPid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 10
            && name.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}

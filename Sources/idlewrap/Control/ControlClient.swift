import Glibc
import PTYKit

/// The client side of the control sockets, for --lock-all and --list: finds
/// the sockets of the users asked for, and asks all their sessions one request
/// at once.
///
/// Root works in directories other users control, so it never goes there by
/// path: each directory is opened without following a link and checked, each
/// socket file opened (`O_PATH | O_NOFOLLOW`) in that directory and checked,
/// the connection made to that very file, and a stale socket removed with
/// `unlinkat` in that directory (`OpenRuntimeDirectory`). Before a request is
/// sent, the kernel's word on the listener (SO_PEERCRED) must agree with the
/// name: the directory's user and the pid the socket is named by. For root, who
/// can read /proc/PID/exe of any process, the process that answers must also
/// be a program named idlewrap, as the kernel names it with the answer
/// (SCM_CREDENTIALS): the session process, which serves the socket its
/// guardian made, and after a `--take` goes on without it under a socket of
/// its own.
/// Every session is asked at once under one deadline, so that sessions that do
/// not answer cost the others nothing.
enum ControlClient {
    /// How long a session has to answer. A wrapping idlewrap answers at once;
    /// one that is stopped (^Z on an outer shell) does not.
    static let patience: Duration = .seconds(3)
    /// The longest reply read; a `status` reply is far shorter.
    static let maximumReply = 4096
    /// Connections open at once; more sessions wait for a free place (within
    /// the same deadline), so that descriptors never run out.
    static let maximumConnections = 256

    /// One session's socket: `pid` in the open directory of user `uid`.
    struct Endpoint {
        let directory: OpenRuntimeDirectory
        let name: String
        var pid: pid_t { pid_t(name) ?? 0 }
        var uid: uid_t { directory.uid }
        var path: String { "\(directory.path)/\(name)" }
    }

    enum Outcome: Equatable {
        /// What the session answered, and who the kernel says answered.
        case reply(String, peer: UnixSocket.PeerCredentials)
        /// Nobody listened and the process it is named by is gone (killed):
        /// the socket file was removed.
        case stale
        /// The session ended meanwhile, or is just starting or ending.
        case gone
        /// Another name of a process already asked.
        case duplicate
        case failed(String)
    }

    /// The sockets of `uids`' sessions, fairly mixed (each user's first
    /// session, then each one's second, ...), and why a directory of theirs
    /// could not be used. The caller's `environment` (XDG_RUNTIME_DIR) counts
    /// only for the caller's own uid.
    static func endpoints(of uids: [uid_t], environment: Environment) -> (
        endpoints: [Endpoint], problems: [ControlProblem]
    ) {
        var perUser: [[Endpoint]] = []
        var problems: [ControlProblem] = []
        for uid in uids {
            let (directories, found) = RuntimeDirectory.lookUp(
                uid: uid, environment: uid == getuid() ? environment : nil)
            problems += found
            perUser.append(directories.flatMap(endpoints(in:)))
        }
        var mixed: [Endpoint] = []
        for round in 0..<(perUser.map(\.count).max() ?? 0) {
            for endpoints in perUser where round < endpoints.count { mixed.append(endpoints[round]) }
        }
        return (mixed, problems)
    }

    /// The entries of `directory` named by a pid that are sockets of its user's.
    static func endpoints(in directory: OpenRuntimeDirectory) -> [Endpoint] {
        let names = (try? FileSystem.entries(of: directory.descriptor)) ?? []
        return names.filter(isPid).sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.filter { name in
            guard let info = try? FileSystem.status(of: name, in: directory.descriptor) else { return false }
            return info.st_mode & S_IFMT == S_IFSOCK && info.st_uid == directory.uid
        }.map { Endpoint(directory: directory, name: $0) }
    }

    /// Sends `request` to every session in `endpoints` at once and returns
    /// their outcomes, in the same order, once all have answered or `patience`
    /// has passed.
    static func ask(_ request: ControlRequest, _ endpoints: [Endpoint]) -> [Outcome] {
        let deadline = MonotonicInstant.now() + patience
        var outcomes = [Outcome?](repeating: nil, count: endpoints.count)
        var open: [Int: Connection] = [:]
        var askedProcesses: Set<pid_t> = []
        var next = 0
        while true {
            while open.count < maximumConnections && next < endpoints.count {
                switch connect(endpoints[next], request: request, asked: &askedProcesses) {
                case .success(let connection): open[next] = connection
                case .failure(let finished): outcomes[next] = finished.outcome
                }
                next += 1
            }
            let left = deadline - MonotonicInstant.now()
            // The places are filled as far as they go: none open means none left.
            if open.isEmpty || left <= .zero { break }
            let indices = Array(open.keys)
            var slots = indices.map { pollfd(fd: open[$0]!.descriptor.rawValue, events: Int16(POLLIN), revents: 0) }
            let ready = slots.withUnsafeMutableBufferPointer { slots in
                Result { () throws(Errno) in try poll(slots, timeout: Int32(left.wholeNanoseconds / 1_000_000 + 1)) }
            }
            guard case .success(let count) = ready else { break }
            if count == 0 { continue }
            for (slot, index) in zip(slots, indices) where slot.revents != 0 {
                if let outcome = open[index]!.read(endpoints[index]) {
                    outcomes[index] = outcome
                    open.removeValue(forKey: index)?.close()
                }
            }
        }
        for (index, connection) in open {
            connection.close()
            outcomes[index] =
                hasEnded(endpoints[index]) ? .gone : .failed("no answer within \(patience.components.seconds) s")
        }
        return outcomes.map { $0 ?? .failed("not asked within \(patience.components.seconds) s") }
    }

    /// One session's connection while its reply comes in.
    private final class Connection {
        let descriptor: FileDescriptor
        let peer: UnixSocket.PeerCredentials
        private var reply: [UInt8] = []

        init(descriptor: FileDescriptor, peer: UnixSocket.PeerCredentials) {
            self.descriptor = descriptor
            self.peer = peer
        }

        /// Reads what is there; the outcome once the session closed the
        /// connection (or misbehaved), nil while it is still answering.
        func read(_ endpoint: Endpoint) -> Outcome? {
            var buffer = [UInt8](repeating: 0, count: 1024)
            let read = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in try UnixSocket.receive(into: raw, on: descriptor) }
            }
            switch read {
            case .success((0, _)):
                if !reply.isEmpty { return .reply(String(decoding: reply, as: UTF8.self), peer: peer) }
                // Closed without a word: the session does not answer us.
                return hasEnded(endpoint) ? .gone : .failed("closed without an answer")
            case .success((let count, let sender)):
                if geteuid() == 0, let problem = ControlClient.problem(withAnswerFrom: sender) {
                    return .failed(problem)
                }
                reply += buffer[..<count]
                return reply.count > maximumReply ? .failed("the answer is too long") : nil
            case .failure(.wouldBlock): return nil
            case .failure(let error): return hasEnded(endpoint) ? .gone : .failed("cannot read the answer: \(error)")
            }
        }

        func close() {
            try? descriptor.close()
        }
    }

    /// Why a session was not asked after all.
    private struct Finished: Error {
        let outcome: Outcome
    }

    /// Connects to the socket of `endpoint`, checks who listens there, and
    /// sends `request`; or the outcome when that is already decided.
    private static func connect(_ endpoint: Endpoint, request: ControlRequest, asked: inout Set<pid_t>) -> Result<
        Connection, Finished
    > {
        let connection: FileDescriptor
        let peer: UnixSocket.PeerCredentials
        switch open(endpoint, asked: &asked) {
        case .success(let opened): (connection, peer) = opened
        case .failure(let finished): return .failure(finished)
        }
        do {
            // Root's check of who answers needs the kernel's word on it.
            if geteuid() == 0 { try UnixSocket.passCredentials(on: connection) }
            try UnixSocket.sendAll(request.line, on: connection)
        } catch {
            try? connection.close()
            return .failure(
                Finished(outcome: hasEnded(endpoint) ? .gone : .failed("cannot send the request: \(error)")))
        }
        return .success(Connection(descriptor: connection, peer: peer))
    }

    /// A connection to `endpoint`'s session, checked as `ask` checks it, for a request
    /// of the caller's own (`--attach`); or why there is none.
    static func connection(to endpoint: Endpoint) -> Result<FileDescriptor, ControlProblem> {
        var asked: Set<pid_t> = []
        switch open(endpoint, asked: &asked) {
        case .success(let opened):
            return .success(opened.connection)
        case .failure(let finished):
            switch finished.outcome {
            case .failed(let reason): return .failure(ControlProblem("\(endpoint.path): \(reason)"))
            default: return .failure(ControlProblem("\(endpoint.path): the session has ended"))
            }
        }
    }

    /// Connects to the socket of `endpoint` and checks who listens there; or
    /// the outcome when that is already decided.
    private static func open(_ endpoint: Endpoint, asked: inout Set<pid_t>) -> Result<
        (connection: FileDescriptor, peer: UnixSocket.PeerCredentials), Finished
    > {
        let file: FileDescriptor
        do throws(Errno) {
            file = try FileSystem.openWithoutFollowing(endpoint.name, in: endpoint.directory.descriptor)
        } catch .noSuchFile {
            return .failure(Finished(outcome: .gone))
        } catch {
            return .failure(Finished(outcome: .failed("\(error)")))
        }
        defer { try? file.close() }
        let connection: FileDescriptor
        do {
            let info = try file.status()
            guard info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == endpoint.uid else {
                return .failure(Finished(outcome: .failed("no longer a socket of uid \(endpoint.uid)")))
            }
            connection = try UnixSocket.connect(toSocketOpenOn: file)
        } catch let error as PTYError {
            switch error.underlying?.rawValue {
            case ECONNREFUSED?: return .failure(Finished(outcome: removeIfStale(endpoint, file: file)))
            case ENOENT?: return .failure(Finished(outcome: .gone))
            default: return .failure(Finished(outcome: .failed(error.description)))
            }
        } catch {
            return .failure(Finished(outcome: .failed("\(error)")))
        }
        let peer: UnixSocket.PeerCredentials
        do {
            peer = try UnixSocket.peerCredentials(of: connection)
            if let problem = problem(with: peer, at: endpoint) {
                try? connection.close()
                return .failure(Finished(outcome: .failed(problem)))
            }
            guard asked.insert(peer.pid).inserted else {
                try? connection.close()
                return .failure(Finished(outcome: .duplicate))
            }
        } catch {
            try? connection.close()
            return .failure(Finished(outcome: hasEnded(endpoint) ? .gone : .failed("\(error)")))
        }
        return .success((connection, peer))
    }

    /// Why the listener the kernel names is not the session the socket's name
    /// and place promise, or nil when it is.
    private static func problem(with peer: UnixSocket.PeerCredentials, at endpoint: Endpoint) -> String? {
        guard peer.uid == endpoint.uid else { return "answered by uid \(peer.uid), not by uid \(endpoint.uid)" }
        guard peer.pid == endpoint.pid else { return "answered by process \(peer.pid), not by process \(endpoint.pid)" }
        return nil
    }

    /// For root: why the process that answered (`sender`, as the kernel says) is not
    /// idlewrap, or nil when it is. Only root can read /proc/PID/exe of a non-dumpable
    /// idlewrap; a user asking their own sessions has nothing to fear from them.
    private static func problem(withAnswerFrom sender: pid_t?) -> String? {
        guard let sender else { return "the answer does not say who sent it" }
        guard ProcessStatus.read(sender)?.name == NestingGuard.programName else {
            return "process \(sender) is not idlewrap"
        }
        if let executable = try? FileSystem.linkTarget(ofPath: "/proc/\(sender)/exe") {
            let name = executable.split(separator: "/").last.map(String.init) ?? ""
            guard name == NestingGuard.programName || name == NestingGuard.programName + " (deleted)" else {
                return "process \(sender) is not idlewrap (it runs \(terminalSafe(executable)))"
            }
        }
        return nil
    }

    /// After a refused connection: a socket whose process is gone (killed by
    /// SIGKILL) is removed from its directory; one whose process lives is a
    /// session that is starting or ending, and is left alone.
    private static func removeIfStale(_ endpoint: Endpoint, file: FileDescriptor) -> Outcome {
        guard (try? FileSystem.status(ofPath: "/proc/\(endpoint.pid)")) == nil else { return .gone }
        // Only the file checked: not another that took its name meanwhile.
        if let checked = try? file.status(),
            let now = try? FileSystem.status(of: endpoint.name, in: endpoint.directory.descriptor),
            checked.st_dev == now.st_dev && checked.st_ino == now.st_ino
        {
            try? FileSystem.removeFile(endpoint.name, in: endpoint.directory.descriptor)
        }
        return .stale
    }

    /// Whether the session behind `endpoint` is over: it unregistered, or its
    /// process is gone. A session that ends while it is asked is not an error;
    /// one that is still there and does not answer is.
    private static func hasEnded(_ endpoint: Endpoint) -> Bool {
        (try? FileSystem.status(of: endpoint.name, in: endpoint.directory.descriptor)) == nil
            || (try? FileSystem.status(ofPath: "/proc/\(endpoint.pid)")) == nil
    }

    private static func isPid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 10
            && name.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}

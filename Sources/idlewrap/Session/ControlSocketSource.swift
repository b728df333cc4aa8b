import Glibc
import PTYKit

/// The control socket as session sources: the listener, watched unless accepting pauses
/// after an error, and each connection it accepts (a `ControlConnectionSource`), given
/// `ControlServer.patience` to send its request. Nothing here blocks the session.
final class ControlSocketSource: SessionSource {
    private let server: ControlServer
    private let answer: (ControlCall) -> ControlAnswer
    /// Takes a new connection's source into the session.
    private let adopt: (SessionSource) -> Void

    private init(
        _ server: ControlServer, answer: @escaping (ControlCall) -> ControlAnswer,
        adopt: @escaping (SessionSource) -> Void
    ) {
        self.server = server
        self.answer = answer
        self.adopt = adopt
    }

    /// Listens for --lock-all and --list on the socket `registration` made, or nil. The
    /// session is locked all the same without it, but --lock-all would miss it: that is
    /// said even with -q, and logged, since a directory someone else made in this user's
    /// name is one way to get there.
    static func serve(
        _ registration: Result<ControlServer, ControlProblem>, log: AuditLog,
        answer: @escaping (ControlCall) -> ControlAnswer, adopt: @escaping (SessionSource) -> Void
    ) -> ControlSocketSource? {
        switch registration {
        case .success(let server):
            return ControlSocketSource(server, answer: answer, adopt: adopt)
        case .failure(let reason):
            Diagnostics.error("not registering for --lock-all and --list: \(reason)")
            log.record("session not registered for --lock-all and --list: \(reason)", priority: LOG_WARNING)
            return nil
        }
    }

    var descriptor: FileDescriptor? {
        server.acceptPausedUntil == nil ? server.listener : nil
    }

    var deadline: MonotonicInstant? { server.acceptPausedUntil }

    func ready(at now: MonotonicInstant) {
        for connection in server.acceptWaiting(now: now) {
            adopt(ControlConnectionSource(server, connection, answer: answer))
        }
    }

    func deadlinePassed(at now: MonotonicInstant) {
        _ = server.resumeAccepting(at: now)
    }

    /// Names the socket by this process's pid instead of its guardian's, which is leaving
    /// (`ControlServer.move(toPid:)`).
    func moveToThisProcess() throws(ControlProblem) {
        try server.move(toPid: getpid())
    }

    /// Unregisters: the socket file goes, and every connection is closed. The session
    /// drops its sources on every way out of `run`.
    func dropped() {
        server.shutDown()
    }
}

/// One connection to the control socket: its one request is answered, or it is closed
/// unanswered once its time is up.
final class ControlConnectionSource: SessionSource {
    private let server: ControlServer
    private let connection: FileDescriptor
    private let answer: (ControlCall) -> ControlAnswer
    private(set) var isFinished = false

    init(_ server: ControlServer, _ connection: FileDescriptor, answer: @escaping (ControlCall) -> ControlAnswer) {
        self.server = server
        self.connection = connection
        self.answer = answer
    }

    var descriptor: FileDescriptor? { connection }

    var deadline: MonotonicInstant? { server.deadline(of: connection) }

    func ready(at now: MonotonicInstant) {
        if server.serve(connection, answer: answer) { isFinished = true }
    }

    func deadlinePassed(at now: MonotonicInstant) {
        isFinished = true
    }

    func dropped() {
        server.close(connection)
    }
}

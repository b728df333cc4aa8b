import Glibc
import PTYKit

/// `--lock-all` and `--list`: what they do with the sessions `ControlClient`
/// reaches, what they print, and their exit status (pkill's convention):
/// 0 when they found sessions and every one answered; 1 when there were none;
/// 125 on bad usage, when a session could not be reached, or when a directory
/// where sessions register cannot be used (each named on stderr).
enum SessionCommands {
    static let noSessions: Int32 = 1

    static func lockAll(_ options: Options, environment: Environment) -> Int32 {
        let found: (endpoints: [ControlClient.Endpoint], problems: [ControlProblem])
        switch users(options) {
        case .success(let uids): found = ControlClient.endpoints(of: uids, environment: environment)
        case .failure(let problem): return fail(problem.description)
        }
        var failed = report(found.problems)
        var locked = 0
        for (endpoint, outcome) in zip(found.endpoints, ControlClient.ask(.lock, found.endpoints)) {
            switch outcome {
            case .reply(ControlRequest.lockedReply, _): locked += 1
            case .reply(ControlRequest.endingReply, _), .stale, .gone, .duplicate: break
            case .reply(let other, _): failed = report(endpoint, "unexpected answer '\(terminalSafe(other))'")
            case .failed(let reason): failed = report(endpoint, reason)
            }
        }
        try? FileDescriptor.standardOutput.writeAll("locked \(locked) session\(locked == 1 ? "" : "s")\n")
        if failed { return ExitStatus.failure }
        return locked > 0 ? ExitStatus.success : noSessions
    }

    static func list(_ options: Options, environment: Environment) -> Int32 {
        let uids: [uid_t]
        switch users(options) {
        case .success(let found): uids = found
        case .failure(let problem): return fail(problem.description)
        }
        let (sessions, failed) = statuses(of: uids, environment: environment)
        let text = options.json ? JSONText.array(sessions.map(\.json)) + "\n" : SessionTable.text(sessions)
        try? FileDescriptor.standardOutput.writeAll(text)
        if failed { return ExitStatus.failure }
        return sessions.isEmpty ? noSessions : ExitStatus.success
    }

    /// What the sessions of `uids` say about themselves (--list, --audit); `failed` when
    /// a directory or a session could not be reached, each named on stderr.
    static func statuses(of uids: [uid_t], environment: Environment) -> (sessions: [SessionStatus], failed: Bool) {
        let found = ControlClient.endpoints(of: uids, environment: environment)
        var failed = report(found.problems)
        var sessions: [SessionStatus] = []
        for (endpoint, outcome) in zip(found.endpoints, ControlClient.ask(.status, found.endpoints)) {
            switch outcome {
            case .reply(let reply, let peer):
                if var status = SessionStatus(reply: reply) {
                    // What the kernel says, not what the session claims.
                    status.pid = peer.pid
                    status.user = UserIdentity.name(of: endpoint.uid)
                    sessions.append(status)
                } else {
                    failed = report(endpoint, "unexpected answer '\(terminalSafe(reply))'")
                }
            case .stale, .gone, .duplicate: break
            case .failed(let reason): failed = report(endpoint, reason)
            }
        }
        return (sessions, failed)
    }

    /// The uids whose sessions to reach: the running user's; with --user a
    /// named one, or with --all-users everyone's, for root only.
    static func users(_ options: Options) -> Result<[uid_t], ControlProblem> {
        let me = getuid()
        if options.allUsers {
            guard me == 0 else { return .failure(ControlProblem("only root can use --all-users")) }
            return .success(RuntimeDirectory.usersWithDirectories())
        }
        guard let name = options.user else { return .success([me]) }
        guard let entry = getpwnam(name) else {
            return .failure(ControlProblem("no such user '\(terminalSafe(name))'"))
        }
        let uid = entry.pointee.pw_uid
        guard uid == me || me == 0 else {
            return .failure(ControlProblem("only root can reach another user's sessions"))
        }
        return .success([uid])
    }

    private static func fail(_ message: String) -> Int32 {
        Diagnostics.error(message)
        return ExitStatus.failure
    }

    /// Names each directory that cannot be used; true when there was any.
    private static func report(_ problems: [ControlProblem]) -> Bool {
        for problem in problems { Diagnostics.error(problem.description) }
        return !problems.isEmpty
    }

    /// Names the session that did not answer; always true (something failed).
    private static func report(_ endpoint: ControlClient.Endpoint, _ reason: String) -> Bool {
        Diagnostics.error("\(endpoint.path): \(reason)")
        return true
    }
}

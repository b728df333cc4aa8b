import Glibc

/// `session-unwrapped` and `session-wrapped`: right now, the login sessions with a terminal
/// (logind's list where logind runs, else utmp) that no idlewrap wraps, and the idlewrap
/// sessions with their state, as `--list` reaches them.
struct SessionChecks {
    let host: AuditHost
    let environment: Environment

    func run() -> [AuditCheck] {
        let uids = host.onlyUser == nil ? RuntimeDirectory.usersWithDirectories() : [getuid()]
        let wrapped = SessionCommands.statuses(of: uids, environment: environment).sessions
        return unwrapped(wrapped: wrapped) + [wrappedCheck(wrapped)]
    }

    /// The login sessions, from logind or utmp; nil when the host records none.
    private var logins: [LoginSession]? {
        if host.root.isEmpty && LogindSessions.isRunning, let sessions = LogindSessions.withTerminals() {
            return sessions
        }
        return UtmpSessions.read(host.path(UtmpSessions.path))
    }

    private func unwrapped(wrapped: [SessionStatus]) -> [AuditCheck] {
        guard let logins else {
            return [
                AuditCheck(
                    id: "session-unwrapped", status: .notApplicable, control: .deviceLock,
                    finding: "this host keeps no list of login sessions (no logind, no \(UtmpSessions.path))")
            ]
        }
        let mine = logins.filter { host.onlyUser == nil || $0.user == host.onlyUser }
        let open = mine.filter { login in !wrapped.contains { $0.terminal == login.terminal } }
        guard !open.isEmpty else {
            return [
                AuditCheck(
                    id: "session-unwrapped", status: .pass, control: .deviceLock,
                    finding: "every login session with a terminal runs in idlewrap (\(mine.count))",
                    evidence: mine.map { "\($0.source): \($0.user) on \($0.terminal), pid \($0.leader)" })
            ]
        }
        return open.map { login in
            AuditCheck(
                id: "session-unwrapped", status: .gap, control: .deviceLock, subject: login.terminal,
                finding: "\(login.user)'s session on \(login.terminal) runs without idlewrap",
                evidence: ["\(login.source): \(login.user) on \(login.terminal), pid \(login.leader)"],
                suggestion: "wrap \(login.user)'s logins; this session locks only once it logs in again")
        }
    }

    private func wrappedCheck(_ sessions: [SessionStatus]) -> AuditCheck {
        guard !sessions.isEmpty else {
            return AuditCheck(
                id: "session-wrapped", status: .notApplicable, control: .deviceLock,
                finding: "no idlewrap session runs now")
        }
        let locked = sessions.count { $0.locked }
        return AuditCheck(
            id: "session-wrapped", status: .pass, control: .deviceLock,
            finding: "\(sessions.count) idlewrap session\(sessions.count == 1 ? "" : "s"), \(locked) locked",
            evidence: sessions.map { session in
                "pid \(session.pid) \(session.terminal) \(session.user) \(session.command): "
                    + (session.locked
                        ? "locked"
                        : "unlocked, idle \(SessionTable.duration(session.idleSeconds))"
                            + (session.locksInSeconds.map { ", locks in \(SessionTable.duration($0))" } ?? ""))
            })
    }
}

import Glibc

/// `session-unwrapped` and `session-wrapped`: right now, the login sessions with a terminal
/// (logind's list over the system bus where logind answers, else utmp) that no idlewrap
/// wraps, and the idlewrap sessions with their state, as `--list` reaches them.
struct SessionChecks {
    let host: AuditHost
    let environment: Environment

    func run() -> [AuditCheck] {
        let uids = host.onlyUser == nil ? RuntimeDirectory.usersWithDirectories() : [getuid()]
        let wrapped = SessionCommands.statuses(of: uids, environment: environment).sessions
        return unwrapped(wrapped: wrapped) + [wrappedCheck(wrapped)] + plainTerminals(wrapped)
    }

    /// `pattern-hiding`, per idlewrap session started with TERM=dumb: its lock is the plain
    /// lock screen, which cannot clear the terminal; it pushes what the command showed out
    /// of view, and the terminal's own history keeps it.
    private func plainTerminals(_ sessions: [SessionStatus]) -> [AuditCheck] {
        sessions.filter { PlainLockScreen.isNeeded(term: Self.startingTerm(of: $0.pid)) }.map { session in
            AuditCheck(
                id: "pattern-hiding", status: .gap, control: .patternHiding, subject: session.terminal,
                finding: "\(session.user)'s session on \(session.terminal) has TERM=dumb: its lock cannot clear the "
                    + "terminal, whose history keeps what the command showed",
                evidence: ["pid \(session.pid) \(session.terminal) \(session.user) \(session.command): TERM=dumb"],
                suggestion: "start it with the terminal's own TERM; TERM=dumb only for a terminal without history")
        }
    }

    /// TERM as process `pid` (an idlewrap) started with it: what chose its lock screen.
    private static func startingTerm(of pid: pid_t) -> String? {
        guard let environment = AuditHost.contents(of: "/proc/\(pid)/environ", limit: 1 << 20) else { return nil }
        let prefix = Array("TERM=".utf8)
        return environment.split(separator: 0).first { $0.starts(with: prefix) }.map {
            String(decoding: $0.dropFirst(prefix.count), as: UTF8.self)
        }
    }

    /// The login sessions with a terminal: logind's, asked over the system bus, else
    /// utmp's (nil when the host keeps neither) with why logind's were not had.
    private var logins: (sessions: [LoginSession]?, notFromLogind: LogindUnavailable?) {
        // A test root is a host of files: its bus is the one named in the environment.
        let address = environment["DBUS_SYSTEM_BUS_ADDRESS"]
        let reason: LogindUnavailable
        if host.root.isEmpty || address != nil {
            switch LogindSessions.terminalSessions(systemBusAddress: address) {
            case .success(let sessions): return (sessions, nil)
            case .failure(let why): reason = why
            }
        } else {
            reason = LogindUnavailable("no DBUS_SYSTEM_BUS_ADDRESS for the audited root")
        }
        return (UtmpSessions.read(host.path(UtmpSessions.path)), reason)
    }

    private func unwrapped(wrapped: [SessionStatus]) -> [AuditCheck] {
        let (logins, notFromLogind) = self.logins
        let logind = notFromLogind.map { "logind: \($0)" }
        guard let logins else {
            return [
                AuditCheck(
                    id: "session-unwrapped", status: .notApplicable, control: .deviceLock,
                    finding:
                        "this host keeps no list of login sessions (\(logind ?? "logind"); no \(UtmpSessions.path))")
            ]
        }
        let mine = logins.filter { host.onlyUser == nil || $0.user == host.onlyUser }
        let open = mine.filter { login in !wrapped.contains { $0.terminal == login.terminal } }
        guard !open.isEmpty else {
            return [
                AuditCheck(
                    id: "session-unwrapped", status: .pass, control: .deviceLock,
                    finding: "every login session with a terminal runs in idlewrap (\(mine.count))",
                    evidence: (logind.map { [$0 + "; utmp read instead"] } ?? []) + mine.map(\.evidence))
            ]
        }
        return open.map { login in
            AuditCheck(
                id: "session-unwrapped", status: .gap, control: .deviceLock, subject: login.terminal,
                finding: "\(login.user)'s session on \(login.terminal) runs without idlewrap",
                evidence: [login.evidence],
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

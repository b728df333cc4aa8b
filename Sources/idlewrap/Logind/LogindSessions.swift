import Glibc

/// logind's list of login sessions through sd-login (libsystemd, loaded at run time),
/// which reads what logind publishes under /run/systemd without a bus round trip.
enum LogindSessions {
    private typealias GetSessions =
        @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32
    private typealias GetUID = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<uid_t>?) -> Int32
    private typealias GetString =
        @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32
    private typealias GetLeader = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<pid_t>?) -> Int32

    /// Whether logind keeps the sessions of this host: systemd runs it (sd_booted's test).
    static var isRunning: Bool { access("/run/systemd/system", F_OK) == 0 }

    /// The sessions with a terminal, or nil when sd-login cannot be used.
    static func withTerminals() -> [LoginSession]? {
        guard let library = try? RuntimeLibrary(SDBusLibrary.soname),
            let getSessions = library.symbol("sd_get_sessions", as: GetSessions.self),
            let getUID = library.symbol("sd_session_get_uid", as: GetUID.self),
            let getTTY = library.symbol("sd_session_get_tty", as: GetString.self),
            let getLeader = library.symbol("sd_session_get_leader", as: GetLeader.self)
        else { return nil }
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        guard getSessions(&list) >= 0, let list else { return nil }
        defer { free(list) }
        var sessions: [LoginSession] = []
        var index = 0
        while let id = list[index] {
            defer { free(id) }
            index += 1
            var uid: uid_t = 0
            var leader: pid_t = 0
            var tty: UnsafeMutablePointer<CChar>?
            guard getUID(id, &uid) >= 0, getTTY(id, &tty) >= 0, let tty else { continue }
            defer { free(tty) }
            _ = getLeader(id, &leader)
            let line = String(cString: tty)
            sessions.append(
                LoginSession(
                    user: UserIdentity.name(of: uid), terminal: line.hasPrefix("/") ? line : "/dev/" + line,
                    leader: leader, source: "logind session \(String(cString: id))"))
        }
        return sessions
    }
}

/// A login session with a terminal, as logind or utmp records it.
struct LoginSession: Equatable {
    let user: String
    /// `/dev/pts/3`.
    let terminal: String
    let leader: pid_t
    /// Where it was found, for evidence.
    let source: String
}

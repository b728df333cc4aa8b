import Glibc

/// The login sessions utmp records (login, sshd and terminal emulators write it), for
/// hosts without logind: `USER_PROCESS` entries whose process still runs.
enum UtmpSessions {
    static let path = "/var/run/utmp"

    /// The sessions recorded in `file`, or nil when there is no such file.
    static func read(_ file: String) -> [LoginSession]? {
        guard access(file, R_OK) == 0 else { return nil }
        _ = file.withCString { utmpname($0) }
        setutent()
        defer {
            endutent()
            _ = utmpname(path)
        }
        var sessions: [LoginSession] = []
        while let entry = getutent() {
            let record = entry.pointee
            guard record.ut_type == USER_PROCESS, record.ut_pid > 0,
                kill(record.ut_pid, 0) == 0 || errno == EPERM
            else { continue }
            let line = text(of: record.ut_line)
            guard !line.isEmpty else { continue }
            sessions.append(
                LoginSession(
                    user: text(of: record.ut_user), terminal: line.hasPrefix("/") ? line : "/dev/" + line,
                    leader: record.ut_pid, source: "utmp"))
        }
        return sessions
    }

    /// A fixed-size C field, up to its first NUL.
    private static func text<Field>(of field: Field) -> String {
        withUnsafeBytes(of: field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

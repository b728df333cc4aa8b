import Glibc
import PTYKit

/// Lock events for the system log (authpriv), naming who, where and what;
/// never a password.
///
/// What is the program's name only (`command='bash'`), as on the lock screen
/// and in --list: arguments may hold secrets (`mysql -pPASSWORD`, a token),
/// and authpriv records are kept for long and often sent to a central log
/// that more people read than could see the session. The user, the terminal
/// and the pid in the record's tag tell which session it was; process
/// accounting or auditd record full command lines where a site needs them.
struct AuditLog {
    let user: UserName
    let terminal: String
    /// The program's name, never its arguments.
    let command: String
    let sshConnection: String?

    func record(_ event: String, priority: Int32 = LOG_NOTICE) {
        var line = "\(event): user=\(user.value) tty=\(terminal) command='\(terminalSafe(command))'"
        if let sshConnection { line += " ssh='\(terminalSafe(sshConnection))'" }
        SystemLogSocket.send(line, priority: LOG_AUTHPRIV | priority)
    }
}

extension AuditLog {
    /// For records of idlewrap's own, outside any session (so the command is idlewrap).
    static func ofIdlewrap(environment: Environment) -> AuditLog {
        AuditLog(
            user: .runningUser, terminal: FileDescriptor.standardInput.terminalPath() ?? "none",
            command: "idlewrap", sshConnection: environment["SSH_CONNECTION"])
    }

    /// Records that site policy lowered or refused something the user asked for, before
    /// any session starts.
    static func recordPolicy(_ event: String, environment: Environment) {
        ofIdlewrap(environment: environment).record("site policy: \(event)")
    }
}

import Glibc
import PTYKit

/// Lock events for the system log (authpriv), naming who, where and what;
/// never a password.
struct AuditLog {
    let user: UserName
    let terminal: String
    let command: String
    let sshConnection: String?

    func record(_ event: String, priority: Int32 = LOG_NOTICE) {
        var line = "\(event): user=\(user.value) tty=\(terminal) command='\(terminalSafe(command))'"
        if let sshConnection { line += " ssh='\(terminalSafe(sshConnection))'" }
        SystemLogSocket.send(line, priority: LOG_AUTHPRIV | priority)
    }
}

extension AuditLog {
    /// Records that site policy lowered or refused something the user asked for, before
    /// any session starts (so the command is idlewrap's own).
    static func recordPolicy(_ event: String, environment: Environment) {
        let log = AuditLog(
            user: .runningUser, terminal: FileDescriptor.standardInput.terminalPath() ?? "none",
            command: "idlewrap", sshConnection: environment["SSH_CONNECTION"])
        log.record("site policy: \(event)")
    }
}

import Glibc

/// Lock events for the system log (authpriv), naming who, where and what;
/// never a password.
struct AuditLog {
    let user: UserName
    let terminal: String
    let command: String
    let sshConnection: String?

    /// openlog keeps the pointer it is given, so the identity must live forever.
    nonisolated(unsafe) private static let identity = strdup("idlewrap")

    func open() {
        openlog(AuditLog.identity, LOG_PID, LOG_AUTHPRIV)
    }

    func record(_ event: String, priority: Int32 = LOG_NOTICE) {
        var line = "\(event): user=\(user.value) tty=\(terminal) command='\(terminalSafe(command))'"
        if let sshConnection { line += " ssh='\(terminalSafe(sshConnection))'" }
        line.withCString { text in
            withVaList([text]) { vsyslog(LOG_AUTHPRIV | priority, "%s", $0) }
        }
    }
}

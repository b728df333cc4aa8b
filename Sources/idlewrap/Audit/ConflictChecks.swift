/// `tmout-conflict`, `logind-idle-conflict`, `sshd-alive-conflict`: other timeouts that end
/// a session before idlewrap's lock would: the shell's readonly TMOUT, logind's
/// StopIdleSessionSec, sshd's ClientAliveInterval × ClientAliveCountMax. A logout first
/// still satisfies AC-12, but it surprises users, and the lock never gets a chance.
struct ConflictChecks {
    let host: AuditHost
    let policy: SystemPolicyFile
    let sshdFile: String?

    /// The idle time after which sessions lock: the system file's timeout under its limit.
    var lockAfter: Duration { policy.options.timeout }

    func run() -> [AuditCheck] {
        [shellTimeout(), logind(), sshdClientAlive()]
    }

    private func tooShort(_ seconds: Int) -> Bool {
        lockAfter > .zero && Duration.seconds(seconds) < lockAfter
    }

    private var lockEvidence: String {
        policy.describe(OptionTable.timeout, formatDuration(lockAfter))
    }

    private func shellTimeout() -> AuditCheck {
        let timeouts = ProfileScripts(host: host).scripts.compactMap { ShellTimeout(file: $0.file, lines: $0.lines) }
        let evidence = timeouts.flatMap(\.evidence) + [lockEvidence]
        let short = timeouts.filter { $0.isReadonly && $0.seconds.map(tooShort) == true }
        if let first = short.first, let seconds = first.seconds {
            return AuditCheck(
                id: "tmout-conflict", status: .gap, control: .deviceLock, subject: "TMOUT",
                finding: "a readonly TMOUT=\(seconds) logs shells out before the \(formatDuration(lockAfter)) lock",
                evidence: evidence,
                suggestion: "keep TMOUT at least as long as the lock (the STIG's 600 with timeout = 10m or less),"
                    + " or lower timeout in \(policy.shownPath)")
        }
        guard let readonly = timeouts.first(where: \.isReadonly) else {
            return AuditCheck(
                id: "tmout-conflict", status: .pass, control: .deviceLock, subject: "TMOUT",
                finding: timeouts.isEmpty ? "no start-up script sets TMOUT" : "TMOUT is not readonly",
                evidence: evidence)
        }
        return AuditCheck(
            id: "tmout-conflict", status: .pass, control: .deviceLock, subject: "TMOUT",
            finding: "the readonly TMOUT\(readonly.seconds.map { "=\($0)" } ?? "") logs out no sooner than the lock",
            evidence: evidence)
    }

    private func logind() -> AuditCheck {
        var configuration = LogindConfiguration()
        for path in [host.path("/etc/systemd/logind.conf")]
            + AuditHost.files(in: host.path("/etc/systemd/logind.conf.d"), endingIn: ".conf")
        {
            if let lines = AuditHost.lines(of: path) { configuration.apply(file: host.shown(path), lines: lines) }
        }
        let evidence = (configuration.evidence.map { [$0] } ?? []) + [lockEvidence]
        guard let seconds = configuration.stopIdleSeconds else {
            return AuditCheck(
                id: "logind-idle-conflict", status: .pass, control: .deviceLock, subject: "logind",
                finding: "logind does not stop idle sessions", evidence: evidence)
        }
        guard tooShort(seconds) else {
            return AuditCheck(
                id: "logind-idle-conflict", status: .pass, control: .deviceLock, subject: "logind",
                finding: "logind stops idle sessions after \(seconds)s, no sooner than the lock", evidence: evidence)
        }
        return AuditCheck(
            id: "logind-idle-conflict", status: .gap, control: .deviceLock, subject: "logind",
            finding: "logind stops idle sessions after \(seconds)s, before the \(formatDuration(lockAfter)) lock",
            evidence: evidence, suggestion: "StopIdleSessionSec at least as long as timeout, or lower timeout")
    }

    private func sshdClientAlive() -> AuditCheck {
        let sshd: SSHDConfiguration
        switch SSHDConfiguration.effective(file: sshdFile, user: nil) {
        case .success(let configuration): sshd = configuration
        case .failure(.notInstalled):
            return AuditCheck(
                id: "sshd-alive-conflict", status: .notApplicable, control: .deviceLock, subject: "sshd",
                finding: "sshd is not installed")
        case .failure(.failed(let reason)):
            return AuditCheck(
                id: "sshd-alive-conflict", status: .gap, control: .deviceLock, subject: "sshd",
                finding: "cannot read sshd's effective configuration", evidence: [reason],
                suggestion: "run idlewrap --audit as root")
        }
        let evidence =
            ["clientaliveinterval", "clientalivecountmax"].map { "\(sshd.command): \($0) \(sshd.value($0) ?? "?")" }
            + [lockEvidence]
        guard let seconds = sshd.clientAliveLimit, tooShort(seconds) else {
            let finding =
                sshd.clientAliveLimit.map { "sshd drops a silent client after \($0)s, no sooner than the lock" }
                ?? "sshd never drops a silent client"
            return AuditCheck(
                id: "sshd-alive-conflict", status: .pass, control: .deviceLock, subject: "sshd", finding: finding,
                evidence: evidence)
        }
        return AuditCheck(
            id: "sshd-alive-conflict", status: .gap, control: .deviceLock, subject: "sshd",
            finding: "sshd drops a silent client after \(seconds)s, before the \(formatDuration(lockAfter)) lock",
            evidence: evidence, suggestion: "ClientAliveInterval × ClientAliveCountMax at least as long as timeout")
    }
}

/// `policy-max-timeout`, `policy-kill-after`, `policy-lock-ssh-commands`, `pattern-hiding`:
/// the site policy in the system file against the target, and the lock's own property.
struct PolicyChecks {
    let host: AuditHost
    let policy: SystemPolicyFile

    func run() -> [AuditCheck] {
        var checks: [AuditCheck] = []
        if let problem = policy.problem {
            checks.append(
                AuditCheck(
                    id: "policy-file", status: .gap, control: .deviceLock, subject: policy.shownPath,
                    finding: "idlewrap refuses the system configuration file", evidence: [problem],
                    suggestion: "mend it (idlewrap --show-config says the same) or every wrapped login fails"))
        }
        return checks + [maxTimeout(), killAfter(), lockSSHCommands(), patternHiding()]
    }

    private func maxTimeout() -> AuditCheck {
        let limit = policy.options.maxTimeout
        let target = formatDuration(host.target)
        let evidence = [policy.describe(OptionTable.maxTimeout, limit > .zero ? formatDuration(limit) : "off")]
        if limit > .zero && limit <= host.target {
            return AuditCheck(
                id: "policy-max-timeout", status: .pass, control: .deviceLock, subject: policy.shownPath,
                finding: "no session can stay unlocked idle longer than \(formatDuration(limit))",
                evidence: evidence)
        }
        return AuditCheck(
            id: "policy-max-timeout", status: .gap, control: .deviceLock, subject: policy.shownPath,
            finding: limit > .zero
                ? "max-timeout \(formatDuration(limit)) is longer than the target \(target)"
                : "no max-timeout: users may set any timeout, or off",
            evidence: evidence, suggestion: "max-timeout = \(target) in \(policy.shownPath)")
    }

    private func killAfter() -> AuditCheck {
        let limit = policy.options.maxKillAfter
        let evidence = [policy.describe(OptionTable.maxKillAfter, limit > .zero ? formatDuration(limit) : "off")]
        guard limit > .zero else {
            return AuditCheck(
                id: "policy-kill-after", status: .gap, control: .sessionTermination, subject: policy.shownPath,
                finding: "no max-kill-after: a locked session never ends", evidence: evidence,
                suggestion: "max-kill-after = 1h (or the site's session limit) in \(policy.shownPath)")
        }
        return AuditCheck(
            id: "policy-kill-after", status: .pass, control: .sessionTermination, subject: policy.shownPath,
            finding: "a session locked for \(formatDuration(limit)) ends", evidence: evidence)
    }

    private func lockSSHCommands() -> AuditCheck {
        let locks = policy.options.lockSSHCommands
        let evidence = [policy.describe(OptionTable.lockSSHCommands, locks ? "yes" : "no")]
        guard locks else {
            return AuditCheck(
                id: "policy-lock-ssh-commands", status: .gap, control: .deviceLock, subject: policy.shownPath,
                finding: "commands run over ssh with a terminal (ssh -t host top) never lock", evidence: evidence,
                suggestion: "lock-ssh-commands = yes, or record the exception the site chose")
        }
        return AuditCheck(
            id: "policy-lock-ssh-commands", status: .pass, control: .deviceLock, subject: policy.shownPath,
            finding: "commands run over ssh with a terminal lock too", evidence: evidence)
    }

    private func patternHiding() -> AuditCheck {
        AuditCheck(
            id: "pattern-hiding", status: .pass, control: .patternHiding,
            finding: "the lock screen replaces everything the command showed; always on, no setting turns it off "
                + "(but a terminal with TERM=dumb cannot be cleared: such sessions now are gaps of their own)",
            evidence: [Usage.version])
    }
}

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
        return setting(
            "policy-max-timeout", control: .deviceLock,
            shown: policy.describe(OptionTable.maxTimeout, limit > .zero ? formatDuration(limit) : "off"),
            passes: limit > .zero && limit <= host.target,
            pass: "no session can stay unlocked idle longer than \(formatDuration(limit))",
            gap: limit > .zero
                ? "max-timeout \(formatDuration(limit)) is longer than the target \(target)"
                : "no max-timeout: users may set any timeout, or off",
            suggestion: "max-timeout = \(target) in \(policy.shownPath)")
    }

    private func killAfter() -> AuditCheck {
        let limit = policy.options.maxKillAfter
        return setting(
            "policy-kill-after", control: .sessionTermination,
            shown: policy.describe(OptionTable.maxKillAfter, limit > .zero ? formatDuration(limit) : "off"),
            passes: limit > .zero, pass: "a session locked for \(formatDuration(limit)) ends",
            gap: "no max-kill-after: a locked session never ends",
            suggestion: "max-kill-after = 1h (or the site's session limit) in \(policy.shownPath)")
    }

    private func lockSSHCommands() -> AuditCheck {
        let locks = policy.options.lockSSHCommands
        return setting(
            "policy-lock-ssh-commands", control: .deviceLock,
            shown: policy.describe(OptionTable.lockSSHCommands, locks ? "yes" : "no"),
            passes: locks, pass: "commands run over ssh with a terminal lock too",
            gap: "commands run over ssh with a terminal (ssh -t host top) never lock",
            suggestion: "lock-ssh-commands = yes, or record the exception the site chose")
    }

    /// One setting of the system file, `shown` as its evidence: a pass with the finding
    /// `pass`, or a gap with the finding `gap` and what to set.
    private func setting(
        _ id: String, control: AuditControl, shown: String, passes: Bool, pass: String, gap: String,
        suggestion: String
    ) -> AuditCheck {
        AuditCheck(
            id: id, status: passes ? .pass : .gap, control: control, subject: policy.shownPath,
            finding: passes ? pass : gap, evidence: [shown], suggestion: passes ? nil : suggestion)
    }

    private func patternHiding() -> AuditCheck {
        AuditCheck(
            id: "pattern-hiding", status: .pass, control: .patternHiding,
            finding: "the lock screen replaces everything the command showed; always on, no setting turns it off "
                + "(but a terminal with TERM=dumb cannot be cleared: such sessions now are gaps of their own)",
            evidence: [Usage.version])
    }
}

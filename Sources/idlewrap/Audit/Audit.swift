import Glibc
import PTYKit

/// `idlewrap --audit [--json] [--timeout DURATION]`: checks this host (root: every
/// account; anyone else: their own logins) the way an auditor would against AC-11,
/// AC-11(1) and AC-12, and prints the report. Exit status: 0 with no gap, 1 with gaps,
/// 125 when the audit cannot run.
enum Audit {
    static func run(_ settings: Settings, environment: Environment) -> Int32 {
        let host = AuditHost(settings: settings, environment: environment)
        if !host.root.isEmpty && access(host.root + "/etc", F_OK) != 0 {
            Diagnostics.error("\(AuditHost.rootVariable)=\(terminalSafe(host.root)): no etc directory there")
            return ExitStatus.failure
        }
        let report = report(of: host, environment: environment)
        do {
            try FileDescriptor.standardOutput.writeAll(settings.options.json ? report.json : report.table)
        } catch {
            Diagnostics.error("cannot write the report: \(error)")
            return ExitStatus.failure
        }
        return report.exitStatus
    }

    static func report(of host: AuditHost, environment: Environment) -> AuditReport {
        let policy = SystemPolicyFile(host: host)
        // A test root brings its own sshd_config; the host's sshd reads its default.
        let sshdFile = host.root.isEmpty ? nil : host.path("/etc/ssh/sshd_config")
        let accounts = AccountChecks.interactiveAccounts(of: host)
        var checks = AccountChecks(host: host, policy: policy, sshdFile: sshdFile).run(accounts)
        checks += FileChecks(host: host, policy: policy).run(loginShells: (accounts ?? []).map(\.shell))
        checks += PolicyChecks(host: host, policy: policy).run()
        checks.append(PAMCheck(host: host, policy: policy).run())
        checks += ConflictChecks(host: host, policy: policy, sshdFile: sshdFile).run()
        checks += SessionChecks(host: host, environment: environment).run()
        return AuditReport(
            scope: host.onlyUser == nil ? "host" : "user", user: host.userName, host: UserIdentity.hostName,
            target: host.target, checks: checks)
    }
}

import Glibc

/// `pam-unlock`: the PAM service idlewrap unlocks with can do it. Its `auth` facility
/// checks the password and its `account` facility resets failure tallies (idlewrap runs
/// both, as login does); every module it loads exists; pam_faillock's `deny` and
/// `unlock_time` are stated, since they decide how long a mistyped lock stays shut.
struct PAMCheck {
    let host: AuditHost
    let policy: SystemPolicyFile

    func run() -> AuditCheck {
        let subject = host.shown(host.pamConfigDirectory + "/" + host.pamService)
        guard policy.options.authPolicy.allows(.pam) else {
            let allowed = policy.options.authPolicy.allowed.map(\.rawValue).joined(separator: ", ")
            return AuditCheck(
                id: "pam-unlock", status: .notApplicable, control: .deviceLock, subject: subject,
                finding: "the site does not allow pam",
                evidence: [policy.describe(OptionTable.authMethods, allowed)])
        }
        var file = host.pamConfigDirectory + "/" + host.pamService
        var evidence: [String] = []
        if access(file, F_OK) != 0 {
            evidence.append("\(host.shown(file)): no such file; libpam uses the service 'other'")
            file = host.pamConfigDirectory + "/other"
        }
        let stack = PAMStack(
            file: file, shown: host.shown(file), directory: host.pamConfigDirectory, read: AuditHost.lines(of:))
        var gaps: [String] = []
        for missing in stack.missingFiles {
            evidence.append("\(missing): not found")
            gaps.append("\(missing) is missing")
        }
        for facility in ["auth", "account"] {
            let lines = stack.lines(facility)
            evidence += lines.map(\.evidence)
            if lines.isEmpty { gaps.append("no \(facility) lines") }
        }
        let auth = stack.lines("auth")
        if !auth.isEmpty && auth.allSatisfy({ $0.moduleName == "pam_deny.so" }) {
            gaps.append("auth only denies: no password unlocks")
        }
        if !auth.isEmpty && auth.allSatisfy({ $0.moduleName == "pam_permit.so" }) {
            gaps.append("auth only permits: any password unlocks")
        }
        for line in stack.lines where !line.optionalModule && !PAMStack.moduleExists(line.module) {
            gaps.append("module \(line.module) does not exist")
        }
        if let faillock = auth.first(where: { $0.moduleName == "pam_faillock.so" }) {
            let configuration = AuditHost.lines(of: host.path("/etc/security/faillock.conf"))
            let settings = PAMStack.faillockSettings(arguments: faillock.arguments, configuration: configuration)
            evidence.append(
                "pam_faillock: deny = \(settings["deny"] ?? "?"), unlock_time = \(settings["unlock_time"] ?? "?")"
                    + " (arguments, /etc/security/faillock.conf, defaults)")
        }
        guard gaps.isEmpty else {
            return AuditCheck(
                id: "pam-unlock", status: .gap, control: .deviceLock, subject: subject,
                finding: "the service cannot unlock reliably: " + gaps.joined(separator: "; "), evidence: evidence,
                suggestion: "install the PAM service file idlewrap ships (auth and account @include common-auth,"
                    + " common-account, or password-auth on Red Hat)")
        }
        return AuditCheck(
            id: "pam-unlock", status: .pass, control: .deviceLock, subject: subject,
            finding: "auth and account facilities present, every module installed", evidence: evidence)
    }
}

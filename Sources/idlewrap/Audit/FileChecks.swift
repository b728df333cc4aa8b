import Glibc
import PTYKit

/// `shells-listed`, `binary-owner`, `config-owner`: idlewrap is a shell the host accepts,
/// and nobody but root can change the program that locks or the policy it follows.
struct FileChecks {
    let host: AuditHost
    let policy: SystemPolicyFile

    /// The idlewrap programs that matter: the login shells that are idlewrap, and this one.
    func binaries(loginShells: [String]) -> [String] {
        var paths = loginShells.filter(AccountChecks.isIdlewrap)
        if let own = try? FileSystem.resolvedPath("/proc/self/exe") { paths.append(own) }
        var seen: [String] = []
        for path in paths where !seen.contains(path) { seen.append(path) }
        return seen
    }

    func run(loginShells: [String]) -> [AuditCheck] {
        [shellsListed(loginShells: loginShells)] + binaries(loginShells: loginShells).map(binaryOwner) + [configOwner()]
    }

    private func shellsListed(loginShells: [String]) -> AuditCheck {
        let file = host.path("/etc/shells")
        let lines = AuditHost.lines(of: file) ?? []
        let listed = lines.enumerated().filter { AccountChecks.isIdlewrap(String($0.element.trimmingBlanks())) }
        let used = loginShells.filter(AccountChecks.isIdlewrap)
        let missing = used.filter { shell in !listed.contains { $0.element.trimmingBlanks() == shell } }
        if !missing.isEmpty {
            return AuditCheck(
                id: "shells-listed", status: .gap, control: .deviceLock, subject: "/etc/shells",
                finding: "a login shell that is idlewrap is not in /etc/shells: \(missing.joined(separator: ", "))",
                evidence: listed.map { evidenceLine("/etc/shells", $0.offset, $0.element) },
                suggestion: "add-shell \(missing[0]) (or append it to /etc/shells)")
        }
        if listed.isEmpty {
            return AuditCheck(
                id: "shells-listed", status: .notApplicable, control: .deviceLock, subject: "/etc/shells",
                finding: "idlewrap is not in /etc/shells, and no account has it as login shell",
                suggestion: "add-shell /usr/bin/idlewrap before usermod -s /usr/bin/idlewrap NAME")
        }
        return AuditCheck(
            id: "shells-listed", status: .pass, control: .deviceLock, subject: "/etc/shells",
            finding: "idlewrap is in /etc/shells",
            evidence: listed.map { evidenceLine("/etc/shells", $0.offset, $0.element) })
    }

    private func binaryOwner(_ path: String) -> AuditCheck {
        ownership(id: "binary-owner", path: path, shown: path, what: "the idlewrap program")
    }

    private func configOwner() -> AuditCheck {
        guard policy.exists else {
            return AuditCheck(
                id: "config-owner", status: .notApplicable, control: .deviceLock, subject: policy.shownPath,
                finding: "no system configuration file", suggestion: "create \(policy.shownPath) with the site policy")
        }
        return ownership(id: "config-owner", path: policy.path, shown: policy.shownPath, what: "the site policy")
    }

    /// The file at `path` and the directory it is in must be root's and not writable by
    /// group or others: StrictModes, as idlewrap applies it to its system file.
    private func ownership(id: String, path: String, shown: String, what: String) -> AuditCheck {
        guard let info = try? FileSystem.status(ofPath: path) else {
            return AuditCheck(
                id: id, status: .gap, control: .deviceLock, subject: shown, finding: "cannot examine \(what)")
        }
        let mode = String(info.st_mode & 0o7777, radix: 8)
        var evidence = ["\(shown): owner uid \(info.st_uid), mode \(mode)"]
        var problem = StrictModes.problem(with: info, trusting: .root).map { "it \($0)" }
        if problem == nil, let (directory, reason) = try? StrictModes.directoryProblem(of: path, trusting: .root) {
            evidence.append("\(host.shown(directory)): \(reason)")
            problem = "its directory \(host.shown(directory)) \(reason)"
        }
        guard let problem else {
            return AuditCheck(
                id: id, status: .pass, control: .deviceLock, subject: shown,
                finding: "\(what) is root's and not writable by others", evidence: evidence)
        }
        return AuditCheck(
            id: id, status: .gap, control: .deviceLock, subject: shown,
            finding: "anyone who can write \(what) can change it: \(problem)", evidence: evidence,
            suggestion: "chown root:root \(shown) && chmod go-w \(shown)")
    }
}

import Glibc

/// `account-wrapped`: every account that can log in interactively (its passwd shell is in
/// /etc/shells and is not nologin or false, or is idlewrap) is wrapped in a way its user
/// cannot opt out of: idlewrap as the login shell with a real `shell =`, or sshd's
/// ForceCommand for its ssh logins. Wrapping from /etc/profile.d runs only if the user's
/// shell reads it, so it counts as a convenience, and the evidence says so.
struct AccountChecks {
    let host: AuditHost
    let policy: SystemPolicyFile
    /// The sshd_config the host's sshd reads: nil for sshd's own default.
    let sshdFile: String?

    struct Account: Equatable {
        let name: String
        let shell: String
        /// The passwd line, for evidence.
        let evidence: String
    }

    /// The accounts of /etc/passwd (the local ones; directory services are not listed).
    static func accounts(passwd lines: [Substring], file: String) -> [Account] {
        lines.enumerated().compactMap { index, line in
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count >= 7, !fields[0].isEmpty, !line.hasPrefix("#") else { return nil }
            let shell = fields[6].isEmpty ? "/bin/sh" : String(fields[6])
            return Account(name: String(fields[0]), shell: shell, evidence: evidenceLine(file, index, line))
        }
    }

    /// The shells /etc/shells lists.
    static func shells(_ lines: [Substring]) -> [String] {
        lines.map { $0.trimmingBlanks() }.filter { !$0.isEmpty && !$0.hasPrefix("#") }.map(String.init)
    }

    /// Whether `path` names idlewrap: this binary, or any program called idlewrap.
    static func isIdlewrap(_ path: String) -> Bool {
        path.split(separator: "/").last == "idlewrap" || CommandPlan.isIdlewrap(path)
    }

    static func isInteractive(_ account: Account, shells: [String]) -> Bool {
        let name = account.shell.split(separator: "/").last ?? ""
        if name == "nologin" || name == "false" { return false }
        return shells.contains(account.shell) || isIdlewrap(account.shell)
    }

    /// The accounts that can log in interactively, those the audit covers (the running
    /// user's only, unless root runs it); nil when /etc/passwd cannot be read.
    static func interactiveAccounts(of host: AuditHost) -> [Account]? {
        guard let passwd = AuditHost.lines(of: host.path("/etc/passwd")) else { return nil }
        let shells = Self.shells(AuditHost.lines(of: host.path("/etc/shells")) ?? [])
        var all = accounts(passwd: passwd, file: "/etc/passwd")
        if let user = host.onlyUser {
            all = all.filter { $0.name == user }
            // A user of a directory service (LDAP, SSSD) has no line there.
            if all.isEmpty, let entry = getpwnam(user), let shell = entry.pointee.pw_shell {
                let path = String(cString: shell)
                all = [
                    Account(name: user, shell: path.isEmpty ? "/bin/sh" : path, evidence: "getpwnam(\(user)): \(path)")
                ]
            }
        }
        return all.filter { isInteractive($0, shells: shells) }
    }

    func run(_ accounts: [Account]?) -> [AuditCheck] {
        guard let accounts else {
            return [
                AuditCheck(
                    id: "account-wrapped", status: .gap, control: .deviceLock,
                    finding: "cannot read /etc/passwd", suggestion: "run --audit where /etc/passwd is readable")
            ]
        }
        guard !accounts.isEmpty else {
            return [
                AuditCheck(
                    id: "account-wrapped", status: .notApplicable, control: .deviceLock,
                    subject: host.onlyUser, finding: "no account can log in interactively")
            ]
        }
        let profileWrappers = ProfileScripts(host: host).idlewrapLines
        return accounts.map { check($0, profileWrappers: profileWrappers) }
    }

    private func check(_ account: Account, profileWrappers: [String]) -> AuditCheck {
        var evidence = [account.evidence]
        if Self.isIdlewrap(account.shell) { return loginShellCheck(account, evidence: evidence) }
        var finding = "not wrapped: the login shell is \(account.shell)"
        switch SSHDConfiguration.effective(file: sshdFile, user: account.name) {
        case .success(let sshd):
            evidence.append("\(sshd.command): forcecommand \(sshd.forceCommand ?? "none")")
            if let command = sshd.forceCommand, let program = command.split(separator: " ").first,
                Self.isIdlewrap(String(program))
            {
                return forceCommandCheck(account, evidence: evidence)
            }
        case .failure(.notInstalled):
            evidence.append("\(SSHDConfiguration.program): not installed")
        case .failure(.failed(let reason)):
            evidence.append(reason)
            finding += "; sshd's ForceCommand unknown"
        }
        if !profileWrappers.isEmpty {
            evidence += profileWrappers.map { $0 + " (a convenience: the user can skip it)" }
        }
        return AuditCheck(
            id: "account-wrapped", status: .gap, control: .deviceLock, subject: account.name, finding: finding,
            evidence: evidence,
            suggestion:
                "usermod -s /usr/bin/idlewrap \(account.name) (with shell = in \(policy.shownPath)), or"
                + " ForceCommand /usr/bin/idlewrap for its ssh logins")
    }

    /// sshd runs a ForceCommand through the user's shell, which may read the user's own
    /// files first (bash's ~/.bashrc, zsh's ~/.zshenv), where one line starts an unlocked
    /// shell instead; dash reads none for `-c`.
    private func forceCommandCheck(_ account: Account, evidence: [String]) -> AuditCheck {
        let shell = (try? FileSystem.resolvedPath(account.shell)) ?? account.shell
        guard Self.readsNoUserFileForCommands(shell) else {
            return AuditCheck(
                id: "account-wrapped", status: .gap, control: .deviceLock, subject: account.name,
                finding: "sshd's ForceCommand runs idlewrap through \(shell), which reads the user's own files first",
                evidence: evidence,
                suggestion: "usermod -s /usr/bin/idlewrap \(account.name), or a login shell that reads no user file"
                    + " for -c (dash)")
        }
        return AuditCheck(
            id: "account-wrapped", status: .pass, control: .deviceLock, subject: account.name,
            finding: "ssh logins wrapped by sshd's ForceCommand", evidence: evidence,
            suggestion: "ForceCommand wraps ssh logins only; console and su logins run \(account.shell)")
    }

    /// Whether `shell` (resolved) starts a `-c` command without reading a file the user
    /// can write.
    static func readsNoUserFileForCommands(_ shell: String) -> Bool {
        shell.split(separator: "/").last == "dash"
    }

    private func loginShellCheck(_ account: Account, evidence: [String]) -> AuditCheck {
        var evidence = evidence
        let configured = policy.options.shell
        let source = policy.settings.source(of: OptionTable.shell)
        guard let shell = configured else {
            evidence.append("\(policy.shownPath): shell not set")
            return AuditCheck(
                id: "account-wrapped", status: .gap, control: .deviceLock, subject: account.name,
                finding: "idlewrap is the login shell, but no shell = names the real shell (it runs /bin/sh)",
                evidence: evidence, suggestion: "set shell = /bin/bash (or the shell users need) in \(policy.shownPath)"
            )
        }
        evidence.append("\(source.messagePrefix)shell = \(shell)")
        if access(shell, X_OK) != 0 || Self.isIdlewrap(shell) {
            return AuditCheck(
                id: "account-wrapped", status: .gap, control: .deviceLock, subject: account.name,
                finding: "idlewrap is the login shell, but shell = \(shell) is not a shell it can run",
                evidence: evidence, suggestion: "set shell = to an installed shell in \(policy.shownPath)")
        }
        return AuditCheck(
            id: "account-wrapped", status: .pass, control: .deviceLock, subject: account.name,
            finding: "idlewrap is the login shell, running \(shell)", evidence: evidence)
    }
}

/// The scripts every login shell of the Bourne family reads at start: /etc/profile,
/// /etc/profile.d/*.sh and the system-wide bashrc.
struct ProfileScripts {
    let host: AuditHost

    var paths: [String] {
        [host.path("/etc/profile")] + AuditHost.files(in: host.path("/etc/profile.d"), endingIn: ".sh")
            + [host.path("/etc/bash.bashrc"), host.path("/etc/bashrc")]
    }

    /// Each script's path (as the host names it) and lines, for the scripts that exist.
    var scripts: [(file: String, lines: [Substring])] {
        paths.compactMap { path in AuditHost.lines(of: path).map { (host.shown(path), $0) } }
    }

    /// The lines that start idlewrap, as evidence.
    var idlewrapLines: [String] {
        scripts.flatMap { script in
            script.lines.enumerated().compactMap { index, line in
                let text = line.trimmingBlanks()
                return !text.hasPrefix("#") && text.contains("idlewrap") ? evidenceLine(script.file, index, line) : nil
            }
        }
    }
}

import Glibc
import PTYKit

/// What idlewrap runs: the arguments the command sees, and the file to execute
/// when it differs from argv[0] (a login shell's argv[0] is "-bash").
struct CommandPlan: Equatable {
    var arguments: [String]
    var executable: String?
    /// Whether someone asked for this command over ssh (`SSH_ORIGINAL_COMMAND` is
    /// set, or a login shell got `-c`), rather than for an interactive session:
    /// `lock-ssh-commands` and the end of a command while locked depend on it.
    var isSSHCommand = false
    /// Whether this is a login's interactive shell, where detached sessions are offered
    /// (`LoginOffer`): login-shell mode's `-idlewrap`, or no COMMAND for an ssh login with
    /// no command of its own (sshd's ForceCommand, a profile script, `ssh -t host idlewrap`).
    var isLogin = false
    /// The command's SHELL when it must not be idlewrap's own: never idlewrap.
    var shellVariable: String? = nil

    /// The given command; else `SHELL -c "$SSH_ORIGINAL_COMMAND"` as sshd
    /// would run it; else the user's shell, as a login shell with `login`.
    /// `configuredShell` (`shell =`) stands in for a user's shell that is idlewrap.
    static func resolve(
        command: [String], login: Bool, configuredShell: String?, environment: Environment,
        notice: (String) -> Void = { _ in }
    ) -> CommandPlan {
        var plan = defaultPlan(
            command: command, login: login, configuredShell: configuredShell, environment: environment, notice: notice)
        plan.isSSHCommand = environment["SSH_ORIGINAL_COMMAND"] != nil
        plan.isLogin = command.isEmpty && !plan.isSSHCommand && environment["SSH_CONNECTION"] != nil
        // A shell started under idlewrap, or a program it starts, may run $SHELL.
        if let variable = environment["SHELL"], isIdlewrap(variable) {
            plan.shellVariable = userShell(configured: configuredShell, environment: environment)
        }
        return plan
    }

    private static func defaultPlan(
        command: [String], login: Bool, configuredShell: String?, environment: Environment,
        notice: (String) -> Void
    ) -> CommandPlan {
        if !command.isEmpty {
            return CommandPlan(arguments: command, executable: nil)
        }
        let shell = userShell(configured: configuredShell, environment: environment, notice: notice)
        if let original = environment["SSH_ORIGINAL_COMMAND"] {
            return CommandPlan(arguments: [shell, "-c", original], executable: nil)
        }
        if login {
            let name = shell.split(separator: "/").last.map(String.init) ?? shell
            return CommandPlan(arguments: ["-" + name], executable: shell)
        }
        return CommandPlan(arguments: [shell], executable: nil)
    }

    /// `$SHELL`, else the passwd entry's shell, else `configured`, else /bin/sh;
    /// never idlewrap itself (it may be the login shell: see `LoginShell`). A $SHELL
    /// that cannot be run (SHELL=/nonexistent) is passed over, and `notice` names it:
    /// the error would name a path the user never typed.
    static func userShell(
        configured: String? = nil, environment: Environment, notice: (String) -> Void = { _ in }
    ) -> String {
        // Only needed without a COMMAND, so not paid for at every start; the
        // passwd entry is read only when $SHELL will not do.
        func usable(_ shell: String?) -> String? {
            guard let shell, !shell.isEmpty, !isIdlewrap(shell) else { return nil }
            return shell
        }
        let fallback = { usable(UserIdentity.loginShell) ?? usable(configured) ?? "/bin/sh" }
        guard let shell = usable(environment["SHELL"]) else { return fallback() }
        // A bare name is looked up in PATH when it runs.
        guard shell.contains("/") else { return shell }
        do {
            try FileSystem.checkExecutable(shell)
        } catch {
            let instead = fallback()
            notice("SHELL=\(terminalSafe(shell)) cannot be run (\(error)); running \(terminalSafe(instead)) instead")
            return instead
        }
        return shell
    }

    /// Whether `path` is this very idlewrap binary: the same file, by device and inode (two
    /// stat calls; resolving both paths was a readlink for each of their components at every
    /// start), so a hard link to it is idlewrap too.
    static func isIdlewrap(_ path: String) -> Bool {
        guard let own = try? FileSystem.status(ofPath: "/proc/self/exe"),
            let other = try? FileSystem.status(ofPath: path)
        else { return false }
        return own.st_dev == other.st_dev && own.st_ino == other.st_ino
    }

    /// The program's name for the lock screen, --list and the log: the last
    /// part of argv[0], without a login shell's "-" and without the arguments,
    /// which may hold secrets.
    var programName: String {
        let name = arguments.first?.split(separator: "/").last.map(String.init) ?? ""
        let plain = name.hasPrefix("-") && name.count > 1 ? String(name.dropFirst()) : name
        return plain.isEmpty ? "?" : plain
    }
}

import Glibc
import PTYKit

/// What idlewrap runs: the arguments the command sees, and the file to execute
/// when it differs from argv[0] (a login shell's argv[0] is "-bash").
struct CommandPlan: Equatable {
    var arguments: [String]
    var executable: String?

    /// The given command; else `SHELL -c "$SSH_ORIGINAL_COMMAND"` as sshd
    /// would run it; else the user's shell, as a login shell with `login`.
    static func resolve(command: [String], login: Bool, environment: Environment) -> CommandPlan {
        if !command.isEmpty {
            return CommandPlan(arguments: command, executable: nil)
        }
        let shell = userShell(environment: environment)
        if let original = environment["SSH_ORIGINAL_COMMAND"] {
            return CommandPlan(arguments: [shell, "-c", original], executable: nil)
        }
        if login {
            let name = shell.split(separator: "/").last.map(String.init) ?? shell
            return CommandPlan(arguments: ["-" + name], executable: shell)
        }
        return CommandPlan(arguments: [shell], executable: nil)
    }

    /// `$SHELL`, else the passwd entry's shell, else /bin/sh; never idlewrap
    /// itself (someone may have made it their login shell).
    static func userShell(environment: Environment) -> String {
        // Only needed without a COMMAND, so not paid for at every start; the
        // passwd entry is read only when $SHELL will not do.
        let own = try? FileSystem.resolvedPath("/proc/self/exe")
        func usable(_ shell: String?) -> String? {
            guard let shell, !shell.isEmpty, own == nil || (try? FileSystem.resolvedPath(shell)) != own else { return nil }
            return shell
        }
        return usable(environment["SHELL"]) ?? usable(UserIdentity.loginShell) ?? "/bin/sh"
    }

    /// How the command is named in messages and the log.
    var displayName: String {
        arguments.joined(separator: " ")
    }

    /// The program's name for the lock screen: the last part of argv[0],
    /// without a login shell's "-" and without the arguments, which may hold
    /// secrets.
    var programName: String {
        let name = arguments.first?.split(separator: "/").last.map(String.init) ?? ""
        let plain = name.hasPrefix("-") && name.count > 1 ? String(name.dropFirst()) : name
        return plain.isEmpty ? "?" : plain
    }
}

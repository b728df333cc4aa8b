/// idlewrap as a user's login shell (listed in /etc/shells, set with `usermod -s`):
/// login, `su -` and sshd start it as `-idlewrap`, and sshd runs `idlewrap -c CMD`
/// for `ssh host CMD`, scp, rsync, git and external subsystems. It then runs the
/// real shell (`shell =` in the system file, else /bin/sh) the same way. Since no
/// user file runs before it, this is the one deployment a user's startup files
/// cannot get around.
///
/// The mode has no options: a login shell's arguments come from whoever starts it,
/// so only `-c CMD` is accepted, and settings come from the configuration files.
enum LoginShell {
    /// What the invocation asks for.
    enum Request: Equatable {
        /// `-idlewrap`: an interactive login.
        case login
        /// `-c CMD`; `login` when argv[0] also starts with `-` (`su - user -c CMD`),
        /// which the real shell is then told too.
        case command(String, login: Bool)
    }

    static let defaultShell = "/bin/sh"

    /// Whether argv[0] and the arguments put idlewrap in this mode: a login shell's
    /// argv[0] starts with `-`; and `-c` is no option of idlewrap's own, so a first
    /// argument `-c` can only be a program running "the user's shell" with it.
    static func applies(invokedAs name: String, arguments: [String]) -> Bool {
        name.hasPrefix("-") || arguments.first == "-c"
    }

    /// The request, or bad usage for anything but nothing or exactly `-c CMD`.
    static func request(invokedAs name: String, arguments: [String]) throws(UsageError) -> Request {
        let login = name.hasPrefix("-")
        switch arguments.count {
        case 0 where login:
            return .login
        case 1 where arguments[0] == "-c":
            throw UsageError(message: "option '-c' needs a COMMAND")
        case 2 where arguments[0] == "-c":
            return .command(arguments[1], login: login)
        default:
            throw UsageError(
                message: "as a login shell idlewrap accepts only -c COMMAND; its settings come from"
                    + " \(ConfigurationFiles.systemPath) and the user's configuration file")
        }
    }

    /// The real shell: `configured` (`shell =`), else /bin/sh. It must be an absolute
    /// path and not idlewrap itself, which would start itself again forever.
    static func realShell(configured: String?) throws(UsageError) -> String {
        let shell = configured ?? defaultShell
        guard shell.hasPrefix("/") else {
            throw UsageError(message: "shell = \(terminalSafe(shell)): not an absolute path")
        }
        if CommandPlan.isIdlewrap(shell) {
            throw UsageError(message: "shell = \(terminalSafe(shell)): that is idlewrap itself")
        }
        return shell
    }

    /// The real shell run as idlewrap was: a login shell's argv[0] is `-NAME`, as
    /// login and sshd give it; `-c CMD` follows as it came. The command's SHELL is
    /// the real shell, never idlewrap.
    static func plan(_ request: Request, shell: String) -> CommandPlan {
        let name = shell.split(separator: "/").last.map(String.init) ?? shell
        let arguments: [String]
        switch request {
        case .login: arguments = ["-" + name]
        case .command(let command, let login): arguments = [login ? "-" + name : name, "-c", command]
        }
        var plan = CommandPlan(arguments: arguments, executable: shell)
        plan.isSSHCommand = request != .login
        plan.isLogin = request == .login
        plan.shellVariable = shell
        return plan
    }
}

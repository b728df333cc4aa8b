import Glibc
import PTYKit

@main
enum IdleWrap {
    static func main() {
        exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    static func run(_ arguments: [String]) -> Int32 {
        let environment = Environment.current()
        let invocation: Invocation
        do {
            invocation = try Options.parse(arguments, environment: { environment[$0] })
        } catch {
            Diagnostics.write(error.description + "\n")
            return ExitStatus.failure
        }
        switch invocation {
        case .help:
            try? FileDescriptor.standardOutput.writeAll(Usage.help)
            return ExitStatus.success
        case .version:
            try? FileDescriptor.standardOutput.writeAll(Usage.version + "\n")
            return ExitStatus.success
        case .setPassword(let file, let options):
            return setPassword(file: file, options: options, environment: environment)
        case .lockAll(let options):
            return SessionCommands.lockAll(options, environment: environment)
        case .list(let options):
            return SessionCommands.list(options, environment: environment)
        case .run(let options):
            return wrap(options, environment: environment)
        }
    }

    static func wrap(_ options: Options, environment: Environment) -> Int32 {
        let plan = CommandPlan.resolve(command: options.command, login: options.login, environment: environment)
        if let reason = reasonToRunDirectly(options, environment: environment) {
            Diagnostics.notice("\(reason); running \(plan.arguments[0]) without locking", quiet: options.quiet)
            let error = ChildProcess.execute(plan.arguments, executable: plan.executable)
            Diagnostics.error(error.description)
            return ExitStatus.of(error)
        }
        let authenticator: Authenticator
        do {
            authenticator = try AuthSetup.makeAuthenticator(
                method: options.auth, passwordFile: options.passwordFile, pamService: options.pamService,
                pamConfigDirectory: options.pamConfigDirectory, user: .runningUser,
                terminal: .standardInput, environment: { environment[$0] },
                notice: { Diagnostics.notice($0, quiet: options.quiet) })
        } catch {
            Diagnostics.error(error.description)
            return ExitStatus.failure
        }
        let session: Session
        do {
            session = try Session.start(plan, options: options, environment: environment, authenticator: authenticator)
        } catch {
            Diagnostics.error(error.description)
            return ExitStatus.of(error)
        }
        return session.run()
    }

    /// Why there is nothing to lock, if there is not: no terminal to lock
    /// (scp or rsync through an sshd ForceCommand), or one idlewrap already wraps.
    static func reasonToRunDirectly(_ options: Options, environment: Environment) -> String? {
        let input = FileDescriptor.standardInput
        guard input.isTerminal && FileDescriptor.standardOutput.isTerminal else {
            return "not a terminal"
        }
        if !options.nested, let wrapped = environment["IDLEWRAP_TTY"], isSameDevice(wrapped, input) {
            return "this terminal is already wrapped by idlewrap (see --nested)"
        }
        return nil
    }

    static func isSameDevice(_ path: String, _ terminal: FileDescriptor) -> Bool {
        guard let named = try? FileSystem.status(ofPath: path), let current = try? terminal.status() else { return false }
        return named.st_rdev == current.st_rdev
    }

    static func setPassword(file: String?, options: Options, environment: Environment) -> Int32 {
        let path: String
        do {
            path = try AuthSetup.passwordFile(file ?? options.passwordFile, environment: { environment[$0] })
        } catch {
            Diagnostics.error(error.description)
            return ExitStatus.failure
        }
        return SetPassword.run(file: path, input: .standardInput, quiet: options.quiet)
    }
}

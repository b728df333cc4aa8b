import Glibc
import PTYKit

@main
enum IdleWrap {
    static func main() {
        exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    static func run(_ arguments: [String]) -> Int32 {
        let environment = Environment.current()
        let files: Settings
        do {
            files = try ConfigurationFiles.load(environment: { environment[$0] })
        } catch {
            // A file's mistake, not the command line's: no hint about --help.
            if let record = error.auditRecord { AuditLog.recordPolicy(record, environment: environment) }
            Diagnostics.error(error.message)
            return ExitStatus.failure
        }
        let invocation: Invocation
        do {
            invocation = try Options.parse(arguments, environment: { environment[$0] }, startingFrom: files)
        } catch {
            if let record = error.auditRecord { AuditLog.recordPolicy(record, environment: environment) }
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
        case .showConfig(let settings):
            try? FileDescriptor.standardOutput.writeAll(ShowConfig.text(of: settings))
            return ExitStatus.success
        case .completion(let shell):
            try? FileDescriptor.standardOutput.writeAll(shell.script())
            return ExitStatus.success
        case .setPassword(let file, let options):
            return setPassword(file: file, options: options, environment: environment)
        case .run(let options):
            return wrap(options, environment: environment)
        }
    }

    static func wrap(_ options: Options, environment: Environment) -> Int32 {
        let plan = CommandPlan.resolve(command: options.command, login: options.login, environment: environment)
        if let reason = reasonToRunDirectly(options, plan: plan, environment: environment) {
            Diagnostics.notice("\(reason); running \(plan.arguments[0]) without locking", quiet: options.quiet)
            let error = ChildProcess.execute(plan.arguments, executable: plan.executable)
            Diagnostics.error(error.description)
            return ExitStatus.of(error)
        }
        // Only now, when the limits matter: a lowered timeout means nothing to scp.
        for change in options.policyChanges where change.wasAskedFor {
            Diagnostics.notice(change.notice, quiet: options.quiet)
            AuditLog.recordPolicy(change.auditRecord, environment: environment)
        }
        // Before any password is typed into this process.
        let hygiene: SecretHygiene
        do {
            hygiene = try SecretHygiene.engage()
        } catch {
            Diagnostics.error("cannot keep other processes out of idlewrap's memory: \(error)")
            return ExitStatus.failure
        }
        let authenticator: Authenticator
        do {
            authenticator = try AuthSetup.makeAuthenticator(
                method: options.auth, passwordFile: options.passwordFile, pamService: options.pamService,
                pamConfigDirectory: options.pamConfigDirectory, user: .runningUser,
                terminal: .standardInput, environment: { environment[$0] },
                policy: options.authPolicy, minimumPasswordLength: options.minPasswordLength,
                notice: { Diagnostics.notice($0, quiet: options.quiet) })
        } catch {
            Diagnostics.error(error.description)
            return ExitStatus.failure
        }
        let session: Session
        do {
            session = try Session.start(
                plan, options: options, environment: environment, authenticator: authenticator, hygiene: hygiene)
        } catch {
            Diagnostics.error(error.description)
            return ExitStatus.of(error)
        }
        return session.run()
    }

    /// Why there is nothing to lock, if there is not: no terminal to lock
    /// (scp or rsync through an sshd ForceCommand), or an idlewrap that
    /// verifiably wraps this terminal already (see `NestingGuard`). Skipping
    /// the lock is logged, and so is a claim of nesting that does not hold.
    static func reasonToRunDirectly(_ options: Options, plan: CommandPlan, environment: Environment) -> String? {
        guard FileDescriptor.standardInput.isTerminal && FileDescriptor.standardOutput.isTerminal else {
            return "not a terminal"
        }
        if options.nested { return nil }
        let verdict = NestingGuard.check(environment: environment)
        if verdict == .unclaimed { return nil }
        let log = AuditLog(
            user: .runningUser, terminal: FileDescriptor.standardInput.terminalPath() ?? "?",
            command: plan.displayName, sshConnection: environment["SSH_CONNECTION"])
        log.open()
        switch verdict {
        case .unclaimed:
            return nil
        case .wrapped(let outer):
            log.record("not wrapped again: idlewrap \(outer) wraps this terminal", priority: LOG_INFO)
            return "this terminal is already wrapped by idlewrap (see --nested)"
        case .unverified(let reason):
            log.record("wrapping although IDLEWRAP_TTY names this terminal: \(reason)")
            return nil
        }
    }

    static func setPassword(file: String?, options: Options, environment: Environment) -> Int32 {
        let path: String
        do {
            path = try AuthSetup.passwordFile(file ?? options.passwordFile, environment: { environment[$0] })
        } catch {
            Diagnostics.error(error.description)
            return ExitStatus.failure
        }
        return SetPassword.run(
            file: path, input: .standardInput, quiet: options.quiet, minimumLength: options.minPasswordLength,
            refused: { AuditLog.recordPolicy($0, environment: environment) })
    }
}

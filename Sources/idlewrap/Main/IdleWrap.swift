import Glibc
import PTYKit

@main
enum IdleWrap {
    static func main() {
        // A write to a pipe or socket whose reader has gone (a PAM module's helper that
        // quit, a --list reader) is an error to handle, not the end of idlewrap. Whatever
        // idlewrap starts gets SIGPIPE back at its default.
        signal(SIGPIPE, SIG_IGN)
        let arguments = ProcessArguments.current
        exit(run(Array(arguments.dropFirst()), invokedAs: arguments.first ?? "idlewrap"))
    }

    static func run(_ arguments: [String], invokedAs name: String = "idlewrap") -> Int32 {
        let environment = Environment.current()
        if LoginShell.applies(invokedAs: name, arguments: arguments) {
            return runAsLoginShell(arguments, invokedAs: name, environment: environment)
        }
        // --audit reads the system file itself, and reports what is wrong with it
        // rather than stop at it; the user's file and the environment play no part.
        // Only a command line that names it is parsed a second time (the parser takes
        // no abbreviation, and `--audit=` is refused), so an ordinary run pays nothing.
        if arguments.contains("--audit"),
            case .audit(let settings)? = try? Options.parse(arguments, environment: { _ in nil })
        {
            return Audit.run(settings, environment: environment)
        }
        // A file's mistake stops a run, but not what wraps nothing: --help, --version,
        // --completion, --list and --lock-all (a desktop shortcut, .bash_logout) go on
        // without the files and say what is wrong; --check-config says all of it.
        var fileProblem: UsageError?
        let files: Settings
        do {
            files = try ConfigurationFiles.load(environment: { environment[$0] })
        } catch {
            fileProblem = error
            files = Settings()
        }
        let invocation: Invocation
        do throws(UsageError) {
            invocation = try Options.parse(arguments, environment: { environment[$0] }, startingFrom: files)
            if let fileProblem, !invocation.wrapsNothing { throw fileProblem }
        } catch {
            if let record = error.auditRecord { AuditLog.recordPolicy(record, environment: environment) }
            // A file's mistake, not the command line's: no hint about --help.
            if let fileProblem {
                Diagnostics.error(fileProblem.message)
            } else {
                Diagnostics.write(error.description + "\n")
            }
            return ExitStatus.failure
        }
        if let fileProblem, invocation != .checkConfig {
            Diagnostics.error("\(fileProblem.message) (ignored: the configuration files are not read)")
        }
        switch invocation {
        case .help:
            try? FileDescriptor.standardOutput.writeAll(Usage.help)
            return ExitStatus.success
        case .version:
            try? FileDescriptor.standardOutput.writeAll(Usage.version + "\n")
            return ExitStatus.success
        case .showConfig(let settings):
            let defaults = ShowConfig.authenticationDefaults(
                of: settings, user: .runningUser, environment: { environment[$0] })
            try? FileDescriptor.standardOutput.writeAll(ShowConfig.text(of: settings, defaults: defaults))
            return ExitStatus.success
        case .checkConfig:
            return ConfigurationCheck.run(environment: environment)
        case .completion(let shell):
            try? FileDescriptor.standardOutput.writeAll(shell.script())
            return ExitStatus.success
        case .setPassword(let file, let options):
            return setPassword(file: file, options: options, environment: environment)
        case .lockAll(let options):
            return SessionCommands.lockAll(options, environment: environment)
        case .list(let options):
            return SessionCommands.list(options, environment: environment)
        case .attach(let pid, let options):
            return AttachCommand.run(pid: pid, take: options.take, environment: environment)
        case .audit(let settings):
            return Audit.run(settings, environment: environment)
        case .run(let options):
            return wrap(options, environment: environment)
        }
    }

    /// Login-shell mode (see `LoginShell`): the settings come from the configuration
    /// files and the environment alone, and running the real shell without a lock says
    /// nothing, since a login shell must stay out of the way of scp, rsync and git.
    static func runAsLoginShell(_ arguments: [String], invokedAs name: String, environment: Environment) -> Int32 {
        let request: LoginShell.Request
        do {
            request = try LoginShell.request(invokedAs: name, arguments: arguments)
        } catch {
            Diagnostics.write(error.description + "\n")
            return ExitStatus.failure
        }
        let plan: CommandPlan
        let options: Options
        do {
            options = try loginShellSettings(environment: environment)
            plan = LoginShell.plan(request, shell: try LoginShell.realShell(configured: options.shell))
        } catch {
            // The system file's mistake, not the caller's: no hint about --help.
            if let record = error.auditRecord { AuditLog.recordPolicy(record, environment: environment) }
            Diagnostics.error(error.message)
            return ExitStatus.failure
        }
        return wrap(plan, options: options, announceDirectRun: false, environment: environment)
    }

    /// The settings of the configuration files and the environment. A mistake of the
    /// user's own (their file, IDLEWRAP_TIMEOUT) must not shut them out of every login,
    /// scp included, with no way to mend it: the system file alone then applies, which
    /// holds the site's policy anyway, and stderr says what was ignored.
    static func loginShellSettings(environment: Environment) throws(UsageError) -> Options {
        do {
            return try settings(environment: { environment[$0] })
        } catch {
            if let record = error.auditRecord { AuditLog.recordPolicy(record, environment: environment) }
            let userFree = ["XDG_CONFIG_HOME", "HOME"] + OptionTable.all.compactMap(\.environmentVariable)
            let options = try settings(environment: { userFree.contains($0) ? nil : environment[$0] })
            Diagnostics.error("ignoring your settings: \(error.message)")
            return options
        }
    }

    /// The files' settings with the environment's over them and the site's policy
    /// enforced, as for a command line without options.
    private static func settings(environment lookup: (String) -> String?) throws(UsageError) -> Options {
        let files = try ConfigurationFiles.load(environment: lookup)
        guard case .run(let options) = try Options.parse([], environment: lookup, startingFrom: files) else {
            preconditionFailure("no arguments asked for an action")
        }
        return options
    }

    static func wrap(_ options: Options, environment: Environment) -> Int32 {
        let plan = CommandPlan.resolve(
            command: options.command, login: options.login, configuredShell: options.shell, environment: environment,
            notice: { Diagnostics.notice($0, quiet: options.quiet) })
        return wrap(plan, options: options, announceDirectRun: true, environment: environment)
    }

    static func wrap(_ plan: CommandPlan, options: Options, announceDirectRun: Bool, environment: Environment) -> Int32
    {
        var environment = environment
        if let shell = plan.shellVariable { environment = environment.setting("SHELL", to: shell) }
        if let reason = reasonToRunDirectly(options, plan: plan, environment: environment) {
            Diagnostics.notice(
                "\(reason); running \(plan.arguments[0]) without locking", quiet: options.quiet || !announceDirectRun)
            if let shell = plan.shellVariable { Environment.export("SHELL", shell) }
            signal(SIGPIPE, SIG_DFL)
            let error = ChildProcess.execute(plan.arguments, executable: plan.executable)
            Diagnostics.error(error.description)
            return ExitStatus.of(error)
        }
        if plan.isLogin,
            let status = LoginOffer.run(options.attachAtLogin, quiet: options.quiet, environment: environment)
        {
            return status
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
                notice: { Diagnostics.notice($0, quiet: options.quiet) },
                policyRecord: { AuditLog.recordPolicy($0, environment: environment) })
        } catch {
            Diagnostics.error(error.description)
            return ExitStatus.failure
        }
        // Before the split, so that the kernel names the pid the shell started as the
        // socket's listener (SO_PEERCRED), as --list and --lock-all expect.
        let control = ControlServer.register(
            pid: getpid(), uid: getuid(), environment: environment, outlivingLogin: options.detach == .hangup)
        let guardian: GuardianLink
        switch split(plan, options: options, environment: environment, authenticator: authenticator, control: control) {
        case .guardian(let status): return status
        case .session(let link): guardian = link
        }
        // Whatever the way out from here, the session process means to end.
        guardian.end(
            runSession(
                plan, options: options, environment: environment, authenticator: authenticator, hygiene: hygiene,
                guardian: guardian, control: control))
    }

    /// The session process's work, to its exit status.
    private static func runSession(
        _ plan: CommandPlan, options: Options, environment: Environment, authenticator: Authenticator,
        hygiene: SecretHygiene, guardian: GuardianLink, control: Result<ControlServer, ControlProblem>
    ) -> Int32 {
        let session: Session
        do {
            session = try Session(
                plan, options: options, environment: environment, authenticator: authenticator, hygiene: hygiene,
                guardian: guardian, control: control)
        } catch {
            Diagnostics.error(error.description)
            return ExitStatus.of(error)
        }
        return session.run()
    }

    enum SplitOutcome {
        /// In the guardian, after the session process ended: idlewrap's exit status.
        case guardian(Int32)
        case session(GuardianLink)
    }

    /// Forks the session process off the guardian (`Guardian`), which keeps the terminal
    /// locked if the session process ends abnormally while locked.
    static func split(
        _ plan: CommandPlan, options: Options, environment: Environment, authenticator: Authenticator,
        control: Result<ControlServer, ControlProblem>
    ) -> SplitOutcome {
        let server = try? control.get()
        let protection = Guardian.Protection(
            authenticator: authenticator, program: plan.programName, message: options.message,
            sshConnection: environment["SSH_CONNECTION"], controlSocketPath: server?.path,
            isPlain: PlainLockScreen.isNeeded(term: environment["TERM"]))
        do {
            switch try Guardian.split(protecting: protection, sessionHandles: Session.watchedSignals) {
            case .guardian(let guardian):
                // The session process serves the socket; a copy kept here would hold
                // clients waiting after it ended.
                try? server?.listener.close()
                guardian.watchToEnd()
            case .session(let link):
                return .session(link)
            }
        } catch {
            server?.shutDown()
            Diagnostics.error("cannot start idlewrap's session process: \(error)")
            return .guardian(ExitStatus.failure)
        }
    }

    /// Why there is nothing to lock, if there is not: no terminal to lock
    /// (scp or rsync through an sshd ForceCommand), a command over ssh that the
    /// site lets run unlocked, or an idlewrap that verifiably wraps this terminal
    /// already (see `NestingGuard`). Skipping the lock for nesting is logged, and
    /// so is a claim of nesting that does not hold.
    static func reasonToRunDirectly(_ options: Options, plan: CommandPlan, environment: Environment) -> String? {
        guard FileDescriptor.standardInput.isTerminal && FileDescriptor.standardOutput.isTerminal else {
            return "not a terminal"
        }
        if plan.isSSHCommand && !options.lockSSHCommands {
            return "an ssh command and lock-ssh-commands = no"
        }
        if options.nested { return nil }
        let verdict = NestingGuard.check(environment: environment)
        if verdict == .unclaimed { return nil }
        let log = AuditLog(
            user: .runningUser, terminal: FileDescriptor.standardInput.terminalPath() ?? "?",
            command: plan.programName, sshConnection: environment["SSH_CONNECTION"])
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
            file: path, makingDirectories: (file ?? options.passwordFile) == nil, input: .standardInput,
            quiet: options.quiet, minimumLength: options.minPasswordLength,
            refused: { AuditLog.recordPolicy($0, environment: environment) })
    }
}

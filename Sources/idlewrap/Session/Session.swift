import Glibc
import PTYKit

/// One wrapped command: its pseudo-terminal, the relay between it and the
/// real terminal, the lock in between, and what ends it. The terminal is in
/// raw mode only inside `run`, and left as it was found on every way out.
final class Session: RelayDelegate {
    static let watchedSignals = [SIGCHLD, SIGWINCH, SIGHUP, SIGTERM, SIGINT, SIGQUIT, SIGUSR1, SIGCONT]
    /// How long a hung-up command may linger before SIGKILL.
    static let hangupGrace: Duration = .seconds(10)

    private enum HangupReason {
        /// idlewrap got this signal, or the terminal hung up (SIGHUP).
        case signal(Int32)
        /// --kill-after: the session stayed locked too long.
        case lockedTooLong
        /// An ssh command ended while locked, when perhaps nobody is there to
        /// unlock (automation with `ssh -tt`); `discarded` tells whether any of
        /// its output was, or may have been, held back and is now dropped.
        case sshCommandEndedWhileLocked(discarded: Bool)
    }

    private enum Ending {
        case running
        /// The command was hung up; SIGKILL follows at `killAt`, and once
        /// `killed`, idlewrap gives up waiting at the next deadline.
        case hangingUp(HangupReason, killAt: MonotonicInstant, killed: Bool)
    }

    private let terminal = FileDescriptor.standardInput
    private let terminalOutput = FileDescriptor.standardOutput
    private let options: Options
    private let plan: CommandPlan
    private let pseudoTerminal: PseudoTerminal
    private let command: ChildProcess
    private let relay: Relay
    private let log: AuditLog
    private let hooks: Hooks
    private var lock: LockController!
    private var rawMode: RawMode?
    private var ending = Ending.running
    private var terminalIsGone = false
    private var killAfterLockAt: MonotonicInstant?
    /// The lock's authenticator's descriptor, while the relay watches it.
    private var authenticatorReadiness: FileDescriptor?
    /// logind's Lock signals for this login session, while followed.
    private var logind: LogindListener?
    /// The control socket --lock-all and --list talk to, while registered.
    private var control: ControlServer?
    /// What `status` reports of the session.
    private let terminalPath: String
    private let commandName: String

    private init(
        options: Options, plan: CommandPlan, environment: Environment, authenticator: Authenticator,
        hygiene: SecretHygiene, pseudoTerminal: PseudoTerminal, signals: SignalSource, command: ChildProcess
    ) {
        self.options = options
        self.plan = plan
        switch LogindListener.connect(
            sessionID: environment["XDG_SESSION_ID"].flatMap { $0.isEmpty ? nil : $0 },
            systemBusAddress: environment["DBUS_SYSTEM_BUS_ADDRESS"])
        {
        case .success(let listener):
            logind = listener
        case .failure(let reason):
            // No bus (a container, a system without systemd) is normal: silent.
            if options.verbose { Diagnostics.error("not following logind: \(reason)") }
        }
        self.pseudoTerminal = pseudoTerminal
        self.command = command
        relay = Relay(
            terminalInput: terminal, terminalOutput: terminalOutput, master: pseudoTerminal.master,
            signals: signals, command: command)
        let user = UserName.runningUser
        terminalPath = FileDescriptor.standardInput.terminalPath() ?? "?"
        commandName = plan.programName
        log = AuditLog(
            user: user, terminal: terminalPath, command: plan.displayName,
            sshConnection: environment["SSH_CONNECTION"])
        hooks = Hooks(
            onLock: options.onLock, onUnlock: options.onUnlock, environment: environment, log: log, hygiene: hygiene)
        lock = LockController(
            settings: LockController.Settings(
                timeout: options.timeout, holdLimit: options.holdLimit, lockKey: options.lockKey,
                message: options.message, wipeScrollback: options.wipeScrollback, program: plan.programName,
                host: UserIdentity.hostName, user: user, warn: options.warn, bellOnExit: options.bellOnExit),
            authenticator: authenticator, clock: MonotonicTimeSource(), host: self)
        switch ControlServer.register(pid: getpid(), uid: getuid(), environment: environment) {
        case .success(let server):
            control = server
        case .failure(let reason):
            // Registering is a convenience: the session is locked all the same.
            Diagnostics.notice("not registering for --lock-all and --list: \(reason)", quiet: options.quiet)
        }
    }

    /// Starts `plan` on a new pseudo-terminal shaped like the real one. Errors
    /// here happen before the terminal leaves its normal mode.
    static func start(
        _ plan: CommandPlan, options: Options, environment: Environment, authenticator: Authenticator,
        hygiene: SecretHygiene
    ) throws(PTYError) -> Session {
        let terminal = FileDescriptor.standardInput
        let attributes: TerminalAttributes
        do {
            attributes = try TerminalAttributes.of(terminal)
        } catch {
            throw PTYError(.configureTerminal, error, context: "tcgetattr")
        }
        let pseudoTerminal = try PseudoTerminal()
        try pseudoTerminal.configure(attributes: attributes, size: try? WindowSize.of(terminal))
        do {
            try pseudoTerminal.master.setNonblocking(true)
        } catch {
            throw PTYError(.openPseudoTerminal, error, context: "fcntl")
        }
        // Blocked before the spawn, so not even a command that exits at once
        // can end before idlewrap is watching for it.
        let signals = try SignalSource(watchedSignals)
        // A PAM module writing to a helper that quit (pam_exec) must not kill
        // idlewrap; the command gets SIGPIPE back at its default.
        signal(SIGPIPE, SIG_IGN)
        let commandEnvironment =
            environment
            .setting("IDLEWRAP_PID", to: String(getpid()))
            .setting("IDLEWRAP_TTY", to: pseudoTerminal.replicaPath)
        let command = try hygiene.spawningOrdinaryProcess { () throws(PTYError) in
            try ChildProcess.spawn(
                plan.arguments, executable: plan.executable,
                environment: commandEnvironment.entries, terminalPath: pseudoTerminal.replicaPath)
        }
        return Session(
            options: options, plan: plan, environment: environment, authenticator: authenticator,
            hygiene: hygiene, pseudoTerminal: pseudoTerminal, signals: signals, command: command)
    }

    /// Relays until the command is over and returns idlewrap's exit status.
    func run() -> Int32 {
        // Unregistered on every way out of run: the command's exit, a signal,
        // --kill-after, a relay failure.
        defer { unregister() }
        if let control { relay.watch(control.listener) }
        do {
            rawMode = try RawMode(terminal)
        } catch {
            hangUp(.signal(SIGHUP))
            Diagnostics.error("cannot put the terminal in raw mode: \(error)")
            return ExitStatus.failure
        }
        defer { leaveTerminal() }
        updateDeadline()
        do {
            try relay.run(delegate: self)
        } catch {
            lock.abandon()
            hangUp(.signal(SIGHUP))
            leaveTerminal()
            Diagnostics.lateError(error.description)
            return ExitStatus.failure
        }
        leaveTerminal()
        if !options.quiet {
            for failure in hooks.failures { Diagnostics.error(failure) }
        }
        switch ending {
        case .hangingUp(.signal(let signal), _, _):
            return ExitStatus.killed(by: signal)
        case .hangingUp(.lockedTooLong, _, _):
            return relay.commandStatus?.shellStatus ?? ExitStatus.killed(by: SIGHUP)
        case .hangingUp(.sshCommandEndedWhileLocked(let discarded), _, _):
            guard discarded else { return relay.commandStatus?.shellStatus ?? ExitStatus.failure }
            // Not the command's status: a script must not take the output it
            // got for all there was.
            Diagnostics.error("the command ended while the session was locked; its held output was discarded")
            return ExitStatus.failure
        case .running:
            return relay.commandStatus?.shellStatus ?? ExitStatus.failure
        }
    }

    /// Turns off what the command left on and restores the settings, once.
    /// A signal or a hung-up terminal asks idlewrap to go: it does not wait
    /// for output to drain then.
    private func leaveTerminal() {
        guard let rawMode else { return }
        self.rawMode = nil
        // Not through `show`: a failure here must not turn the command's
        // exit into a hang-up.
        if !terminalIsGone {
            let restore =
                lock.endWarning()
                + TerminalRestore.bytes(leaving: lock.commandModes, lockIsShown: false, wipeScrollback: false)
            _ = restore.withUnsafeBytes { bytes in Result { () throws(PTYError) in try relay.sendToTerminal(bytes) } }
        }
        var isSignalled = terminalIsGone
        if case .hangingUp(.signal, _, _) = ending { isSignalled = true }
        rawMode.restore(draining: !isSignalled)
    }

    // MARK: - Ending

    private func hangUp(_ reason: HangupReason) {
        guard case .running = ending else { return }
        lock.abandon()
        relay.inputIsSecret = false
        killAfterLockAt = nil
        ending = .hangingUp(reason, killAt: MonotonicInstant.now() + Session.hangupGrace, killed: false)
        signalSession(SIGHUP)
        // A stopped job must run again to act on its SIGHUP.
        signalSession(SIGCONT)
        if relay.commandStatus != nil { relay.stop() }
    }

    private func signalSession(_ signal: Int32) {
        command.sendToSession(signal, foregroundGroup: try? pseudoTerminal.master.foregroundProcessGroup())
    }

    private func finishIfOver() {
        switch ending {
        case .running
        where plan.isSSHCommand && lock.isLockingOrLocked && relay.commandStatus != nil
            && (relay.outputEnded || !relay.isReadingOutput):
            // Waiting for a password that automation will never type would hang
            // it forever; ending shows nothing that was held. Its output is read
            // to the end first (unless the hold limit stopped that), so that
            // `discarded` does not count output that was never coming.
            let discarded = lock.heldByteCount > 0 || !relay.outputEnded
            log.record(
                "session ended: the ssh command ended while locked" + (discarded ? "; held output discarded" : ""))
            hangUp(.sshCommandEndedWhileLocked(discarded: discarded))
        case .running:
            if relay.commandStatus != nil && relay.outputEnded && !lock.isLockingOrLocked { relay.stop() }
        case .hangingUp:
            if relay.commandStatus != nil { relay.stop() }
        }
    }

    /// The relay sleeps until the earliest of the lock's, --kill-after's and
    /// the hang-up's deadlines.
    private func updateDeadline() {
        relay.deadline = .earliest(
            .earliest(.earliest(.earliest(lock.nextDeadline, killAfterLockAt), hangupDeadline), logind?.deadline),
            control?.deadline)
        // sd-bus asks for POLLOUT only while it has something to write.
        if let logind, let descriptor = logind.descriptor { relay.watch(descriptor, events: logind.events) }
    }

    private var hangupDeadline: MonotonicInstant? {
        if case .hangingUp(_, let killAt, _) = ending { return killAt }
        return nil
    }

    // MARK: - RelayDelegate

    func relay(_ relay: Relay, didReadInput input: UnsafeRawBufferPointer) {
        guard case .running = ending else { return }
        lock.handleInput(input)
        updateDeadline()
    }

    func relay(_ relay: Relay, didReadOutput output: UnsafeRawBufferPointer) {
        guard case .running = ending else { return }
        lock.handleOutput(output)
        updateDeadline()
    }

    func relay(_ relay: Relay, didReceiveSignal signal: Int32) {
        switch signal {
        case SIGHUP, SIGTERM, SIGINT, SIGQUIT:
            hangUp(.signal(signal))
        case SIGUSR1:
            if case .running = ending { lock.requestLock() }
        case SIGWINCH:
            lock.handleResize()
        case SIGCHLD:
            hooks.reap()
        case SIGCONT:
            // idlewrap was stopped, and whoever stopped it (a shell) may have
            // put the terminal back in cooked mode: the lock screen would echo
            // the password and ^C would end idlewrap.
            do {
                try rawMode?.reapply()
            } catch {
                terminalIsGone = true
                hangUp(.signal(SIGHUP))
            }
            lock.handleResize()
        default:
            break
        }
        updateDeadline()
    }

    func relay(_ relay: Relay, commandDidExit status: TerminationStatus) {
        lock.commandDidExit()
        finishIfOver()
    }

    func relayOutputDidEnd(_ relay: Relay) {
        finishIfOver()
    }

    func relayInputDidEnd(_ relay: Relay) {
        terminalIsGone = true
        hangUp(.signal(SIGHUP))
        updateDeadline()
    }

    func relayDeadlineDidPass(_ relay: Relay) {
        let now = MonotonicInstant.now()
        if let due = logind?.deadline, due <= now { followLogind() }
        if let control {
            for connection in control.overdue(at: now) { closeControlConnection(connection) }
            if control.resumeAccepting(at: now) { relay.watch(control.listener) }
        }
        switch ending {
        case .hangingUp(let reason, let killAt, let killed) where killAt <= now:
            if killed {
                // Even SIGKILL did not end it (a process stuck in the kernel):
                // idlewrap leaves rather than hang with it.
                relay.stop()
            } else {
                ending = .hangingUp(reason, killAt: now + .seconds(1), killed: true)
                signalSession(SIGKILL)
            }
        case .hangingUp:
            break
        case .running:
            if let killAt = killAfterLockAt, killAt <= now {
                log.record("session ended: locked for longer than --kill-after")
                hangUp(.lockedTooLong)
            } else {
                lock.handleDeadline()
                // The command may have ended while the lock waited for its
                // output to reach a boundary.
                finishIfOver()
            }
        }
        updateDeadline()
    }

    func relay(_ relay: Relay, descriptorIsReadable descriptor: FileDescriptor) {
        if descriptor == authenticatorReadiness {
            lock.handleAuthenticatorReadiness()
        } else if descriptor == logind?.descriptor {
            followLogind()
        } else if let control, descriptor == control.listener {
            for connection in control.acceptWaiting(now: .now()) { relay.watch(connection) }
            if control.acceptPausedUntil != nil { relay.unwatch(control.listener) }
        } else if let control, control.isConnection(descriptor) {
            if control.serve(descriptor, answer: answer) { closeControlConnection(descriptor) }
        } else {
            return
        }
        updateDeadline()
    }

    // MARK: - Control socket

    private func answer(_ request: ControlRequest) -> String {
        switch request {
        case .status:
            return status(at: .now()).reply
        case .lock:
            // As SIGUSR1: a request can only lock, never unlock.
            guard case .running = ending else { return ControlRequest.endingReply }
            lock.requestLock()
            return lock.isLockingOrLocked ? ControlRequest.lockedReply : ControlRequest.endingReply
        }
    }

    private func status(at now: MonotonicInstant) -> SessionStatus {
        let idle = lock.lastActivity.map { (now - $0).wholeSeconds } ?? 0
        return SessionStatus(
            pid: getpid(), terminal: terminalPath, user: UserName.runningUser.value, command: commandName,
            idleSeconds: idle, locked: lock.isLockingOrLocked,
            locksInSeconds: lock.idleLockDeadline.map { ($0 - now).secondsRoundedUp })
    }

    private func closeControlConnection(_ connection: FileDescriptor) {
        relay.unwatch(connection)
        control?.close(connection)
    }

    private func unregister() {
        guard let control else { return }
        for descriptor in control.descriptors { relay.unwatch(descriptor) }
        control.shutDown()
        self.control = nil
    }

    // MARK: - logind

    private func followLogind() {
        guard let logind, let descriptor = logind.descriptor else { return }
        for event in logind.process() {
            switch event {
            case .lock:
                // As SIGUSR1: it can only lock, never unlock.
                if case .running = ending { lock.requestLock() }
            case .following(let session):
                if options.verbose { Diagnostics.lateError("following logind session \(session)") }
            case .stopped(let reason):
                relay.unwatch(descriptor)
                self.logind = nil
                if options.verbose { Diagnostics.lateError("not following logind: \(reason)") }
            }
        }
    }
}

extension Session: LockHost {
    func show(_ bytes: UnsafeRawBufferPointer) {
        guard !terminalIsGone else { return }
        do {
            try relay.sendToTerminal(bytes)
        } catch {
            terminalIsGone = true
            hangUp(.signal(SIGHUP))
        }
    }

    func forward(_ bytes: UnsafeRawBufferPointer) {
        relay.sendToCommand(bytes)
    }

    var isReadingOutput: Bool {
        get { relay.isReadingOutput }
        set { relay.isReadingOutput = newValue }
    }

    func discardTypedAhead() {
        relay.discardTypedAhead()
    }

    var windowSize: WindowSize {
        (try? WindowSize.of(terminal)) ?? WindowSize(rows: 24, columns: 80)
    }

    /// A same-size TIOCSWINSZ sends no SIGWINCH on Linux, so the size goes
    /// one row down and back, as dtach and abduco do.
    func nudgeRedraw() {
        guard let size = try? WindowSize.of(pseudoTerminal.master) else { return }
        var bumped = size
        bumped.rows = size.rows > 1 ? size.rows - 1 : size.rows + 1
        try? bumped.apply(to: pseudoTerminal.master)
        try? size.apply(to: pseudoTerminal.master)
    }

    func watch(_ descriptor: FileDescriptor?) {
        guard descriptor != authenticatorReadiness else { return }
        if let watched = authenticatorReadiness { relay.unwatch(watched) }
        authenticatorReadiness = descriptor
        if let descriptor { relay.watch(descriptor) }
    }

    func lockDidEngage() {
        // A command that reads nothing must not keep the password from being
        // read, and the password must not stay in the relay's buffer.
        relay.inputIsSecret = true
        log.record("session locked")
        hooks.locked()
        if options.killAfter > .zero { killAfterLockAt = MonotonicInstant.now() + options.killAfter }
    }

    func lockDidRelease() {
        relay.inputIsSecret = false
        killAfterLockAt = nil
        log.record("session unlocked")
        hooks.unlocked()
        finishIfOver()
    }

    func unlockDidFail(message: String, failures: Int) {
        log.record("unlock failed (\(failures) so far)", priority: LOG_WARNING)
    }

    func checkIsUnavailable(reason: String) {
        log.record("unlock check unavailable (\(reason))", priority: LOG_ERR)
    }
}

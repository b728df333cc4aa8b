import Glibc
import PTYKit

/// One wrapped command: its pseudo-terminal, the relay between it and the real terminal,
/// the lock in between, and what ends it (`SessionEnding`). Besides the terminal and the
/// command, the session waits for its sources (`SessionSource`): the lock's deadlines and
/// authenticator, the ending's deadlines, logind's bus and the control socket, which
/// `run` starts. The terminal is in raw mode only inside `run`, and left as it was found
/// on every way out. What the lock asks of the session is in SessionLockHost.swift.
final class Session: RelayDelegate {
    static let watchedSignals = [SIGCHLD, SIGWINCH, SIGHUP, SIGTERM, SIGINT, SIGQUIT, SIGUSR1, SIGCONT]

    let terminal = FileDescriptor.standardInput
    let options: Options
    private let plan: CommandPlan
    let environment: Environment
    let pseudoTerminalSession: PseudoTerminalSession
    var relay: Relay { pseudoTerminalSession.relay }
    let clock: TimeSource
    let log: AuditLog
    let hooks: Hooks
    /// Where the command's screen and the lock are shown.
    let display: SessionDisplay
    /// The command's screen: every byte of its output goes to it, and the lock observes it.
    let screen: CommandScreen
    /// Made on first use, the first time the relay calls: it and its source need the
    /// session itself (the lock's host, the source's check after its deadlines).
    private(set) lazy var lock: LockController = {
        let kind = LockScreenKind(term: environment["TERM"], wipeScrollback: options.wipeScrollback)
        return LockController(
            settings: LockController.Settings(
                timeout: options.timeout, lockKey: options.lockKey, message: options.message, screenKind: kind,
                program: plan.programName, host: UserIdentity.hostName, user: UserName.runningUser,
                // A terminal the lock cannot drive gets no countdown in its title either.
                warn: kind == .plain ? .zero : options.warn, bellOnExit: options.bellOnExit),
            authenticator: authenticator, clock: clock, host: self, screen: screen)
    }()
    private(set) lazy var lockSource = LockSource(lock) { [unowned self] in finishIfOver() }
    private let authenticator: Authenticator
    /// Where the terminal's cursor was at the start, while its answer is awaited or may
    /// still come (SessionStartPosition.swift).
    var startPosition: StartPositionQuery?
    var rawMode: RawMode?
    /// Which terminal the session is on, if any (`--detach`, `--attach`).
    var tenure: TerminalTenure
    /// The `idlewrap --attach` whose terminal the session is on, if it is on one such.
    var attachedClient: AttachedClient?
    /// Asked for every read of output. Unchecked, as the relay's properties are
    /// (Relay.swift says why): every access is in place, none is open across a call out.
    @exclusivity(unchecked) var ending: SessionEnding
    var terminalIsGone: Bool { display.isGone }
    let sources: SessionSources
    /// What `status` reports of the session.
    private let terminalPath: String
    /// What the guardian is told; its pid is idlewrap's for the command and --list.
    let guardian: GuardianLink
    /// The control socket, made before the guardian forked this process.
    private var controlRegistration: Result<ControlServer, ControlProblem>?
    /// Serving it, once registered.
    private(set) var controlSocket: ControlSocketSource?

    /// Starts `plan` on a new pseudo-terminal shaped like the real one. Errors here happen
    /// before the terminal leaves its normal mode.
    init(
        _ plan: CommandPlan, options: Options, environment: Environment, authenticator: Authenticator,
        hygiene: SecretHygiene, guardian: GuardianLink, control: Result<ControlServer, ControlProblem>,
        clock: TimeSource = MonotonicTimeSource()
    ) throws(PTYError) {
        pseudoTerminalSession = try PseudoTerminalSession.start(
            plan.arguments, executable: plan.executable,
            environment: { replicaPath in
                environment.setting("IDLEWRAP_PID", to: String(guardian.sessionPid))
                    .setting("IDLEWRAP_TTY", to: replicaPath)
                    .entries
            },
            signals: Self.watchedSignals,
            spawning: { spawn throws(PTYError) in try hygiene.spawningOrdinaryProcess(spawn) })
        guardian.commandStarted(pseudoTerminalSession.relay.command.pid)
        self.guardian = guardian
        controlRegistration = control
        self.options = options
        self.plan = plan
        self.environment = environment
        self.clock = clock
        self.authenticator = authenticator
        ending = SessionEnding(killAfter: options.killAfter, detachedKillAfter: options.detachedKillAfter)
        tenure = TerminalTenure(policy: options.detach, owner: getuid())
        let user = UserName.runningUser
        terminalPath = terminal.terminalPath() ?? "?"
        log = AuditLog(
            user: user, terminal: terminalPath, command: plan.programName,
            sshConnection: environment["SSH_CONNECTION"])
        hooks = Hooks(
            onLock: options.onLock, onUnlock: options.onUnlock, environment: environment, log: log, hygiene: hygiene)
        let display = SessionDisplay(pseudoTerminalSession.relay)
        self.display = display
        screen = CommandScreen(size: display.windowSize, holdLimit: options.holdLimit) { display.write($0) }
        sources = SessionSources(polledBy: pseudoTerminalSession.relay)
    }

    /// Relays until the command is over and returns idlewrap's exit status.
    func run() -> Int32 {
        startSources()
        // On every way out of run: the control socket unregisters, the bus closes.
        defer { sources.removeAll() }
        do {
            rawMode = try RawMode(terminal)
        } catch {
            hangUp(.signal(SIGHUP))
            Diagnostics.error("cannot put the terminal in raw mode: \(error)")
            return ExitStatus.failure
        }
        defer { leaveTerminal() }
        askStartPosition()
        do {
            try relay.run(delegate: self)
        } catch {
            lock.abandon()
            hangUp(.signal(SIGHUP))
            leaveTerminal()
            Diagnostics.lateError(error.description)
            attachedClient?.end(with: .exit(ExitStatus.failure))
            return ExitStatus.failure
        }
        leaveTerminal()
        if !options.quiet {
            for failure in hooks.failures { Diagnostics.error(failure) }
        }
        let (status, message) = ending.exitStatus(command: relay.commandStatus)
        if let message { Diagnostics.error(message) }
        // Last: the client exits at once, and its shell must find the terminal restored.
        attachedClient?.end(with: .exit(status))
        return status
    }

    /// Turns off what the command left on and restores the settings, once. A signal or a
    /// hung-up terminal asks idlewrap to go: it does not wait for output to drain then.
    private func leaveTerminal() {
        guard let rawMode else { return }
        self.rawMode = nil
        // Not through `show`: a failure here must not turn the command's exit into a
        // hang-up.
        if !terminalIsGone {
            let restore = OutputBuffer(capacity: 256)
            lock.appendRestoreAtExit(to: restore)
            _ = restore.withUnsafeBytes { bytes in Result { () throws(PTYError) in try relay.sendToTerminal(bytes) } }
        }
        // Still raw: the answer must not echo.
        takeStartPositionAtExit()
        rawMode.restore(draining: !(terminalIsGone || ending.isSignalled))
    }

    // MARK: - Sources

    /// The ending's and the lock's deadlines (the ending first: when --kill-after ends
    /// the session, the lock it abandons has nothing left to do), then what listens outside: logind,
    /// whose Lock locks as SIGUSR1 does, and the control socket. Connecting and binding
    /// say why they could not on stderr, so this comes before raw mode.
    private func startSources() {
        sources.add(
            DeadlineSource(
                due: { [unowned self] in ending.deadline }, passed: { [unowned self] in endingDeadlinePassed(at: $0) }))
        sources.add(lockSource)
        sources.add(
            DeadlineSource(
                due: { [unowned self] in startPosition?.deadline },
                passed: { [unowned self] in startPositionDeadlinePassed(at: $0) }))
        if let logind = LogindSource.connect(
            environment: environment, pid: guardian.sessionPid, verbose: options.verbose,
            lock: { [unowned self] in requestLock() })
        {
            sources.add(logind)
        }
        if let registration = controlRegistration.take(),
            let control = ControlSocketSource.serve(
                registration, log: log, answer: { [unowned self] in answer($0) },
                adopt: { [unowned self] in sources.add($0) })
        {
            sources.add(control)
            controlSocket = control
        }
    }

    private func endingDeadlinePassed(at now: MonotonicInstant) {
        carryOut(ending.deadlinePassed(at: now))
    }

    // MARK: - Ending

    func finishIfOver() {
        carryOut(
            ending.check(
                SessionEnding.Progress(
                    isSSHCommand: plan.isSSHCommand, isLockingOrLocked: lock.isLockingOrLocked,
                    commandHasExited: relay.commandStatus != nil, outputEnded: relay.outputEnded,
                    heldBytes: screen.hiddenByteCount)))
    }

    private func carryOut(_ step: SessionEnding.Step) {
        switch step {
        case .nothing: break
        case .hangUp(let reason): hangUp(reason)
        case .kill: pseudoTerminalSession.signalCommand(SIGKILL)
        case .stop: relay.stop()
        }
    }

    func hangUp(_ reason: SessionEnding.Reason) {
        guard ending.hangUp(reason, at: clock.now()) else { return }
        switch reason {
        case .lockedTooLong:
            log.record("session ended: locked for longer than --kill-after")
        case .detachedTooLong:
            log.record("session ended: detached for longer than --detached-kill-after")
        case .sshCommandEndedWhileLocked(let discarded):
            log.record(
                "session ended: the ssh command ended while locked" + (discarded ? "; held output discarded" : ""))
        case .signal:
            break
        }
        lock.abandon()
        relay.readsInputAhead = false
        relay.clearsInputAfterUse = false
        pseudoTerminalSession.signalCommand(SIGHUP)
        // A stopped job must run again to act on its SIGHUP.
        pseudoTerminalSession.signalCommand(SIGCONT)
        finishIfOver()
    }

    /// As SIGUSR1: a request from outside can only lock, never unlock.
    private func requestLock() {
        if ending.isRunning { lock.requestLock() }
    }

    private func answer(_ call: ControlCall) -> ControlAnswer {
        switch call.request {
        case .status:
            call.closeDescriptors()
            let now = clock.now()
            return .reply(
                SessionStatus(
                    pid: guardian.sessionPid, terminal: terminalPath, user: UserName.runningUser.value,
                    command: plan.programName,
                    idleSeconds: lock.lastActivity.map { (now - $0).wholeSeconds } ?? 0,
                    locked: lock.isLockingOrLocked,
                    locksInSeconds: lock.idleLockDeadline.map { ($0 - now).secondsRoundedUp },
                    detachedSince: tenure.detachedSince
                ).reply)
        case .lock:
            call.closeDescriptors()
            guard ending.isRunning else { return .reply(ControlRequest.endingReply) }
            lock.requestLock()
            return .reply(lock.isLockingOrLocked ? ControlRequest.lockedReply : ControlRequest.endingReply)
        case .attach, .take:
            return answerAttach(call)
        }
    }

    // MARK: - RelayDelegate

    func relay(_ relay: Relay, didReadInput input: UnsafeRawBufferPointer) {
        guard ending.isRunning else { return }
        if startPosition != nil {
            takeStartPosition(from: input)
        } else {
            lock.handleInput(input)
        }
    }

    func relay(_ relay: Relay, didReadOutput output: UnsafeRawBufferPointer) {
        guard ending.isRunning else { return }
        if startPosition != nil { noteOutputBeforeStartPosition() }
        screen.follow(output)
    }

    func relay(_ relay: Relay, didReceiveSignal signal: Int32) {
        switch signal {
        case SIGHUP where tenure.policy == .hangup:
            // The terminal went away (or the guardian did, which stood for it): the
            // round's end detaches, once; a session on no terminal or on another
            // ignores the hang-up.
            if tenure.hangUpIsTheTerminals { display.markGone() }
        case SIGHUP, SIGTERM, SIGINT, SIGQUIT:
            hangUp(.signal(signal))
        case SIGUSR1:
            requestLock()
        case SIGWINCH where !display.isGone:
            // The relay has given the command the terminal's size. Without a terminal
            // there is no size to take (one passed on by the guardian is no resize).
            screen.resize(display.windowSize)
            lock.handleResize()
        case SIGCHLD:
            hooks.reap()
        case SIGCONT:
            // idlewrap was stopped, and whoever stopped it (a shell) may have put the
            // terminal back in cooked mode: the lock screen would echo the password and
            // ^C would end idlewrap.
            do {
                try rawMode?.reapply()
            } catch {
                display.markGone()
            }
            lock.handleResize()
        default:
            break
        }
    }

    func relay(_ relay: Relay, commandDidExit status: TerminationStatus) {
        guardian.commandReaped()
        lock.commandDidExit()
        finishIfOver()
    }

    func relayOutputDidEnd(_ relay: Relay) {
        finishIfOver()
    }

    func relayInputDidEnd(_ relay: Relay) {
        display.markGone()
    }

    func relayDeadlineDidPass(_ relay: Relay) {
        sources.deadlinePassed(at: clock.now())
    }

    func relay(_ relay: Relay, descriptorIsReadable descriptor: FileDescriptor) {
        _ = sources.ready(descriptor, at: clock.now())
    }

    /// The round's events are over: a terminal that went away hangs the session up, or
    /// detaches it (`--detach`), and the relay waits for what the sources want now.
    func relayWillPoll(_ relay: Relay) {
        if display.isGone { terminalWentAway() }
        sources.update()
    }
}

import Glibc
import PTYKit

/// One wrapped command: its pseudo-terminal, the relay between it and the
/// real terminal, and what ends it. The terminal is in raw mode only inside
/// `run`, and left as it was found on every way out.
final class Session: RelayDelegate {
    static let watchedSignals = [SIGCHLD, SIGWINCH, SIGHUP, SIGTERM, SIGINT, SIGQUIT, SIGUSR1]
    /// How long a hung-up command may linger before SIGKILL.
    static let hangupGrace: Int64 = 10_000_000_000

    private enum Ending {
        case running
        /// The session is being torn down because of `signal` (the terminal
        /// hung up, or idlewrap was told to end); SIGKILL follows at the deadline.
        case hangingUp(signal: Int32, killed: Bool)
    }

    private let terminal = FileDescriptor.standardInput
    private let screen = FileDescriptor.standardOutput
    private let pseudoTerminal: PseudoTerminal
    private let signals: SignalSource
    private let command: ChildProcess
    private let relay: Relay
    private var ending = Ending.running
    private var terminalIsGone = false

    private init(pseudoTerminal: PseudoTerminal, signals: SignalSource, command: ChildProcess) {
        self.pseudoTerminal = pseudoTerminal
        self.signals = signals
        self.command = command
        relay = Relay(
            terminalInput: terminal, terminalOutput: screen, master: pseudoTerminal.master,
            signals: signals, command: command)
    }

    /// Starts `plan` on a new pseudo-terminal shaped like the real one. Errors
    /// here happen before the terminal leaves its normal mode.
    static func start(_ plan: CommandPlan, environment: Environment) throws(PTYError) -> Session {
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
        let commandEnvironment = environment
            .setting("IDLEWRAP_PID", to: String(getpid()))
            .setting("IDLEWRAP_TTY", to: pseudoTerminal.replicaPath)
        let command = try ChildProcess.spawn(
            plan.arguments, executable: plan.executable,
            environment: commandEnvironment.entries, terminalPath: pseudoTerminal.replicaPath)
        return Session(pseudoTerminal: pseudoTerminal, signals: signals, command: command)
    }

    /// Relays until the command is over and returns idlewrap's exit status.
    func run() -> Int32 {
        let rawMode: RawMode
        do {
            rawMode = try RawMode(terminal)
        } catch {
            hangUp(because: SIGHUP)
            Diagnostics.error("cannot put the terminal in raw mode: \(error)")
            return ExitStatus.failure
        }
        defer { rawMode.restore() }
        do {
            try relay.run(delegate: self)
        } catch {
            hangUp(because: SIGHUP)
            rawMode.restore()
            Diagnostics.lateError(error.description)
            return ExitStatus.failure
        }
        if case .hangingUp(let signal, _) = ending {
            return ExitStatus.killed(by: signal)
        }
        return relay.commandStatus?.shellStatus ?? ExitStatus.failure
    }

    // MARK: - Ending

    private func hangUp(because signal: Int32) {
        guard case .running = ending else { return }
        ending = .hangingUp(signal: signal, killed: false)
        signalSession(SIGHUP)
        // A stopped job must run again to act on its SIGHUP.
        signalSession(SIGCONT)
        if relay.commandStatus != nil {
            relay.stop()
        } else {
            relay.deadline = MonotonicInstant.now() + Session.hangupGrace
        }
    }

    private func signalSession(_ signal: Int32) {
        command.sendToSession(signal, foregroundGroup: try? pseudoTerminal.master.foregroundProcessGroup())
    }

    private func finishIfOver() {
        switch ending {
        case .running:
            if relay.commandStatus != nil && relay.outputEnded { relay.stop() }
        case .hangingUp:
            if relay.commandStatus != nil { relay.stop() }
        }
    }

    private func show(_ output: UnsafeRawBufferPointer) {
        guard !terminalIsGone else { return }
        do {
            try relay.sendToTerminal(output)
        } catch {
            terminalIsGone = true
            hangUp(because: SIGHUP)
        }
    }

    // MARK: - RelayDelegate

    func relay(_ relay: Relay, didReadInput input: UnsafeRawBufferPointer) {
        guard case .running = ending else { return }
        relay.sendToCommand(input)
    }

    func relay(_ relay: Relay, didReadOutput output: UnsafeRawBufferPointer) {
        show(output)
    }

    func relay(_ relay: Relay, didReceiveSignal signal: Int32) {
        switch signal {
        case SIGHUP, SIGTERM, SIGINT, SIGQUIT:
            hangUp(because: signal)
        default:
            break
        }
    }

    func relay(_ relay: Relay, commandDidExit status: TerminationStatus) {
        finishIfOver()
    }

    func relayOutputDidEnd(_ relay: Relay) {
        finishIfOver()
    }

    func relayInputDidEnd(_ relay: Relay) {
        terminalIsGone = true
        hangUp(because: SIGHUP)
    }

    func relayDeadlineDidPass(_ relay: Relay) {
        guard case .hangingUp(let signal, let killed) = ending else { return }
        if killed {
            // Even SIGKILL did not end it (a process stuck in the kernel):
            // idlewrap leaves rather than hang with it.
            relay.stop()
            return
        }
        ending = .hangingUp(signal: signal, killed: true)
        signalSession(SIGKILL)
        relay.deadline = MonotonicInstant.now() + 1_000_000_000
    }

    func relayAuxiliaryIsReadable(_ relay: Relay) {}
}

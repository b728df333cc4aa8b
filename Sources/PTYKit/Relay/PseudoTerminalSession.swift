import Glibc

/// A command running in a new pseudo-terminal, and the relay between it and a terminal:
/// what `start` sets up in one call, in the order util-linux's pty-session
/// (`include/pty-session.h`, as script(1) and su(1) use it) documents for its own:
///
/// 1. `ul_pty_setup`: the pseudo-terminal, with the terminal's settings and window size;
/// 2. `ul_pty_signals_setup`: the relayed signals blocked and read from a signalfd, before
///    the command exists, so that not even a command that ends at once is missed;
/// 3. fork and `ul_pty_init_slave`: the command spawned as the leader of a new session
///    whose controlling terminal is the replica (fds 0-2), its signals at their defaults
///    and none blocked;
/// 4. `ul_pty_set_child`: the relay over the master and the command, ready for
///    `relay.run` (`ul_pty_proxy_master`, the poll loop).
///
/// util-linux also puts the terminal in raw mode in its first step; here that is the
/// caller's (`RawMode`), once `start` has succeeded, so that its errors are still printed
/// on a terminal in its normal mode. Restoring the terminal (`ul_pty_cleanup`) is
/// `RawMode.restore`, and the pseudo-terminal closes when the session goes.
public final class PseudoTerminalSession {
    public let pseudoTerminal: PseudoTerminal
    public let relay: Relay

    /// The settings the replica starts with.
    public enum ReplicaSettings: Sendable {
        /// The terminal's own (`terminalInput`'s termios and window size), as a shell
        /// run in it would have them.
        case likeTerminal
        /// The pseudo-terminal's defaults made raw, no window size: for a "terminal"
        /// that is not one (a pipe).
        case raw
    }

    private init(pseudoTerminal: PseudoTerminal, relay: Relay) {
        self.pseudoTerminal = pseudoTerminal
        self.relay = relay
    }

    /// Starts `arguments` (argv[0] searched in PATH unless it holds a slash; `executable`
    /// runs instead while argv[0] stays, as for a login shell's "-bash") with the
    /// environment `environment` gives for the replica's path, relayed between
    /// `terminalInput`, `terminalOutput` and the new pseudo-terminal. `signals` are the
    /// ones the relay turns into delegate calls. `spawning` runs the spawn itself, for a
    /// caller that changes something of its own process around it (a resource limit the
    /// command inherits).
    public static func start(
        _ arguments: [String],
        executable: String? = nil,
        environment: (_ replicaPath: String) -> [String],
        terminalInput: FileDescriptor = .standardInput,
        terminalOutput: FileDescriptor = .standardOutput,
        replica: ReplicaSettings = .likeTerminal,
        signals: [Int32],
        quietSpell: Duration = .milliseconds(200),
        spawning: (() throws(PTYError) -> ChildProcess) throws(PTYError) -> ChildProcess = { spawn throws(PTYError) in
            try spawn()
        }
    ) throws(PTYError) -> PseudoTerminalSession {
        // 1. The pseudo-terminal, shaped like the terminal.
        let pseudoTerminal = try PseudoTerminal()
        switch replica {
        case .likeTerminal:
            let attributes: TerminalAttributes
            do {
                attributes = try TerminalAttributes.of(terminalInput)
            } catch {
                throw PTYError(.configureTerminal, error, context: "tcgetattr")
            }
            try pseudoTerminal.configure(attributes: attributes, size: try? WindowSize.of(terminalInput))
        case .raw:
            do {
                try TerminalAttributes.of(pseudoTerminal.master).madeRaw.apply(to: pseudoTerminal.master)
            } catch {
                throw PTYError(.configureTerminal, error, context: "tcsetattr")
            }
        }
        do {
            try pseudoTerminal.master.setNonblocking(true)
        } catch {
            throw PTYError(.openPseudoTerminal, error, context: "fcntl")
        }
        // 2. The signals, blocked before the spawn.
        let signalSource = try SignalSource(signals)
        // 3. The command, leading a session on the replica.
        let replicaPath = pseudoTerminal.replicaPath
        let environment = environment(replicaPath)
        let command = try spawning { () throws(PTYError) in
            try ChildProcess.spawn(
                arguments, executable: executable, environment: environment, terminalPath: replicaPath)
        }
        // 4. The relay.
        let relay = Relay(
            terminalInput: terminalInput, terminalOutput: terminalOutput, master: pseudoTerminal.master,
            signals: signalSource, command: command, quietSpell: quietSpell)
        return PseudoTerminalSession(pseudoTerminal: pseudoTerminal, relay: relay)
    }

    /// Sends `signal` to every process group of the command's session that can be named:
    /// the leader's own group and the pseudo-terminal's foreground group.
    public func signalCommand(_ signal: Int32) {
        relay.command.sendToSession(signal, foregroundGroup: try? pseudoTerminal.master.foregroundProcessGroup())
    }
}

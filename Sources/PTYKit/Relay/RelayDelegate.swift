/// What a `Relay` reports; the delegate decides what it means (PTYKit makes no
/// policy). Every call happens on the relay's thread, inside `Relay.run`. Each
/// has a default (below) that makes a plain relay: typed bytes go to the
/// command, its output to the terminal, and the relay stops once the output
/// is over; a delegate implements only what it does differently.
public protocol RelayDelegate: AnyObject {
    /// Bytes typed on the terminal. Forward them with `relay.sendToCommand`,
    /// or not.
    func relay(_ relay: Relay, didReadInput input: UnsafeRawBufferPointer)

    /// Bytes the command wrote. Show them with `relay.sendToTerminal`, or
    /// hold them.
    func relay(_ relay: Relay, didReadOutput output: UnsafeRawBufferPointer)

    /// A watched signal arrived. SIGCHLD has already reaped the command if it
    /// was the one that ended; SIGWINCH has already copied the size to the command.
    func relay(_ relay: Relay, didReceiveSignal signal: Int32)

    func relay(_ relay: Relay, commandDidExit status: TerminationStatus)

    /// The command's output is over: end of file on the pseudo-terminal, or
    /// after the command exited, a quiet spell with no output (a background
    /// job may keep the pseudo-terminal open forever).
    func relayOutputDidEnd(_ relay: Relay)

    /// The terminal's input is over: it hung up.
    func relayInputDidEnd(_ relay: Relay)

    /// `relay.deadline` has passed; it is cleared before this call.
    func relayDeadlineDidPass(_ relay: Relay)

    /// A descriptor given to `relay.watch` is readable, or writable if
    /// watched for that (or hung up, or failed: a read will say which).
    func relay(_ relay: Relay, descriptorIsReadable descriptor: FileDescriptor)

    /// A round is about to poll: the one place to bring what the round's events changed
    /// into what the relay waits for (`watch`, `deadline`), as tmux's `proc_loop` callback.
    /// Called before the first round too; `relay.stop()` here ends the run before polling.
    func relayWillPoll(_ relay: Relay)
}

extension RelayDelegate {
    public func relay(_ relay: Relay, didReadInput input: UnsafeRawBufferPointer) {
        relay.sendToCommand(input)
    }

    /// A terminal that no longer takes output is not the relay's to judge.
    public func relay(_ relay: Relay, didReadOutput output: UnsafeRawBufferPointer) {
        try? relay.sendToTerminal(output)
    }

    public func relay(_ relay: Relay, didReceiveSignal signal: Int32) {}

    public func relay(_ relay: Relay, commandDidExit status: TerminationStatus) {}

    public func relayOutputDidEnd(_ relay: Relay) {
        relay.stop()
    }

    public func relayInputDidEnd(_ relay: Relay) {}

    public func relayDeadlineDidPass(_ relay: Relay) {}

    public func relay(_ relay: Relay, descriptorIsReadable descriptor: FileDescriptor) {}

    public func relayWillPoll(_ relay: Relay) {}
}

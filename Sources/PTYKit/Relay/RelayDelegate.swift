/// What a `Relay` reports; the delegate decides what it means (PTYKit makes no
/// policy). Every call happens on the relay's thread, inside `Relay.run`.
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
}

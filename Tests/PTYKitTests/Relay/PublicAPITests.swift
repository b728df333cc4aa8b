import Glibc
import PTYKit
import Testing

/// PTYKit on its own, through its public API only (no @testable import): what
/// a program other than idlewrap would write to run a command in a pty.
@Suite(.serialized) struct PublicAPITests {
    /// Forwards both ways and stops once the command's output is over; an
    /// event counter, when watched, asks the command to end.
    ///
    /// It does not wait for `commandDidExit`: the test runner's other threads
    /// do not block SIGCHLD, so the signal may be discarded on one of them
    /// before the relay's signalfd sees it (a program using PTYKit blocks the
    /// relayed signals before it starts threads). The test reaps the command
    /// when the relay could not.
    final class Forwarder: RelayDelegate {
        let events: EventCounter?
        var outputEnded = false
        var wakeUps = 0

        init(events: EventCounter? = nil) {
            self.events = events
        }

        func relay(_ relay: Relay, didReadInput input: UnsafeRawBufferPointer) { relay.sendToCommand(input) }
        func relay(_ relay: Relay, didReadOutput output: UnsafeRawBufferPointer) { try? relay.sendToTerminal(output) }
        func relay(_ relay: Relay, didReceiveSignal signal: Int32) {}
        func relay(_ relay: Relay, commandDidExit status: TerminationStatus) {}
        func relayOutputDidEnd(_ relay: Relay) {
            outputEnded = true
            relay.stop()
        }
        func relayInputDidEnd(_ relay: Relay) {}
        func relayDeadlineDidPass(_ relay: Relay) { relay.stop() }
        func relay(_ relay: Relay, descriptorIsReadable descriptor: FileDescriptor) {
            guard let events, descriptor == events.descriptor else { return }
            wakeUps += 1
            events.reset()
            relay.command.send(SIGTERM)
        }
    }

    struct Pipe {
        let read: FileDescriptor
        let write: FileDescriptor

        init() throws {
            var fds: [Int32] = [0, 0]
            try #require(pipe(&fds) == 0, "pipe failed: \(errno)")
            read = FileDescriptor(rawValue: fds[0])
            write = FileDescriptor(rawValue: fds[1])
        }

        func close() {
            try? read.close()
            try? write.close()
        }
    }

    /// A relay between two pipes (the "terminal") and `arguments` on a raw pty.
    func makeRelay(_ arguments: [String], input: Pipe, output: Pipe) throws -> (Relay, PseudoTerminal) {
        let terminal = try PseudoTerminal()
        try terminal.master.setNonblocking(true)
        try terminal.configure(attributes: TerminalAttributes.of(terminal.master).madeRaw, size: nil)
        let signals = try SignalSource([SIGCHLD, SIGWINCH])
        let command = try ChildProcess.spawn(
            arguments, environment: ["PATH=/usr/bin:/bin"], terminalPath: terminal.replicaPath)
        let relay = Relay(
            terminalInput: input.read, terminalOutput: output.write, master: terminal.master,
            signals: signals, command: command)
        return (relay, terminal)
    }

    @Test func runsACommandInAPseudoTerminal() throws {
        let input = try Pipe()
        let output = try Pipe()
        defer {
            input.close()
            output.close()
        }
        let (relay, terminal) = try makeRelay(["head", "-c", "4"], input: input, output: output)
        defer { terminal.close() }
        try input.write.writeAll("ping")
        relay.deadline = MonotonicInstant.now() + .seconds(20)
        let delegate = Forwarder()
        try relay.run(delegate: delegate)
        #expect(delegate.outputEnded)
        #expect(terminationStatus(of: relay) == .exited(0))
        var received = [UInt8](repeating: 0, count: 16)
        let count = try received.withUnsafeMutableBytes { try output.read.read(into: $0) }
        #expect(String(decoding: received[..<count], as: UTF8.self) == "ping")
    }

    @Test func anotherThreadWakesTheRelayThroughAWatchedEventCounter() throws {
        let input = try Pipe()
        let output = try Pipe()
        defer {
            input.close()
            output.close()
        }
        let (relay, terminal) = try makeRelay(["sleep", "30"], input: input, output: output)
        defer { terminal.close() }
        let events = try EventCounter()
        relay.watch(events.descriptor)
        relay.deadline = MonotonicInstant.now() + .seconds(20)
        let delegate = Forwarder(events: events)
        let signaller = Thread { events.signal() }
        try relay.run(delegate: delegate)
        signaller.join()
        #expect(delegate.wakeUps == 1)
        #expect(delegate.outputEnded)
        #expect(terminationStatus(of: relay) == .signaled(SIGTERM))
    }

    /// How the command ended: as the relay saw it, or else as waitpid says.
    func terminationStatus(of relay: Relay) -> TerminationStatus? {
        if let status = relay.commandStatus { return status }
        var status: Int32 = 0
        while waitpid(relay.command.pid, &status, 0) == -1 {
            guard errno == EINTR else { return nil }
        }
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }
}

import Glibc
import Testing

@testable import PTYKit

/// Forwards everything, records the output, and stops when the command is over.
final class RecordingDelegate: RelayDelegate {
    var stopsOnOutput = false
    var output: [UInt8] = []
    var exitStatus: TerminationStatus?
    var outputEnded = false
    var deadlines = 0

    func relay(_ relay: Relay, didReadInput input: UnsafeRawBufferPointer) { relay.sendToCommand(input) }
    func relay(_ relay: Relay, didReadOutput output: UnsafeRawBufferPointer) {
        self.output += output
        if stopsOnOutput { relay.stop() }
    }
    func relay(_ relay: Relay, didReceiveSignal signal: Int32) {}
    func relay(_ relay: Relay, commandDidExit status: TerminationStatus) {
        exitStatus = status
        if outputEnded { relay.stop() }
    }
    func relayOutputDidEnd(_ relay: Relay) {
        outputEnded = true
        if exitStatus != nil { relay.stop() }
    }
    func relayInputDidEnd(_ relay: Relay) {}
    func relayDeadlineDidPass(_ relay: Relay) {
        deadlines += 1
        relay.stop()
    }
    var readable: [FileDescriptor] = []
    /// Unwatches a descriptor the first time it is reported (all of them
    /// with `unwatchesAllOnReport`): the relay does not read it, so it would
    /// be reported every round.
    var unwatchesOnReport = false
    var unwatchesAllOnReport = false
    func relay(_ relay: Relay, descriptorIsReadable descriptor: FileDescriptor) {
        readable.append(descriptor)
        if unwatchesOnReport { relay.unwatch(descriptor) }
        if unwatchesAllOnReport { relay.watched.forEach(relay.unwatch) }
    }
}

@Suite(.serialized) struct RelayTests {
    /// A relay whose "terminal" is a pipe the test writes into.
    func makeRelay(_ arguments: [String], signals watched: [Int32] = [SIGCHLD, SIGWINCH]) throws -> (
        Relay, input: FileDescriptor, PseudoTerminal
    ) {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0, "pipe failed: \(errno)")
        let terminal = try PseudoTerminal()
        let signals = try SignalSource(watched)
        try terminal.master.setNonblocking(true)
        try TerminalAttributes.of(terminal.master).madeRaw.apply(to: terminal.master)
        let child = try ChildProcess.spawn(
            arguments, environment: ["PATH=/usr/bin:/bin"], terminalPath: terminal.replicaPath)
        let output = try FileDescriptor.open("/dev/null", O_WRONLY)
        let relay = Relay(
            terminalInput: FileDescriptor(rawValue: fds[0]), terminalOutput: output,
            master: terminal.master, signals: signals, command: child)
        return (relay, FileDescriptor(rawValue: fds[1]), terminal)
    }

    @Test func relaysInputToCatAndOutputBack() throws {
        let (relay, input, terminal) = try makeRelay(["head", "-c", "11"])
        try input.writeAll("hello relay")
        let delegate = RecordingDelegate()
        try relay.run(delegate: delegate)
        #expect(String(decoding: delegate.output, as: UTF8.self) == "hello relay")
        #expect(delegate.exitStatus == .exited(0))
        terminal.close()
    }

    @Test func commandExitIsSeenWithoutSIGCHLD() throws {
        // Another thread may take SIGCHLD before the signalfd does (in this
        // very runner libdispatch's main thread waits for every signal); the
        // relay must see the command end all the same.
        let (relay, input, terminal) = try makeRelay(["head", "-c", "5"], signals: [SIGWINCH])
        try input.writeAll("hello")
        relay.deadline = MonotonicInstant.now() + .seconds(30)
        let delegate = RecordingDelegate()
        try relay.run(delegate: delegate)
        #expect(delegate.deadlines == 0)
        #expect(delegate.exitStatus == .exited(0))
        #expect(String(decoding: delegate.output, as: UTF8.self) == "hello")
        terminal.close()
    }

    @Test func deadlineWakesTheLoopWithoutActivity() throws {
        let (relay, _, terminal) = try makeRelay(["sleep", "30"])
        relay.deadline = MonotonicInstant.now() + .milliseconds(50)
        let delegate = RecordingDelegate()
        try relay.run(delegate: delegate)
        #expect(delegate.deadlines == 1)
        #expect(relay.deadline == nil)
        relay.command.send(SIGKILL)
        var status: Int32 = 0
        waitpid(relay.command.pid, &status, 0)
        terminal.close()
    }

    @Test func theDelegateHearsOfEveryRoundBeforeItsPoll() throws {
        // A deadline set in the hook is the one the round sleeps until: the hook comes
        // before every poll, the first too, or a poll would sleep with no deadline until
        // the command ends 30 s later. Rounds are not counted exactly: a signal meant for
        // another test's child wakes a round of its own, which must set its deadline too.
        let (relay, _, terminal) = try makeRelay(["sleep", "30"])
        final class Rounds: RelayDelegate {
            var rounds = 0
            var deadlines = 0
            func relayWillPoll(_ relay: Relay) {
                rounds += 1
                relay.deadline = MonotonicInstant.now() + .milliseconds(10)
            }
            func relayDeadlineDidPass(_ relay: Relay) {
                deadlines += 1
                if deadlines == 3 { relay.stop() }
            }
        }
        let delegate = Rounds()
        let started = MonotonicInstant.now()
        try relay.run(delegate: delegate)
        #expect(delegate.deadlines == 3)
        #expect(delegate.rounds >= 3)
        #expect(MonotonicInstant.now() - started < .seconds(10))
        relay.command.send(SIGKILL)
        var status: Int32 = 0
        waitpid(relay.command.pid, &status, 0)
        terminal.close()
    }

    @Test func heldOutputStaysInTheKernelUntilReadingResumes() throws {
        let (relay, _, terminal) = try makeRelay(["sh", "-c", "echo early; exec sleep 30"])
        relay.isReadingOutput = false
        relay.deadline = MonotonicInstant.now() + .milliseconds(300)
        let delegate = RecordingDelegate()
        try relay.run(delegate: delegate)
        #expect(delegate.output.isEmpty)
        relay.isReadingOutput = true
        relay.deadline = MonotonicInstant.now() + .seconds(5)
        let reader = RecordingDelegate()
        reader.stopsOnOutput = true
        try relay.run(delegate: reader)
        #expect(String(decoding: reader.output, as: UTF8.self).hasPrefix("early"))
        relay.command.send(SIGKILL)
        var status: Int32 = 0
        waitpid(relay.command.pid, &status, 0)
        terminal.close()
    }

    /// Pipes as extra descriptors: (read end, write end).
    func makePipes(_ count: Int) throws -> [(read: FileDescriptor, write: FileDescriptor)] {
        try (0..<count).map { _ in
            var fds: [Int32] = [0, 0]
            try #require(pipe(&fds) == 0, "pipe failed: \(errno)")
            return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
        }
    }

    func finish(_ relay: Relay, _ terminal: PseudoTerminal, _ pipes: [(read: FileDescriptor, write: FileDescriptor)]) {
        relay.command.send(SIGKILL)
        var status: Int32 = 0
        waitpid(relay.command.pid, &status, 0)
        terminal.close()
        for (read, write) in pipes {
            try? read.close()
            try? write.close()
        }
    }

    /// More descriptors than the relay first makes room for: only the ready
    /// ones are reported, each under its own descriptor.
    @Test func reportsEachReadableWatchedDescriptor() throws {
        let (relay, _, terminal) = try makeRelay(["sleep", "30"])
        let pipes = try makePipes(7)
        for pipe in pipes { relay.watch(pipe.read) }
        relay.watch(pipes[0].read)
        #expect(relay.watched == pipes.map(\.read))
        try pipes[1].write.writeAll("x")
        try pipes[6].write.writeAll("x")
        relay.deadline = MonotonicInstant.now() + .milliseconds(300)
        let delegate = RecordingDelegate()
        delegate.unwatchesOnReport = true
        try relay.run(delegate: delegate)
        #expect(Set(delegate.readable) == [pipes[1].read, pipes[6].read])
        #expect(delegate.readable.count == 2)
        #expect(relay.watched == [0, 2, 3, 4, 5].map { pipes[$0].read })
        #expect(delegate.deadlines == 1)
        finish(relay, terminal, pipes)
    }

    /// A descriptor unwatched during a round is not reported, even when poll
    /// had already found it ready in that round.
    @Test func unwatchedDescriptorIsNotReportedAgain() throws {
        let (relay, _, terminal) = try makeRelay(["sleep", "30"])
        let pipes = try makePipes(2)
        for pipe in pipes {
            relay.watch(pipe.read)
            try pipe.write.writeAll("x")
        }
        relay.deadline = MonotonicInstant.now() + .milliseconds(300)
        let delegate = RecordingDelegate()
        delegate.unwatchesAllOnReport = true
        try relay.run(delegate: delegate)
        #expect(delegate.readable == [pipes[0].read])
        #expect(relay.watched.isEmpty)
        finish(relay, terminal, pipes)
    }

    /// Watching again changes only the events: a pipe's write end, which has
    /// room, is reported once POLLOUT is asked for, and not before.
    @Test func watchingAgainChangesTheEvents() throws {
        let (relay, _, terminal) = try makeRelay(["sleep", "30"])
        let pipes = try makePipes(1)
        relay.watch(pipes[0].write)
        relay.deadline = MonotonicInstant.now() + .milliseconds(200)
        let delegate = RecordingDelegate()
        delegate.unwatchesOnReport = true
        try relay.run(delegate: delegate)
        #expect(delegate.readable.isEmpty)
        relay.watch(pipes[0].write, events: Int16(POLLIN | POLLOUT))
        #expect(relay.watched == [pipes[0].write])
        relay.deadline = MonotonicInstant.now() + .milliseconds(200)
        try relay.run(delegate: delegate)
        #expect(delegate.readable == [pipes[0].write])
        #expect(delegate.deadlines == 2)
        finish(relay, terminal, pipes)
    }

    /// A signal that becomes pending after poll looked at the signalfd but
    /// before the typed bytes are read (as one sent just before them can,
    /// poll looking at one descriptor after another) reaches the delegate
    /// before those bytes: a lock request sent before the password must not
    /// lock again after it.
    @Test func signalPendingWhenInputIsReadReachesTheDelegateFirst() throws {
        let (relay, input, terminal) = try makeRelay(["sh", "-c", "echo out; exec sleep 30"])
        // Output and input both wait before the round starts, so one poll
        // reports them together and the signalfd as quiet.
        var ready = pollfd(fd: terminal.master.rawValue, events: Int16(POLLIN), revents: 0)
        try #require(poll(&ready, 1, 30_000) == 1)
        try input.writeAll("typed")
        relay.deadline = MonotonicInstant.now() + .seconds(30)
        let delegate = OrderDelegate()
        try relay.run(delegate: delegate)
        #expect(delegate.events.prefix(3) == ["output", "signal \(SIGWINCH)", "input"])
        #expect(delegate.deadlines == 0)
        finish(relay, terminal, [])
        try? input.close()
    }

    /// A background job keeps the pseudo-terminal open after the command exited: its
    /// output is over once it has been quiet for the spell the caller chose.
    @Test(arguments: [(Duration.milliseconds(50), true), (.seconds(60), false)])
    func theQuietSpellIsTheCallers(spell: Duration, ends: Bool) throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0, "pipe failed: \(errno)")
        let input = FileDescriptor(rawValue: fds[0])
        defer {
            try? input.close()
            try? FileDescriptor(rawValue: fds[1]).close()
        }
        let output = try FileDescriptor.open("/dev/null", O_WRONLY)
        defer { try? output.close() }
        let session = try PseudoTerminalSession.start(
            ["sh", "-c", "trap \"\" HUP; sleep 30 & echo started"], environment: { _ in ["PATH=/usr/bin:/bin"] },
            terminalInput: input, terminalOutput: output, replica: .raw, signals: [SIGCHLD], quietSpell: spell)
        defer { session.signalCommand(SIGKILL) }
        #expect(session.relay.quietSpell == spell)
        session.relay.deadline = MonotonicInstant.now() + .seconds(3)
        let delegate = RecordingDelegate()
        try session.relay.run(delegate: delegate)
        #expect(delegate.exitStatus == .exited(0))
        #expect(delegate.outputEnded == ends)
        #expect(delegate.deadlines == (ends ? 0 : 1))
    }
}

/// Records the order of events; raises SIGWINCH for the relay's own thread
/// on the first output (after this round's look at the signalfd) and stops
/// once input arrived.
final class OrderDelegate: RelayDelegate {
    var events: [String] = []
    var deadlines = 0

    func relay(_ relay: Relay, didReadInput input: UnsafeRawBufferPointer) {
        events.append("input")
        relay.stop()
    }
    func relay(_ relay: Relay, didReadOutput output: UnsafeRawBufferPointer) {
        if !events.contains("output") { pthread_kill(pthread_self(), SIGWINCH) }
        events.append("output")
    }
    func relay(_ relay: Relay, didReceiveSignal signal: Int32) { events.append("signal \(signal)") }
    func relay(_ relay: Relay, commandDidExit status: TerminationStatus) {}
    func relayOutputDidEnd(_ relay: Relay) {}
    func relayInputDidEnd(_ relay: Relay) {}
    func relayDeadlineDidPass(_ relay: Relay) {
        deadlines += 1
        relay.stop()
    }
    func relay(_ relay: Relay, descriptorIsReadable descriptor: FileDescriptor) {}
}

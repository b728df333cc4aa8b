import Glibc
import PTYKit
import Testing

/// PTYKit on its own, through its public API only (no @testable import): the whole of
/// what a program other than idlewrap writes to run a command in a pty. One call starts
/// it (`PseudoTerminalSession.start`); the relay's delegate says only what differs from
/// a plain relay; another thread can wake the relay through a watched `EventCounter`; a
/// delegate that hides the screen keeps it in a `ScreenModel` and tells replies from keys
/// with a `TerminalReplyScanner`.
///
/// Neither test waits for `commandDidExit`: the test runner's other threads do not block
/// SIGCHLD, so the signal may be discarded on one of them before the relay's signalfd
/// sees it (a program using PTYKit starts its session before it starts threads). The
/// test reaps the command when the relay could not.
@Suite(.serialized) struct PublicAPITests {
    /// The defaults forward typed bytes to the command and its output to the terminal,
    /// and stop once the output is over; this one also gives up at the deadline and,
    /// when its event counter is signalled, asks the command to end.
    final class Forwarder: RelayDelegate {
        let events: EventCounter?
        var wakeUps = 0

        init(events: EventCounter? = nil) {
            self.events = events
        }

        func relayDeadlineDidPass(_ relay: Relay) { relay.stop() }

        func relay(_ relay: Relay, descriptorIsReadable descriptor: FileDescriptor) {
            guard let events, descriptor == events.descriptor else { return }
            wakeUps += 1
            events.reset()
            relay.command.send(SIGTERM)
        }
    }

    /// The "terminal" of these tests: a pipe each way.
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

    func start(_ arguments: [String], input: Pipe, output: Pipe) throws -> PseudoTerminalSession {
        try PseudoTerminalSession.start(
            arguments, environment: { _ in ["PATH=/usr/bin:/bin"] }, terminalInput: input.read,
            terminalOutput: output.write, replica: .raw, signals: [SIGCHLD, SIGWINCH])
    }

    @Test func runsACommandInAPseudoTerminal() throws {
        let input = try Pipe()
        let output = try Pipe()
        defer {
            input.close()
            output.close()
        }
        let session = try start(["head", "-c", "4"], input: input, output: output)
        try input.write.writeAll("ping")
        session.relay.deadline = MonotonicInstant.now() + .seconds(20)
        try session.relay.run(delegate: Forwarder())
        #expect(session.relay.outputEnded)
        #expect(terminationStatus(of: session.relay) == .exited(0))
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
        let session = try start(["sleep", "30"], input: input, output: output)
        let events = try EventCounter()
        session.relay.watch(events.descriptor)
        session.relay.deadline = MonotonicInstant.now() + .seconds(20)
        let delegate = Forwarder(events: events)
        let signaller = Thread { events.signal() }
        try session.relay.run(delegate: delegate)
        signaller.join()
        #expect(delegate.wakeUps == 1)
        #expect(session.relay.outputEnded)
        #expect(terminationStatus(of: session.relay) == .signaled(SIGTERM))
    }

    /// What a delegate that hides the command's screen uses besides the relay: a
    /// `ScreenModel` fed the command's output repaints it into a terminal that shows
    /// something else meanwhile, and a `TerminalReplyScanner` tells the terminal's
    /// replies from typed keys, however the reads cut them.
    @Test func theScreenModelRepaintsAndTheReplyScannerTellsRepliesFromKeys() {
        let model = ScreenModel(rows: 4, columns: 20)
        Array("\u{1b}]0;a title\u{7}hello\r\nworld".utf8).withUnsafeBytes { model.feed($0) }
        #expect(model.text(row: 0) == "hello" + String(repeating: " ", count: 15))
        #expect(String(decoding: model.title, as: UTF8.self) == "a title")
        let repaint = OutputBuffer()
        model.appendRepaint(to: repaint)
        let terminal = ScreenModel(rows: 4, columns: 20)
        Array("something else\r\n".utf8).withUnsafeBytes { terminal.feed($0) }
        repaint.withUnsafeBytes { terminal.feed($0) }
        #expect((0..<4).map(terminal.text(row:)) == (0..<4).map(model.text(row:)))
        #expect(terminal.cursor.row == model.cursor.row && terminal.cursor.column == model.cursor.column)

        var scanner = TerminalReplyScanner()
        // A cursor position report in two reads: neither is a key.
        let report = Array("\u{1b}[12;40R".utf8)
        #expect(!report[..<4].withUnsafeBytes { scanner.holdsKeys($0) })
        #expect(scanner.isInsideReply)
        #expect(!report[4...].withUnsafeBytes { scanner.holdsKeys($0) })
        #expect(Array("x".utf8).withUnsafeBytes { scanner.holdsKeys($0) })
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

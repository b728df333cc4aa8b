import Glibc

/// The single-threaded loop that moves bytes between the real terminal and a
/// command's pseudo-terminal, turns signals into calls, and wakes for one
/// deadline. Shaped after util-linux's `ul_pty_proxy_master`: one `poll` over
/// named slots, POLLOUT asked for only while input waits for the command, and
/// no wake-up at all while nothing happens.
public final class Relay {
    public let terminalInput: FileDescriptor
    public let terminalOutput: FileDescriptor
    public let master: FileDescriptor
    public let signals: SignalSource
    public let command: ChildProcess

    /// When to call `relayDeadlineDidPass`; nil for never.
    public var deadline: MonotonicInstant?

    /// While false the command's output stays in the kernel, so a command
    /// that keeps writing blocks: nothing is read, nothing is dropped.
    public var isReadingOutput = true {
        didSet {
            if isReadingOutput && !oldValue && commandStatus != nil {
                quietUntil = MonotonicInstant.now() + Relay.quietSpell
            }
        }
    }

    /// While false typed bytes stay in the terminal.
    public var isReadingInput = true

    /// While true, what is typed is for the delegate alone (a lock screen
    /// reading a password): the terminal is read even while earlier bytes
    /// still wait for the command (normally it is not: backpressure), and the
    /// read buffer is zeroed after each use.
    public var inputIsSecret = false

    /// An extra descriptor to watch for reading (e.g. an authentication thread's).
    public var auxiliary: FileDescriptor?

    /// One more descriptor to watch, with the poll events it waits for (e.g.
    /// a bus connection's: POLLIN, and POLLOUT while it has something to write).
    public var extra: (descriptor: FileDescriptor, events: Int16)?

    public private(set) var commandStatus: TerminationStatus?
    public private(set) var outputEnded = false
    public private(set) var inputEnded = false

    /// How long output must stay quiet after the command exited before the
    /// relay calls it over.
    public static let quietSpell: Int64 = 200_000_000

    static let bufferSize = 64 * 1024

    private enum Slot: Int, CaseIterable {
        case signal, master, input, auxiliary, extra
    }

    private let slots: UnsafeMutablePointer<pollfd>
    private let outputBuffer: UnsafeMutableRawBufferPointer
    private let inputBuffer: UnsafeMutableRawBufferPointer
    /// Typed bytes the command has not taken yet; stdin is not read meanwhile.
    private var pendingInput: [UInt8] = []
    private var pendingStart = 0
    private var quietUntil: MonotonicInstant?
    private var isStopped = false

    /// The master must be non-blocking; the terminal descriptors may be either.
    public init(
        terminalInput: FileDescriptor,
        terminalOutput: FileDescriptor,
        master: FileDescriptor,
        signals: SignalSource,
        command: ChildProcess
    ) {
        self.terminalInput = terminalInput
        self.terminalOutput = terminalOutput
        self.master = master
        self.signals = signals
        self.command = command
        slots = .allocate(capacity: Slot.allCases.count)
        slots.initialize(repeating: pollfd(fd: -1, events: 0, revents: 0), count: Slot.allCases.count)
        outputBuffer = .allocate(byteCount: Relay.bufferSize, alignment: 16)
        inputBuffer = .allocate(byteCount: Relay.bufferSize, alignment: 16)
        pendingInput.reserveCapacity(Relay.bufferSize)
    }

    deinit {
        slots.deallocate()
        outputBuffer.deallocate()
        inputBuffer.deallocate()
    }

    /// Makes `run` return after the current round.
    public func stop() {
        isStopped = true
    }

    /// Queues bytes for the command, writing what it takes now. A command
    /// that is gone takes nothing: its input is dropped with it.
    public func sendToCommand(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        var rest = bytes
        if pendingStart == pendingInput.count {
            do {
                let written = try master.write(bytes)
                rest = UnsafeRawBufferPointer(rebasing: bytes[written...])
            } catch .wouldBlock {
            } catch {
                return
            }
        }
        pendingInput.append(contentsOf: rest)
    }

    /// Discards what was typed but not read yet. The terminal's input slot may
    /// already have reported it in this round, so that report is dropped too:
    /// a blocking read of the emptied terminal would stall the loop.
    public func discardTypedInput() {
        try? terminalInput.discardPendingInput()
        slots[Slot.input.rawValue].revents = 0
    }

    /// Writes bytes to the terminal, waiting for it if it is slow.
    public func sendToTerminal(_ bytes: UnsafeRawBufferPointer) throws(PTYError) {
        do {
            try terminalOutput.writeAll(bytes)
        } catch {
            throw PTYError(.relay, error, context: "write to the terminal")
        }
    }

    /// Runs until `stop()`.
    public func run(delegate: any RelayDelegate) throws(PTYError) {
        isStopped = false
        while !isStopped {
            arm()
            let ready: Int32
            do {
                ready = try valueOrErrno { poll(slots, nfds_t(Slot.allCases.count), pollTimeout()) }
            } catch {
                throw PTYError(.relay, error, context: "poll")
            }
            if ready > 0 {
                try handleSignals(delegate)
                try handleMaster(delegate)
                try handleInput(delegate)
                if revents(.auxiliary) != 0 { delegate.relayAuxiliaryIsReadable(self) }
                if revents(.extra) != 0 { delegate.relayExtraIsReady(self) }
            }
            checkDeadlines(delegate)
        }
    }

    private func arm() {
        set(.signal, signals.descriptor, Int16(POLLIN))
        var masterEvents: Int16 = 0
        if isReadingOutput && !outputEnded { masterEvents |= Int16(POLLIN) }
        if pendingStart < pendingInput.count { masterEvents |= Int16(POLLOUT) }
        set(.master, master, masterEvents)
        let wantsInput = isReadingInput && !inputEnded && (inputIsSecret || pendingStart == pendingInput.count)
        set(.input, terminalInput, wantsInput ? Int16(POLLIN) : 0)
        set(.auxiliary, auxiliary, auxiliary == nil ? 0 : Int16(POLLIN))
        set(.extra, extra?.descriptor, extra?.events ?? 0)
    }

    private func set(_ slot: Slot, _ descriptor: FileDescriptor?, _ events: Int16) {
        // poll skips negative descriptors, and a slot with no events must not
        // report POLLHUP over and over.
        slots[slot.rawValue] = pollfd(fd: events == 0 ? -1 : descriptor?.rawValue ?? -1, events: events, revents: 0)
    }

    private func revents(_ slot: Slot) -> Int16 {
        slots[slot.rawValue].revents
    }

    private var nextWake: MonotonicInstant? {
        let quiet = isReadingOutput && !outputEnded ? quietUntil : nil
        switch (deadline, quiet) {
        case let (a?, b?): return min(a, b)
        case let (a, b): return a ?? b
        }
    }

    /// Milliseconds to the next deadline, rounded up so the loop never wakes
    /// early and spins.
    private func pollTimeout() -> Int32 {
        guard let wake = nextWake else { return -1 }
        let left = wake - MonotonicInstant.now()
        if left <= 0 { return 0 }
        return Int32(clamping: (left + 999_999) / 1_000_000)
    }

    private func handleSignals(_ delegate: any RelayDelegate) throws(PTYError) {
        guard revents(.signal) != 0 else { return }
        while let signal = try signals.next() {
            switch signal {
            case SIGCHLD where commandStatus == nil:
                if let status = try command.reapIfExited() {
                    commandStatus = status
                    quietUntil = MonotonicInstant.now() + Relay.quietSpell
                    delegate.relay(self, commandDidExit: status)
                }
            case SIGWINCH:
                try? WindowSize.of(terminalInput).apply(to: master)
            default:
                break
            }
            delegate.relay(self, didReceiveSignal: signal)
        }
    }

    private func handleMaster(_ delegate: any RelayDelegate) throws(PTYError) {
        let events = revents(.master)
        guard events != 0 else { return }
        if events & Int16(POLLOUT) != 0 {
            flushPendingInput()
        }
        guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0, isReadingOutput, !outputEnded else { return }
        let count: Int
        do {
            count = try master.read(into: outputBuffer)
        } catch .wouldBlock {
            return
        } catch .ioError {
            // Linux says EIO once the last replica descriptor is closed and
            // everything written before has been read.
            count = 0
        } catch {
            throw PTYError(.relay, error, context: "read from the command")
        }
        if count == 0 {
            endOutput(delegate)
            return
        }
        delegate.relay(self, didReadOutput: UnsafeRawBufferPointer(rebasing: outputBuffer[..<count]))
        // The quiet spell starts once the terminal has taken the output: a
        // slow terminal must not make the command look quiet.
        if commandStatus != nil {
            quietUntil = MonotonicInstant.now() + Relay.quietSpell
        }
    }

    private func endOutput(_ delegate: any RelayDelegate) {
        outputEnded = true
        quietUntil = nil
        delegate.relayOutputDidEnd(self)
    }

    private func flushPendingInput() {
        let result = pendingInput[pendingStart...].withUnsafeBytes { bytes in
            Result { () throws(Errno) in try master.write(bytes) }
        }
        do {
            pendingStart += try result.get()
        } catch .wouldBlock {
            return
        } catch {
            // The command's side is gone; so is what it would have read.
            pendingStart = pendingInput.count
        }
        if pendingStart == pendingInput.count {
            pendingInput.removeAll(keepingCapacity: true)
            pendingStart = 0
        }
    }

    private func handleInput(_ delegate: any RelayDelegate) throws(PTYError) {
        guard revents(.input) != 0 else { return }
        let count: Int
        do {
            count = try terminalInput.read(into: inputBuffer)
        } catch .wouldBlock {
            return
        } catch .ioError {
            count = 0
        } catch {
            throw PTYError(.relay, error, context: "read from the terminal")
        }
        if count == 0 {
            inputEnded = true
            delegate.relayInputDidEnd(self)
            return
        }
        // Read before the call: the chunk that unlocks ends the secrecy.
        let wasSecret = inputIsSecret
        delegate.relay(self, didReadInput: UnsafeRawBufferPointer(rebasing: inputBuffer[..<count]))
        if wasSecret || inputIsSecret {
            UnsafeMutableRawBufferPointer(rebasing: inputBuffer[..<count]).initializeMemory(as: UInt8.self, repeating: 0)
        }
    }

    private func checkDeadlines(_ delegate: any RelayDelegate) {
        guard deadline != nil || quietUntil != nil else { return }
        let now = MonotonicInstant.now()
        if let quiet = quietUntil, isReadingOutput, !outputEnded, quiet <= now {
            endOutput(delegate)
        }
        if let due = deadline, due <= now {
            deadline = nil
            delegate.relayDeadlineDidPass(self)
        }
    }
}

import CPTYShims
import Glibc

/// The single-threaded loop that moves bytes between the real terminal and a
/// command's pseudo-terminal, turns signals into calls, and wakes for one
/// deadline. Shaped after util-linux's `ul_pty_proxy_master`: one `poll` over
/// named slots, POLLOUT asked for only while input waits for the command, and
/// no wake-up at all while nothing happens. Any number of extra descriptors
/// can be watched for reading, or writing (`watch(_:events:)`); the delegate
/// hears when one is ready.
///
/// Its stored properties are read and written in every round, for every chunk of
/// output, and none is ever accessed while another access to it is open (nothing
/// calls out while holding one: the delegate is called between them, and what it
/// calls back, `sendToCommand` or `watch`, opens and closes its own). So they are
/// `@exclusivity(unchecked)`: otherwise each access is a call into the runtime's
/// exclusivity check (Benchmarks/RESULTS.md has its cost). One thread, as the
/// whole relay is.
public final class Relay {
    public let terminalInput: FileDescriptor
    public let terminalOutput: FileDescriptor
    public let master: FileDescriptor
    public let signals: SignalSource
    public let command: ChildProcess

    /// When to call `relayDeadlineDidPass`; nil for never.
    @exclusivity(unchecked) public var deadline: MonotonicInstant?

    /// While false the command's output stays in the kernel, so a command
    /// that keeps writing blocks: nothing is read, nothing is dropped.
    @exclusivity(unchecked) public var isReadingOutput = true {
        didSet {
            if isReadingOutput && !oldValue && commandStatus != nil {
                quietUntil = MonotonicInstant.now() + quietSpell
            }
        }
    }

    /// While false typed bytes stay in the terminal.
    @exclusivity(unchecked) public var isReadingInput = true

    /// While true, the terminal is read even while earlier typed bytes still
    /// wait for the command; normally it is not (backpressure), so that a slow
    /// command gets all its input later. For a delegate that keeps what is
    /// typed to itself for a while (idlewrap's lock screen).
    @exclusivity(unchecked) public var readsInputAhead = false

    /// While true, the input buffer is zeroed after each chunk, so that no copy
    /// of what was typed (a password) stays in the relay's memory.
    @exclusivity(unchecked) public var clearsInputAfterUse = false

    /// The extra descriptors watched for reading, in the order they were added.
    @exclusivity(unchecked) public private(set) var watched: [FileDescriptor] = []
    /// The poll events each of `watched` is watched for.
    @exclusivity(unchecked) private var watchedEvents: [Int16] = []

    @exclusivity(unchecked) public private(set) var commandStatus: TerminationStatus?
    @exclusivity(unchecked) public private(set) var outputEnded = false
    @exclusivity(unchecked) public private(set) var inputEnded = false

    /// How long output must stay quiet after the command exited before the
    /// relay calls it over: a background job may keep the pseudo-terminal
    /// open for ever, and output still in flight must not be cut off.
    public let quietSpell: Duration

    static let bufferSize = 64 * 1024

    /// The relay's own slots; the watched descriptors' follow them.
    private enum Slot: Int, CaseIterable {
        case signal, master, input, commandExit
    }

    private static let fixedSlots = Slot.allCases.count

    /// Rebuilt only when the watch set changes, so a round allocates nothing.
    @exclusivity(unchecked) private var slots: UnsafeMutablePointer<pollfd>
    @exclusivity(unchecked) private var slotCapacity: Int
    /// Bumped by every watch or unwatch, so a round that reports watched
    /// descriptors notices when the delegate changed the set under it.
    @exclusivity(unchecked) private var watchGeneration = 0
    private let outputBuffer: UnsafeMutableRawBufferPointer
    private let inputBuffer: UnsafeMutableRawBufferPointer
    /// Typed bytes the command has not taken yet; stdin is not read meanwhile.
    @exclusivity(unchecked) private var pendingInput: [UInt8] = []
    @exclusivity(unchecked) private var pendingStart = 0
    @exclusivity(unchecked) private var quietUntil: MonotonicInstant?
    @exclusivity(unchecked) private var isStopped = false
    /// Readable once the command has exited (a pidfd), nil on kernels before
    /// 5.3. SIGCHLD alone is not enough where other threads leave it
    /// unblocked: the kernel may hand it to one of them, which discards it
    /// (as libdispatch's main thread does in a test runner).
    private let commandExit: FileDescriptor?

    /// The master must be non-blocking; the terminal descriptors may be either.
    public init(
        terminalInput: FileDescriptor,
        terminalOutput: FileDescriptor,
        master: FileDescriptor,
        signals: SignalSource,
        command: ChildProcess,
        quietSpell: Duration = .milliseconds(200)
    ) {
        self.terminalInput = terminalInput
        self.terminalOutput = terminalOutput
        self.master = master
        self.signals = signals
        self.command = command
        self.quietSpell = quietSpell
        slotCapacity = Relay.fixedSlots + 4
        slots = .allocate(capacity: slotCapacity)
        slots.initialize(repeating: pollfd(fd: -1, events: 0, revents: 0), count: slotCapacity)
        watched.reserveCapacity(slotCapacity - Relay.fixedSlots)
        outputBuffer = .allocate(byteCount: Relay.bufferSize, alignment: 16)
        inputBuffer = .allocate(byteCount: Relay.bufferSize, alignment: 16)
        pendingInput.reserveCapacity(Relay.bufferSize)
        commandExit = try? FileDescriptor(rawValue: valueOrErrno { cpty_pidfd_open(command.pid) })
    }

    deinit {
        try? commandExit?.close()
        slots.deallocate()
        outputBuffer.deallocate()
        inputBuffer.deallocate()
    }

    /// Reports `descriptor` to the delegate (`relay(_:descriptorIsReadable:)`)
    /// whenever it is readable, or has hung up or failed, until `unwatch`.
    /// `events` may add POLLOUT, for a connection with output waiting (a bus
    /// library's); watching it again changes only its events. The relay does
    /// not read or write it, so the delegate must, or it is reported again at
    /// once (poll is level-triggered).
    public func watch(_ descriptor: FileDescriptor, events: Int16 = Int16(POLLIN)) {
        if let index = watched.firstIndex(of: descriptor) {
            // Not a change of the set: this round's reports stand.
            watchedEvents[index] = events
            slots[Relay.fixedSlots + index].events = events
            return
        }
        watched.append(descriptor)
        watchedEvents.append(events)
        if Relay.fixedSlots + watched.count > slotCapacity {
            let larger = UnsafeMutablePointer<pollfd>.allocate(capacity: slotCapacity * 2)
            larger.initialize(from: slots, count: slotCapacity)
            larger.advanced(by: slotCapacity).initialize(
                repeating: pollfd(fd: -1, events: 0, revents: 0), count: slotCapacity)
            slots.deallocate()
            slots = larger
            slotCapacity *= 2
        }
        rebuildWatchedSlots()
    }

    /// Stops reporting `descriptor`, at once: not even a readiness already
    /// seen in the current round is reported.
    public func unwatch(_ descriptor: FileDescriptor) {
        guard let index = watched.firstIndex(of: descriptor) else { return }
        watched.remove(at: index)
        watchedEvents.remove(at: index)
        rebuildWatchedSlots()
    }

    private func rebuildWatchedSlots() {
        watchGeneration &+= 1
        for (offset, descriptor) in watched.enumerated() {
            slots[Relay.fixedSlots + offset] = pollfd(
                fd: descriptor.rawValue, events: watchedEvents[offset], revents: 0)
        }
    }

    /// The terminal's descriptors name another terminal now (the caller put it in their
    /// place: a session that outlived its terminal got another): its input is read again.
    public func terminalWasReplaced() {
        inputEnded = false
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
    public func discardTypedAhead() {
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
            delegate.relayWillPoll(self)
            if isStopped { break }
            arm()
            let ready: Int
            do {
                let armed = UnsafeMutableBufferPointer(start: slots, count: Relay.fixedSlots + watched.count)
                ready = try poll(armed, timeout: pollTimeout())
            } catch {
                throw PTYError(.relay, error, context: "poll")
            }
            if ready > 0 {
                try handleSignals(delegate)
                if revents(.commandExit) != 0 { try reapCommand(delegate) }
                try handleMaster(delegate)
                try handleInput(delegate)
                handleWatched(delegate)
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
        let wantsInput = isReadingInput && !inputEnded && (readsInputAhead || pendingStart == pendingInput.count)
        set(.input, terminalInput, wantsInput ? Int16(POLLIN) : 0)
        if let commandExit {
            set(.commandExit, commandExit, commandStatus == nil ? Int16(POLLIN) : 0)
        }
    }

    private func set(_ slot: Slot, _ descriptor: FileDescriptor, _ events: Int16) {
        // poll skips negative descriptors, and a slot with no events must not
        // report POLLHUP over and over.
        slots[slot.rawValue] = pollfd(fd: events == 0 ? -1 : descriptor.rawValue, events: events, revents: 0)
    }

    private func revents(_ slot: Slot) -> Int16 {
        slots[slot.rawValue].revents
    }

    private var nextWake: MonotonicInstant? {
        MonotonicInstant.earliest(deadline, isReadingOutput && !outputEnded ? quietUntil : nil)
    }

    /// Milliseconds to the next deadline, rounded up so the loop never wakes
    /// early and spins.
    private func pollTimeout() -> Int32 {
        guard let wake = nextWake else { return -1 }
        let left = wake.nanoseconds &- MonotonicInstant.now().nanoseconds
        if left <= 0 { return 0 }
        return Int32(clamping: (left + 999_999) / 1_000_000)
    }

    private func handleSignals(_ delegate: any RelayDelegate) throws(PTYError) {
        guard revents(.signal) != 0 else { return }
        try receiveSignals(delegate)
    }

    /// Reads every pending signal, whether or not poll reported one.
    private func receiveSignals(_ delegate: any RelayDelegate) throws(PTYError) {
        while let signal = try signals.next() {
            switch signal {
            case SIGCHLD:
                try reapCommand(delegate)
            case SIGWINCH:
                try? WindowSize.of(terminalInput).apply(to: master)
            default:
                break
            }
            delegate.relay(self, didReceiveSignal: signal)
        }
    }

    private func reapCommand(_ delegate: any RelayDelegate) throws(PTYError) {
        guard commandStatus == nil, let status = try command.reapIfExited() else { return }
        commandStatus = status
        quietUntil = MonotonicInstant.now() + quietSpell
        delegate.relay(self, commandDidExit: status)
    }

    private func handleMaster(_ delegate: any RelayDelegate) throws(PTYError) {
        let events = revents(.master)
        guard events != 0 else { return }
        if events & Int16(POLLOUT) != 0 {
            flushPendingInput()
        }
        guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0, isReadingOutput, !outputEnded else { return }
        guard let count = try readChunk(from: master, into: outputBuffer, context: "read from the command") else {
            return
        }
        if count == 0 {
            endOutput(delegate)
            return
        }
        delegate.relay(self, didReadOutput: UnsafeRawBufferPointer(rebasing: outputBuffer[..<count]))
        // The quiet spell starts once the terminal has taken the output: a
        // slow terminal must not make the command look quiet.
        if commandStatus != nil {
            quietUntil = MonotonicInstant.now() + quietSpell
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

    /// Signals sent before the bytes were typed are handled before them (a
    /// lock request before the password that opens the lock), although poll
    /// may not have reported them: it looks at one descriptor after another,
    /// so a signal that lands while it is between the signalfd and the
    /// terminal is seen only next round. Handling one may discard the typed
    /// bytes (a lock engaging), and with them this round's report.
    private func handleInput(_ delegate: any RelayDelegate) throws(PTYError) {
        guard revents(.input) != 0 else { return }
        // Read before the signals and the call: a session ending on a signal,
        // or the chunk that unlocks, turns the clearing off.
        let clears = clearsInputAfterUse
        try receiveSignals(delegate)
        guard revents(.input) != 0 else { return }
        guard let count = try readChunk(from: terminalInput, into: inputBuffer, context: "read from the terminal")
        else {
            return
        }
        if count == 0 {
            inputEnded = true
            delegate.relayInputDidEnd(self)
            return
        }
        delegate.relay(self, didReadInput: UnsafeRawBufferPointer(rebasing: inputBuffer[..<count]))
        if clears || clearsInputAfterUse {
            UnsafeMutableRawBufferPointer(rebasing: inputBuffer[..<count]).initializeMemory(
                as: UInt8.self, repeating: 0)
        }
    }

    /// One read: nil when there is nothing yet, 0 at the end. Linux says EIO
    /// on a master once the last replica descriptor is closed and everything
    /// written before has been read, and on a terminal that hung up: both are
    /// the end.
    private func readChunk(
        from descriptor: FileDescriptor,
        into buffer: UnsafeMutableRawBufferPointer,
        context: String
    ) throws(PTYError) -> Int? {
        do {
            return try descriptor.read(into: buffer)
        } catch .wouldBlock {
            return nil
        } catch .ioError {
            return 0
        } catch {
            throw PTYError(.relay, error, context: context)
        }
    }

    /// Reports the watched descriptors poll found ready. If the delegate
    /// changes the watch set, this round's other reports are dropped: they
    /// may name a descriptor no longer watched, and poll reports whatever is
    /// still ready again next round.
    private func handleWatched(_ delegate: any RelayDelegate) {
        let generation = watchGeneration
        var index = 0
        while index < watched.count && generation == watchGeneration {
            if slots[Relay.fixedSlots + index].revents != 0 {
                delegate.relay(self, descriptorIsReadable: watched[index])
            }
            index += 1
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

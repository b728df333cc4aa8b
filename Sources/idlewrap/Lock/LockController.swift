import Glibc
import PTYKit

/// What the lock acts on: the terminal, the command, and whoever records and
/// announces lock events. The session implements it over the relay; tests
/// implement it with recorders.
protocol LockHost: AnyObject {
    func show(_ bytes: UnsafeRawBufferPointer)
    func forward(_ bytes: UnsafeRawBufferPointer)
    /// Whether the command's output is read; false makes a writing command block.
    var isReadingOutput: Bool { get set }
    func discardTypedAhead()
    var windowSize: WindowSize { get }
    /// Makes a full-screen command redraw itself.
    func nudgeRedraw()
    /// A descriptor to poll for the authenticator, or nil.
    func watch(_ descriptor: FileDescriptor?)
    func lockDidEngage()
    func lockDidRelease()
    func unlockDidFail(message: String, failures: Int)
    func checkIsUnavailable(reason: String)
}

extension LockHost {
    func show(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { show($0) }
    }
}

/// The lock's policy: when to lock, what the screen shows while locked, what
/// typed bytes mean, and when to unlock. It owns the output parser (which must
/// see every byte shown, so it knows where a lock may start) and the bytes
/// held back while locked.
final class LockController {
    struct Settings {
        var timeout: Duration
        var holdLimit: Int
        var lockKey: UInt8?
        var message: String?
        var wipeScrollback: Bool
        /// The program's name and the host, for the lock screen.
        var program: String
        var host: String
        var user: UserName
        /// How long before an idle lock the title counts down; 0: no warning.
        var warn: Duration = .zero
        /// Ring once when the command exits while locked.
        var bellOnExit = false
    }

    /// How long a lock waits for the output to reach the end of an escape
    /// sequence or a character before it cuts the sequence short.
    static let boundaryPatience: Duration = .milliseconds(250)
    static let firstDelay: Duration = .seconds(1)
    static let longestDelay: Duration = .seconds(30)

    private let settings: Settings
    private let authenticator: Authenticator
    private let clock: TimeSource
    private unowned let host: LockHost

    private(set) var state = LockState.active
    private var parser = OutputParser()
    /// Where the terminal's input stands between reads: inside a reply or not.
    private var replies = TerminalReplyScanner()
    /// The output since the parser was last at a boundary.
    private var openSequence = OpenSequence()
    /// The start of the sequence the lock cut short, sent again before the held output.
    private var cutPrefix: [UInt8] = []
    private var idle: IdleTimer
    /// The command's modes when the lock began: what unlocking restores.
    private var modesAtLock = TerminalModes.initial
    private var held: [UInt8] = []
    private var editor = PasswordLineEditor()
    private var conversation: AuthConversation?
    private var failuresInARow = 0
    private var content: LockScreenContent
    /// The countdown before an idle lock.
    private var warning = WarningTitle()
    /// Output read while locked, and when the command finished while locked.
    private var arrival = OutputArrival()
    private var finishedAt: time_t?
    /// The lock screen is redrawn for arriving output at most once a second: when it
    /// was last drawn, and when it is to be drawn again.
    private var drawnAt: MonotonicInstant?
    private var redrawDue: MonotonicInstant?

    init(settings: Settings, authenticator: Authenticator, clock: TimeSource, host: LockHost) {
        self.settings = settings
        self.authenticator = authenticator
        self.clock = clock
        self.host = host
        idle = IdleTimer(timeout: settings.timeout)
        content = LockScreenContent(
            program: settings.program, host: settings.host, since: "", message: settings.message, failures: 0,
            status: nil, prompt: "")
        idle.restart(at: clock.now())
    }

    /// The lock screen is up; in `.locking` keys still reach the command.
    var isLocked: Bool {
        if case .locked = state { return true }
        return false
    }

    /// What the command's output has turned on, as far as the terminal shows it.
    var commandModes: TerminalModes { parser.modes }

    /// A lock is due or up: the session must not end as if nothing were locked.
    var isLockingOrLocked: Bool {
        switch state {
        case .locking, .locked: return true
        case .active, .abandoned: return false
        }
    }

    private var isAbandoned: Bool { state == .abandoned }

    /// Output waiting to be shown after the unlock.
    var heldByteCount: Int { held.count }

    /// The last keystroke that counted as activity, or the start.
    var lastActivity: MonotonicInstant? { idle.lastActivity }

    /// When the idle lock is due, nil when none is: locked already, or no timeout.
    var idleLockDeadline: MonotonicInstant? {
        state == .active ? idle.deadline : nil
    }

    /// When `handleDeadline` wants to be called next.
    var nextDeadline: MonotonicInstant? {
        switch state {
        case .active: return warningDeadline ?? idle.deadline
        case .locking(let giveUpAt): return giveUpAt
        case .locked(.waiting(let until)): return .earliest(until, redrawDue)
        case .locked: return redrawDue
        case .abandoned: return nil
        }
    }

    /// The warning never lasts longer than the timeout: right after activity it would
    /// have nothing to warn of.
    private var warnLength: Duration { min(settings.warn, settings.timeout) }

    /// Before the warning, its start; during it, the next change of the countdown (the
    /// only time the relay wakes each second); without one, nil.
    private var warningDeadline: MonotonicInstant? {
        guard let start = warningStart, let lockAt = idle.deadline else { return nil }
        guard warning.wanted != nil else { return start }
        let left = secondsLeft(until: lockAt, at: clock.now())
        return lockAt - .seconds(left - 1)
    }

    /// When the countdown starts: the warning's length before the idle lock.
    private var warningStart: MonotonicInstant? {
        guard warnLength > .zero, let lockAt = idle.deadline else { return nil }
        return lockAt - warnLength
    }

    /// The countdown: whole seconds left, rounded up.
    private func secondsLeft(until lockAt: MonotonicInstant, at now: MonotonicInstant) -> Int {
        max((lockAt - now).secondsRoundedUp, 1)
    }

    // MARK: - Events

    func handleInput(_ bytes: UnsafeRawBufferPointer) {
        switch state {
        case .active, .locking:
            // A terminal answering a program's query is not a person at the
            // keyboard, also when its answer comes in several reads.
            if state == .active && replies.holdsKeys(bytes) {
                idle.restart(at: clock.now())
                if warning.wanted != nil {
                    warning.hide()
                    updateWarningTitle()
                }
            }
            if let key = settings.lockKey, let index = bytes.firstIndex(of: key) {
                host.forward(UnsafeRawBufferPointer(rebasing: bytes[..<index]))
                // What follows the key in the same burst was typed at a lock
                // screen the user could not see yet: it goes nowhere.
                requestLock()
                return
            }
            // While a lock waits for the output to reach a boundary, the
            // command's screen still shows and nothing is locked yet.
            host.forward(bytes)
        case .locked(.checking), .locked(.waiting), .abandoned:
            return
        case .locked(.prompting):
            // Only the first line of a burst counts; what follows Enter is dropped.
            guard let (event, _) = editor.feed(bytes), event == .submitted else { return }
            submit()
        }
    }

    func handleOutput(_ bytes: UnsafeRawBufferPointer) {
        switch state {
        case .active:
            // The open sequence is copied only while a countdown shows: `noteTitle` needs it then.
            let (before, open) = (parser, warning.isShowing ? openSequence.prefix : [])
            showOutput(bytes)
            noteTitle(in: bytes, from: before, open: open)
            updateWarningTitle()
        case .locking:
            let (before, open) = (parser, warning.isShowing ? openSequence.prefix : [])
            let shown = parser.feedUntilBoundary(bytes)
            host.show(UnsafeRawBufferPointer(rebasing: bytes[..<shown]))
            noteTitle(in: UnsafeRawBufferPointer(rebasing: bytes[..<shown]), from: before, open: open)
            if parser.isAtBoundary {
                openSequence.reset()
                engage()
                hold(UnsafeRawBufferPointer(rebasing: bytes[shown...]))
            } else {
                openSequence.follow(bytes, from: before, to: parser)
            }
        case .locked:
            hold(bytes)
        case .abandoned:
            return
        }
    }

    /// SIGUSR1, the lock key, or the idle timer: lock as soon as the output
    /// is at a boundary.
    func requestLock() {
        guard case .active = state else { return }
        idle.stop()
        if parser.isAtBoundary {
            engage()
        } else {
            state = .locking(giveUpAt: clock.now() + LockController.boundaryPatience)
        }
    }

    func handleDeadline() {
        let now = clock.now()
        switch state {
        case .active:
            if idle.hasExpired(at: now) {
                requestLock()
            } else if let start = warningStart, start <= now, let lockAt = idle.deadline {
                warning.show(seconds: secondsLeft(until: lockAt, at: now))
                updateWarningTitle()
            }
        case .locking(let giveUpAt) where giveUpAt <= now:
            // Output that never finishes its sequence must not keep the
            // session open: the cut ends it on every terminal, and what was
            // cut is sent again at the unlock, before the rest of it.
            cutPrefix = openSequence.prefix
            openSequence.reset()
            host.show(OutputParser.cut)
            OutputParser.cut.withUnsafeBytes { parser.feed($0) }
            engage()
        case .locked(.waiting(let until)) where until <= now:
            beginAttempt()
        case .locked:
            if let due = redrawDue, due <= now { redraw() }
        default:
            break
        }
    }

    /// The command exited: while locked, the lock screen says when (and rings with
    /// --bell-on-exit); the session stays locked.
    func commandDidExit() {
        guard isLockingOrLocked, finishedAt == nil else { return }
        finishedAt = clock.wallTime()
        // While a lock waits for a boundary, a BEL could end the command's sequence:
        // `engage` rings then.
        guard isLocked else { return }
        if settings.bellOnExit { host.show([0x07]) }
        redrawSoon()
    }

    /// The session is over: the bytes that take the countdown off the title, if it shows.
    func endWarning() -> [UInt8] {
        warning.hide()
        return warning.update()
    }

    func handleAuthenticatorReadiness() {
        guard case .locked(.checking) = state else { return }
        advanceConversation()
    }

    func handleResize() {
        guard case .locked = state else { return }
        redraw()
    }

    /// The session is ending while locked: clear everything, show nothing held.
    func abandon() {
        let wasLockingOrLocked = isLockingOrLocked
        let wasShowingLockScreen = isLocked
        // First: a terminal that fails while the screen is cleared ends the
        // session again, and that call must find the lock already abandoned.
        state = .abandoned
        let warningBytes = endWarning()
        if !warningBytes.isEmpty { host.show(warningBytes) }
        guard wasLockingOrLocked else { return }
        conversation?.cancel()
        conversation = nil
        host.watch(nil)
        editor.reset()
        // What was held is dropped; a command blocked writing more must be
        // able to finish (the session discards its output from now on).
        held = []
        cutPrefix = []
        host.isReadingOutput = true
        if wasShowingLockScreen {
            host.show(
                TerminalRestore.bytes(leaving: modesAtLock, lockIsShown: true, wipeScrollback: settings.wipeScrollback))
            // The terminal is back as idlewrap found it: nothing is left to undo.
            parser = OutputParser()
        }
        idle.stop()
    }

    // MARK: - Locking and unlocking

    private func engage() {
        modesAtLock = parser.modes
        host.discardTypedAhead()
        // The output is at a boundary: the countdown makes way for the lock's own title.
        let warningBytes = endWarning()
        if !warningBytes.isEmpty { host.show(warningBytes) }
        host.show(LockScreen.enter(modes: modesAtLock, wipeScrollback: settings.wipeScrollback))
        // Showing fails when the terminal is gone, and the session then ends.
        if isAbandoned { return }
        content.since = LockScreen.clockText(at: clock.wallTime())
        content.failures = 0
        content.status = nil
        failuresInARow = 0
        arrival = OutputArrival()
        if finishedAt != nil && settings.bellOnExit { host.show([0x07]) }
        state = .locked(.prompting)
        host.lockDidEngage()
        beginAttempt()
    }

    private func beginAttempt() {
        conversation = authenticator.beginAttempt()
        advanceConversation()
    }

    private func submit() {
        guard let conversation else { return }
        conversation.answer(editor.line)
        editor.reset()
        content.status = nil
        advanceConversation()
    }

    private func advanceConversation() {
        guard let conversation else { return }
        let notices = conversation.takeNotices()
        if !notices.isEmpty { content.status = notices.joined(separator: " ") }
        switch conversation.currentStep() {
        case .asking(let prompt):
            host.watch(nil)
            content.prompt = prompt
            editor.reset()
            state = .locked(.prompting)
            redraw()
        case .working:
            host.watch(conversation.readiness)
            state = .locked(.checking)
            redraw()
        case .succeeded:
            release()
        case .failed(let message):
            content.failures += 1
            content.status = message
            host.unlockDidFail(message: message, failures: content.failures)
            wait()
        case .unavailable(let reason):
            // Fail closed: stay locked, say why, and try again later.
            content.status = reason
            host.checkIsUnavailable(reason: reason)
            wait()
        }
    }

    /// Ignores keys for a delay that doubles with each failure in a row.
    private func wait() {
        conversation = nil
        host.watch(nil)
        editor.reset()
        let delay = min(LockController.firstDelay * (1 << min(failuresInARow, 5)), LockController.longestDelay)
        failuresInARow += 1
        state = .locked(.waiting(until: clock.now() + delay))
        content.prompt = ""
        redraw()
    }

    private func release() {
        conversation = nil
        host.watch(nil)
        editor.reset()
        // Keys typed after Enter while the password was checked are the lock
        // screen's, like the rest of that burst: none may reach the command.
        host.discardTypedAhead()
        host.show(LockScreen.leave(modes: modesAtLock))
        if isAbandoned { return }
        if modesAtLock.alternateScreen { host.nudgeRedraw() }
        state = .active
        // What came in since the lock was not followed; a reply that began
        // before it counts no more.
        replies.reset()
        // The parser is at the boundary the cut made, where the prefix began.
        let (prefix, released) = (cutPrefix, held)
        cutPrefix = []
        held = []
        if !prefix.isEmpty { prefix.withUnsafeBytes { showOutput($0) } }
        released.withUnsafeBytes { showOutput($0) }
        host.isReadingOutput = true
        idle.restart(at: clock.now())
        host.lockDidRelease()
    }

    private func showOutput(_ bytes: UnsafeRawBufferPointer) {
        let before = parser
        parser.feed(bytes)
        openSequence.follow(bytes, from: before, to: parser)
        host.show(bytes)
    }

    private func hold(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        arrival.note(bytes, at: clock.wallTime())
        redrawSoon()
        held.append(contentsOf: bytes)
        if held.count >= settings.holdLimit {
            host.isReadingOutput = false
        }
    }

    private func redraw() {
        content.arrival = arrival.text
        content.finished = finishedAt.map { "Command finished at \(LocalTime.hourAndMinute($0))" }
        drawnAt = clock.now()
        redrawDue = nil
        host.show(LockScreen.draw(content, size: host.windowSize))
    }

    /// Redraws for news at once, or a second after the last drawing if that was sooner,
    /// so a chatty command redraws the lock screen at most once a second.
    private func redrawSoon() {
        guard isLocked, redrawDue == nil else { return }
        let next = drawnAt.map { $0 + .seconds(1) } ?? clock.now()
        if next <= clock.now() {
            redraw()
        } else {
            redrawDue = next
        }
    }

    /// Brings the title to what the warning wants, where the output is at a boundary;
    /// otherwise the next output that reaches one does it.
    private func updateWarningTitle() {
        guard parser.isAtBoundary else { return }
        let bytes = warning.update()
        if !bytes.isEmpty { host.show(bytes) }
    }

    /// If `chunk`, just fed to the parser from `before`, set the window title over the
    /// countdown, gives the warning the last title sequence in it, to write again after
    /// the pop. `open` is the sequence `before` was in the middle of.
    private func noteTitle(in chunk: UnsafeRawBufferPointer, from before: OutputParser, open: [UInt8]) {
        guard warning.isShowing, parser.titleSets != before.titleSets else { return }
        // The shortest start of the chunk that sets the last title ends where it ends.
        var (low, high) = (1, chunk.count)
        while low < high {
            let middle = (low + high) / 2
            var probe = before
            probe.feed(UnsafeRawBufferPointer(rebasing: chunk[..<middle]))
            if probe.titleSets == parser.titleSets { high = middle } else { low = middle + 1 }
        }
        let end = low
        let sequence: [UInt8]
        if let start = before.lastBoundary(in: UnsafeRawBufferPointer(rebasing: chunk[..<(end - 1)])) {
            sequence = Array(chunk[start..<end])
        } else {
            // It began in an earlier chunk; an empty `open` means it was too long to keep.
            sequence = open.isEmpty ? [] : open + chunk[..<end]
        }
        warning.commandDidSetTitle(sequence.count <= OpenSequence.limit ? sequence : [])
    }
}

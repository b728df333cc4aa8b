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
        var timeout: Nanoseconds
        var holdLimit: Int
        var lockKey: UInt8?
        var message: String?
        var wipeScrollback: Bool
        /// The program's name and the host, for the lock screen.
        var program: String
        var host: String
        var user: UserName
    }

    /// How long a lock waits for the output to reach the end of an escape
    /// sequence or a character before it cuts the sequence short.
    static let boundaryPatience: Int64 = 250_000_000
    static let firstDelay: Int64 = 1_000_000_000
    static let longestDelay: Int64 = 30_000_000_000

    private let settings: Settings
    private let authenticator: Authenticator
    private let clock: TimeSource
    private unowned let host: LockHost

    private(set) var state = LockState.active
    private var parser = OutputParser()
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

    init(settings: Settings, authenticator: Authenticator, clock: TimeSource, host: LockHost) {
        self.settings = settings
        self.authenticator = authenticator
        self.clock = clock
        self.host = host
        idle = IdleTimer(timeout: settings.timeout)
        content = LockScreenContent(
            program: settings.program, host: settings.host, since: "", message: settings.message, failures: 0, status: nil, prompt: "")
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
        case .active: return idle.deadline
        case .locking(let giveUpAt): return giveUpAt
        case .locked(.waiting(let until)): return until
        case .locked, .abandoned: return nil
        }
    }

    // MARK: - Events

    func handleInput(_ bytes: UnsafeRawBufferPointer) {
        switch state {
        case .active, .locking:
            // A terminal answering a program's query is not a person at the keyboard.
            if state == .active && !TerminalReplies.consistsOnlyOfReplies(bytes) {
                idle.restart(at: clock.now())
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
            showOutput(bytes)
        case .locking:
            let before = parser
            let shown = parser.feedUntilBoundary(bytes)
            host.show(UnsafeRawBufferPointer(rebasing: bytes[..<shown]))
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
            if idle.hasExpired(at: now) { requestLock() }
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
        default:
            break
        }
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
            host.show(TerminalRestore.bytes(leaving: modesAtLock, lockIsShown: true, wipeScrollback: settings.wipeScrollback))
            // The terminal is back as idlewrap found it: nothing is left to undo.
            parser = OutputParser()
        }
        idle.stop()
    }

    // MARK: - Locking and unlocking

    private func engage() {
        modesAtLock = parser.modes
        host.discardTypedAhead()
        host.show(LockScreen.enter(modes: modesAtLock, wipeScrollback: settings.wipeScrollback))
        // Showing fails when the terminal is gone, and the session then ends.
        if isAbandoned { return }
        content.since = LockScreen.clockText()
        content.failures = 0
        content.status = nil
        failuresInARow = 0
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
        let delay = min(LockController.firstDelay << min(failuresInARow, 5), LockController.longestDelay)
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
        held.append(contentsOf: bytes)
        if held.count >= settings.holdLimit {
            host.isReadingOutput = false
        }
    }

    private func redraw() {
        host.show(LockScreen.draw(content, size: host.windowSize))
    }
}

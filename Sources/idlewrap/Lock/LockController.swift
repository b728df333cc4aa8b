import Glibc
import PTYKit

/// What the lock acts on besides the command's screen: the terminal, the command's input,
/// and whoever records and announces lock events. The session implements it over the
/// relay; tests implement it with recorders.
protocol LockHost: AnyObject {
    /// Writes the lock's own bytes to the terminal.
    func show(_ bytes: UnsafeRawBufferPointer)
    func forward(_ bytes: UnsafeRawBufferPointer)
    func discardTypedAhead()
    var windowSize: WindowSize { get }
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

/// The lock's policy: when to lock, what typed bytes mean, the authentication conversation,
/// and when to unlock. The command's screen, which it hides and shows, is the session's.
final class LockController {
    struct Settings {
        var timeout: Duration
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
    private let screen: CommandScreen

    private(set) var state = LockState.active
    /// Where the terminal's input stands between reads: inside a reply or not.
    private var replies = TerminalReplyScanner()
    private var idle: IdleTimer
    /// What the lock screen turned on, while it shows.
    private var entry: LockScreenEntry?
    /// The lock left the terminal as idlewrap found it: nothing is left to undo at exit.
    private var terminalIsRestored = false
    private var editor = PasswordLineEditor()
    private var conversation: AuthConversation?
    private var failuresInARow = 0
    private var refresh: LockScreenRefresh
    /// The countdown before an idle lock.
    private var warning: WarningTitle

    init(settings: Settings, authenticator: Authenticator, clock: TimeSource, host: LockHost, screen: CommandScreen) {
        self.settings = settings
        self.authenticator = authenticator
        self.clock = clock
        self.host = host
        self.screen = screen
        idle = IdleTimer(timeout: settings.timeout)
        warning = WarningTitle(length: settings.warn)
        refresh = LockScreenRefresh(
            content: LockScreenContent(
                program: settings.program, host: settings.host, since: "", message: settings.message, failures: 0,
                status: nil, prompt: ""))
        idle.restart(at: clock.now())
    }

    /// The lock screen is up; in `.locking` keys still reach the command.
    var isLocked: Bool {
        if case .locked = state { return true }
        return false
    }

    /// A lock is due or up: the session must not end as if nothing were locked.
    var isLockingOrLocked: Bool {
        switch state {
        case .locking, .locked: return true
        case .active, .abandoned: return false
        }
    }

    /// The last keystroke that counted as activity, or the start.
    var lastActivity: MonotonicInstant? { idle.lastActivity }

    /// When the idle lock is due, nil when none is: locked already, or no timeout.
    var idleLockDeadline: MonotonicInstant? {
        state == .active ? idle.deadline : nil
    }

    /// When `handleDeadline` wants to be called next.
    var nextDeadline: MonotonicInstant? {
        switch state {
        case .active:
            return warning.deadline(lockAt: idle.deadline, timeout: settings.timeout, now: clock.now()) ?? idle.deadline
        case .locking(let giveUpAt): return giveUpAt
        case .locked(.waiting(let until)): return .earliest(of: [until, refresh.due])
        case .locked: return refresh.due
        case .abandoned: return nil
        }
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
            let titles = screen.titleSets
            screen.follow(bytes)
            noteTitle(since: titles)
            updateWarningTitle()
        case .locking:
            let titles = screen.titleSets
            let shown = screen.followUntilBoundary(bytes)
            noteTitle(since: titles)
            if screen.isAtBoundary {
                engage()
                hold(UnsafeRawBufferPointer(rebasing: bytes[shown...]))
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
        if screen.isAtBoundary {
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
            } else if let start = warning.start(lockAt: idle.deadline, timeout: settings.timeout), start <= now,
                let lockAt = idle.deadline
            {
                warning.show(seconds: WarningTitle.secondsLeft(until: lockAt, at: now))
                updateWarningTitle()
            }
        case .locking(let giveUpAt) where giveUpAt <= now:
            // Output that never finishes its sequence must not keep the session open: the
            // cut ends it on every terminal, and the unlock puts the terminal back inside it.
            screen.cutShort()
            engage(afterCut: true)
        case .locked(.waiting(let until)) where until <= now:
            beginAttempt()
        case .locked:
            if let due = refresh.due, due <= now { redraw() }
        default:
            break
        }
    }

    /// The command exited: while locked, the lock screen says when (and rings with
    /// --bell-on-exit); the session stays locked.
    func commandDidExit() {
        guard isLockingOrLocked, refresh.finishedAt == nil else { return }
        refresh.finishedAt = clock.wallTime()
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
        screen.discardHidden()
        if let entry {
            self.entry = nil
            terminalIsRestored = true
            screen.write { LockScreen.leaveForGood(entry, wipeScrollback: settings.wipeScrollback, into: $0) }
        }
        idle.stop()
    }

    /// The bytes that leave the terminal as idlewrap found it at the end of the session.
    func appendRestoreAtExit(to buffer: OutputBuffer) {
        buffer.append(contentsOf: endWarning())
        guard !terminalIsRestored else { return }
        if let entry {
            LockScreen.leaveForGood(entry, wipeScrollback: settings.wipeScrollback, into: buffer)
        } else {
            screen.modes.appendRestoreAtExit(to: buffer)
        }
    }

    // MARK: - Locking and unlocking

    private func engage(afterCut: Bool = false) {
        host.discardTypedAhead()
        // The output is at a boundary: the countdown makes way for the lock's own title.
        let warningBytes = endWarning()
        if !warningBytes.isEmpty { host.show(warningBytes) }
        screen.hide()
        screen.write { buffer in
            entry = LockScreen.enter(
                modes: screen.modes, workingDirectory: screen.workingDirectory, afterCut: afterCut,
                wipeScrollback: settings.wipeScrollback, into: buffer)
        }
        // Showing fails when the terminal is gone, and the session then ends.
        if state == .abandoned { return }
        refresh.begin(since: LockScreen.clockText(at: clock.wallTime()))
        failuresInARow = 0
        if refresh.finishedAt != nil && settings.bellOnExit { host.show([0x07]) }
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
        refresh.content.status = nil
        advanceConversation()
    }

    private func advanceConversation() {
        guard let conversation else { return }
        let notices = conversation.takeNotices()
        if !notices.isEmpty { refresh.content.status = notices.joined(separator: " ") }
        switch conversation.currentStep() {
        case .asking(let prompt):
            host.watch(nil)
            refresh.content.prompt = prompt
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
            refresh.content.failures += 1
            refresh.content.status = message
            host.unlockDidFail(message: message, failures: refresh.content.failures)
            wait()
        case .unavailable(let reason):
            // Fail closed: stay locked, say why, and try again later.
            refresh.content.status = reason
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
        refresh.content.prompt = ""
        redraw()
    }

    private func release() {
        conversation = nil
        host.watch(nil)
        editor.reset()
        // Keys typed after Enter while the password was checked are the lock
        // screen's, like the rest of that burst: none may reach the command.
        host.discardTypedAhead()
        let dropped = screen.droppedScrollbackLines
        // The last line of the history, just above the screen, as the lock screen said.
        let notice =
            dropped > 0
            ? Array("idlewrap: \(LockScreenRefresh.lines(dropped)) of output did not fit --hold-limit".utf8) : []
        if let entry {
            self.entry = nil
            screen.show(hiddenModes: entry.modes, after: { LockScreen.leave(entry, into: $0) }, notice: notice)
        }
        if state == .abandoned { return }
        state = .active
        // What came in since the lock was not followed; a reply that began
        // before it counts no more.
        replies.reset()
        idle.restart(at: clock.now())
        host.lockDidRelease()
    }

    private func hold(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        screen.follow(bytes)
        guard isLocked else { return }
        refresh.arrival.note(bytes, at: clock.wallTime())
        refresh.droppedLines = screen.droppedScrollbackLines
        redrawSoon()
    }

    private func redraw() {
        host.show(refresh.draw(size: host.windowSize, at: clock.now()))
    }

    private func redrawSoon() {
        guard isLocked, refresh.needsDrawing(at: clock.now()) else { return }
        redraw()
    }

    /// Brings the title to what the warning wants, where the output is at a boundary;
    /// otherwise the next output that reaches one does it.
    private func updateWarningTitle() {
        guard screen.isAtBoundary else { return }
        let bytes = warning.update()
        if !bytes.isEmpty { host.show(bytes) }
    }

    /// While the countdown shows, a title the command set since `titles` is written again
    /// after the countdown's pop.
    private func noteTitle(since titles: UInt) {
        guard warning.isShowing, screen.titleSets != titles else { return }
        warning.commandDidSetTitle(screen.title)
    }
}

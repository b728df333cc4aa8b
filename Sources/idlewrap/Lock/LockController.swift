import Glibc
import PTYKit

/// The lock's state machine: when to lock, what typed bytes mean, and when to unlock. It
/// hides and shows the command's screen, which is the session's (`CommandScreen`); the
/// conversation at the lock screen is `UnlockDialog`'s; what the lock screen says and when
/// it is drawn, `LockScreenRefresh`'s.
final class LockController {
    /// How long a lock waits for the output to reach the end of an escape
    /// sequence or a character before it cuts the sequence short.
    static let boundaryPatience: Duration = .milliseconds(250)

    private let settings: Settings
    private let clock: TimeSource
    private unowned let host: LockHost
    /// The command's screen, which every byte of output goes to; the lock observes it.
    let screen: CommandScreen

    private(set) var state = LockState.active
    /// Asked twice for every read of output. Unchecked, as the relay's properties are
    /// (Relay.swift says why): every access is in place, none is open across a call out.
    @exclusivity(unchecked) private var watch: IdleWatch
    /// What the lock screen turned on, while it shows.
    private var entry: LockScreenEntry?
    /// The lock left the terminal as idlewrap found it: nothing is left to undo at exit.
    private var terminalIsRestored = false
    private var dialog: UnlockDialog
    private var refresh: LockScreenRefresh

    init(settings: Settings, authenticator: Authenticator, clock: TimeSource, host: LockHost, screen: CommandScreen) {
        self.settings = settings
        self.clock = clock
        self.host = host
        self.screen = screen
        watch = IdleWatch(timeout: settings.timeout, warn: settings.warn, now: clock.now())
        dialog = UnlockDialog(authenticator: authenticator, firstPrompt: passwordPrompt(for: settings.user.value))
        refresh = LockScreenRefresh(program: settings.program, host: settings.host, message: settings.message)
        screen.observer = self
    }

    /// As `LockState` says.
    var isLocked: Bool { state.isLocked }
    var isLockingOrLocked: Bool { state.isLockingOrLocked }

    /// The last keystroke that counted as activity, or the start.
    var lastActivity: MonotonicInstant? { watch.lastActivity }

    /// When the idle lock is due, nil when none is: locked already, or no timeout.
    var idleLockDeadline: MonotonicInstant? {
        state == .active ? watch.lockDeadline : nil
    }

    /// When `handleDeadline` wants to be called next.
    var nextDeadline: MonotonicInstant? {
        switch state {
        case .active: return watch.deadline(now: clock.now())
        case .locking(let giveUpAt): return giveUpAt
        case .locked(.waiting(let until)): return .earliest(until, refresh.due)
        case .locked: return refresh.due
        case .abandoned: return nil
        }
    }

    // MARK: - Events

    func handleInput(_ bytes: UnsafeRawBufferPointer) {
        switch state {
        case .active, .locking:
            if state == .active && watch.noteInput(bytes, at: clock.now()) { updateWarningTitle() }
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
            guard let turn = dialog.type(bytes) else { return }
            refresh.content.status = nil
            take(turn)
        }
    }

    /// SIGUSR1, the lock key, or the idle timer: lock as soon as the output
    /// is at a boundary.
    func requestLock() {
        guard case .active = state else { return }
        host.lockWillEngage()
        watch.stop()
        if screen.isAtBoundary {
            engage()
        } else {
            state = .locking(giveUpAt: clock.now() + LockController.boundaryPatience)
            screen.awaitBoundary()
        }
    }

    func handleDeadline() {
        let now = clock.now()
        switch state {
        case .active:
            if watch.deadlinePassed(at: now) { requestLock() } else { updateWarningTitle() }
        case .locking(let giveUpAt) where giveUpAt <= now:
            // Output that never finishes its sequence must not keep the session open: the
            // cut ends it on every terminal, and the unlock puts the terminal back inside it.
            screen.cutShort()
            engage(afterCut: true)
        case .locked(.waiting(let until)) where until <= now:
            if let turn = dialog.begin() { take(turn) }
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
        watch.endCountdown()
    }

    func handleAuthenticatorReadiness() {
        guard case .locked(.checking) = state, let turn = dialog.resume() else { return }
        take(turn)
    }

    func handleResize() {
        if isLocked { redraw() }
    }

    /// The session is on another terminal (`idlewrap --attach`): the lock screen is drawn
    /// there anew, at its size; the command's modes stay those it had when the lock began,
    /// for the unlock to turn its input modes back on. An answer begun on the old terminal
    /// (a half-typed line, or one being checked) is not the new one's: a new attempt begins
    /// there, empty. A pause after a failure goes on.
    func terminalReplaced() {
        guard isLocked, let old = entry else { return }
        entry = settings.screenKind.enter(screen, modes: old.modes)
        if case .locked(.waiting) = state {
            redraw()
            return
        }
        dialog.end(cancelling: true)
        if let turn = dialog.begin() { take(turn) }
    }

    /// The session leaves this terminal, locked, for another (`--take`): the lock screen
    /// goes as at an end while locked (the screen cleared, nothing of the command's shown),
    /// the lock stays, for `terminalReplaced` to draw on the next terminal.
    func appendLetGo(to buffer: OutputBuffer) {
        guard isLocked, let entry else { return }
        settings.screenKind.leaveForGood(entry, into: buffer)
    }

    /// The session is ending while locked: clear everything, show nothing held.
    func abandon() {
        let wasLockingOrLocked = isLockingOrLocked
        state = .abandoned
        show(endWarning())
        guard wasLockingOrLocked else { return }
        dialog.end(cancelling: true)
        host.watch(nil)
        screen.discardHidden()
        if let entry {
            self.entry = nil
            terminalIsRestored = true
            screen.write { settings.screenKind.leaveForGood(entry, into: $0) }
        }
        watch.stop()
    }

    /// The bytes that leave the terminal as idlewrap found it at the end of the session.
    func appendRestoreAtExit(to buffer: OutputBuffer) {
        buffer.append(contentsOf: endWarning())
        guard !terminalIsRestored else { return }
        if let entry {
            settings.screenKind.leaveForGood(entry, into: buffer)
        } else {
            screen.modes.appendRestoreAtExit(to: buffer)
        }
    }

    // MARK: - Locking and unlocking

    private func engage(afterCut: Bool = false) {
        host.discardTypedAhead()
        // The output is at a boundary: the countdown makes way for the lock's own title.
        show(endWarning())
        screen.hide()
        entry = settings.screenKind.enter(screen, modes: screen.modes, afterCut: afterCut)
        refresh.begin(since: LockScreen.clockText(at: clock.wallTime()))
        dialog.restart()
        if refresh.finishedAt != nil && settings.bellOnExit { host.show([0x07]) }
        state = .locked(.prompting)
        host.lockDidEngage()
        if let turn = dialog.begin() { take(turn) }
    }

    /// Acts on where the unlock conversation stands.
    private func take(_ turn: UnlockDialog.Turn) {
        if !turn.notices.isEmpty { refresh.content.status = turn.notices.joined(separator: " ") }
        switch turn.step {
        case .asking(let prompt):
            host.watch(nil)
            refresh.content.prompt = prompt
            state = .locked(.prompting)
            redraw()
        case .working:
            host.watch(dialog.readiness)
            state = .locked(.checking)
            redraw()
        case .succeeded:
            release()
        case .failed(let message):
            refresh.content.failures += 1
            refresh.content.status = message
            host.unlockDidFail(message: message, failures: refresh.content.failures)
            pause()
        case .unavailable(let reason):
            // Fail closed: stay locked, say why, and try again later.
            refresh.content.status = reason
            host.checkIsUnavailable(reason: reason)
            pause()
        }
    }

    /// Ignores keys for a while after a failure.
    private func pause() {
        host.watch(nil)
        state = .locked(.waiting(until: clock.now() + dialog.pause()))
        refresh.content.prompt = ""
        redraw()
    }

    private func release() {
        dialog.end()
        host.watch(nil)
        // Keys typed after Enter while the password was checked are the lock
        // screen's, like the rest of that burst: none may reach the command.
        host.discardTypedAhead()
        if let entry {
            self.entry = nil
            settings.screenKind.leave(entry, screen, rows: Int(host.windowSize.rows))
        }
        state = .active
        watch.restart(at: clock.now())
        host.lockDidRelease()
    }

    private func redraw() {
        show(
            settings.screenKind.draw(
                &refresh, size: host.windowSize, droppedLines: screen.droppedScrollbackLines, at: clock.now()))
    }

    private func redrawSoon() {
        if isLocked && refresh.needsDrawing(at: clock.now()) { redraw() }
    }

    /// Brings the title to what the warning wants, where the output is at a boundary;
    /// otherwise the next output that reaches one does it. Called for every read of
    /// output, where there is almost never anything to change: that is asked first.
    private func updateWarningTitle() {
        if watch.titleIsPending && screen.isAtBoundary { show(watch.titleBytes()) }
    }

    private func show(_ bytes: [UInt8]) {
        if !bytes.isEmpty { host.show(bytes) }
    }

    /// While the countdown shows, a title the command set since `titles` is written again
    /// after the countdown's pop.
    private func noteTitle(since titles: UInt) {
        guard watch.isCountingDown, screen.titleSets != titles else { return }
        watch.commandDidSetTitle(screen.title)
    }
}

extension LockController: CommandScreenObserver {
    func screen(_ screen: CommandScreen, didFollow bytes: UnsafeRawBufferPointer, titlesBefore titles: UInt) {
        switch state {
        case .active:
            noteTitle(since: titles)
            updateWarningTitle()
        case .locking:
            noteTitle(since: titles)
        case .locked:
            guard !bytes.isEmpty else { return }
            refresh.arrival.note(bytes, at: clock.wallTime())
            redrawSoon()
        case .abandoned:
            return
        }
    }

    /// A lock that waited for the output to reach a boundary engages there.
    func screenReachedBoundary(_ screen: CommandScreen) {
        if case .locking = state { engage() }
    }
}

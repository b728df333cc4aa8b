import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

/// A clock the test moves by hand.
final class ManualClock: TimeSource {
    var current = MonotonicInstant(nanoseconds: 1_000_000_000)
    func now() -> MonotonicInstant { current }
    /// 2027-01-15 08:00:00 UTC when the test starts, moving with `current`.
    func wallTime() -> time_t { 1_800_000_000 + time_t(current.nanoseconds / 1_000_000_000) }
    func advance(seconds: Double) { current = current + .seconds(seconds) }
}

/// Records everything the lock does to the terminal and the command.
final class RecordingHost: LockHost {
    var screen: [UInt8] = []
    var forwarded: [UInt8] = []
    var discards = 0
    var watched: FileDescriptor?
    var events: [String] = []
    /// How much had been shown when each lock was announced as wanted.
    var lockRequestsAfterBytes: [Int] = []
    var windowSize = WindowSize(rows: 24, columns: 80)

    var screenText: String { String(decoding: screen, as: UTF8.self) }
    var forwardedText: String { String(decoding: forwarded, as: UTF8.self) }

    func show(_ bytes: UnsafeRawBufferPointer) { screen += bytes }
    func forward(_ bytes: UnsafeRawBufferPointer) { forwarded += bytes }
    func discardTypedAhead() { discards += 1 }
    func watch(_ descriptor: FileDescriptor?) { watched = descriptor }
    func lockWillEngage() { lockRequestsAfterBytes.append(screen.count) }
    func lockDidEngage() { events.append("lock") }
    func lockDidRelease() { events.append("unlock") }
    func unlockDidFail(message: String, failures: Int) { events.append("fail \(failures)") }
    func checkIsUnavailable(reason: String) { events.append("unavailable \(reason)") }

    /// The command's screen as the session makes it, writing to `screen`.
    func commandScreen(holdLimit: Int = 1 << 20) -> CommandScreen {
        CommandScreen(size: windowSize, holdLimit: holdLimit) { [unowned self] in screen += $0 }
    }

    /// What a terminal shows after everything written to it so far.
    func terminal() -> ScreenModel {
        let model = ScreenModel(rows: Int(windowSize.rows), columns: Int(windowSize.columns))
        screen.withUnsafeBytes { model.feed($0) }
        return model
    }
}

/// What a terminal shows after `output` alone: the screen a lock must give back.
func screenAfter(_ output: String, size: WindowSize = WindowSize(rows: 24, columns: 80)) -> ScreenModel {
    let model = ScreenModel(rows: Int(size.rows), columns: Int(size.columns))
    Array(output.utf8).withUnsafeBytes { model.feed($0) }
    return model
}

/// Accepts one password; can be told the check is broken.
final class FakeAuthenticator: Authenticator {
    var password = "open sesame"
    var broken = false
    var answers: [String] = []
    /// How many attempts began.
    var attempts = 0

    final class Conversation: AuthConversation {
        let owner: FakeAuthenticator
        var step: AuthStep
        init(owner: FakeAuthenticator) {
            self.owner = owner
            step = owner.broken ? .unavailable(reason: "PAM module missing") : .asking(prompt: "Password for test:")
        }
        var readiness: FileDescriptor? { nil }
        func currentStep() -> AuthStep { step }
        func takeNotices() -> [String] { [] }
        func answer(_ secret: SecretBuffer) {
            let typed = secret.withBytes { String(decoding: $0, as: UTF8.self) }
            owner.answers.append(typed)
            step = typed == owner.password ? .succeeded : .failed(message: "Wrong password")
        }
        func cancel() {}
    }

    func beginAttempt() -> AuthConversation {
        attempts += 1
        return Conversation(owner: self)
    }
}

/// A lock driven by hand on a manual clock, as the lock's suites drive it.
protocol LockDriving {
    var clock: ManualClock { get }
}

extension LockDriving {
    func type(_ lock: LockController, _ text: String) {
        Array(text.utf8).withUnsafeBytes { lock.handleInput($0) }
    }

    func output(_ lock: LockController, _ text: String) {
        Array(text.utf8).withUnsafeBytes { lock.screen.follow($0) }
    }

    /// Moves time to the lock's next deadline and lets it act.
    func runToDeadline(_ lock: LockController) throws {
        let deadline = try #require(lock.nextDeadline)
        clock.current = max(clock.current, deadline)
        lock.handleDeadline()
    }
}

struct LockControllerTests: LockDriving {
    let clock = ManualClock()
    let host = RecordingHost()
    let authenticator = FakeAuthenticator()

    func makeLock(timeout: Double = 60, holdLimit: Int = 1 << 20, lockKey: UInt8? = nil) -> LockController {
        LockController(
            settings: LockController.Settings(
                timeout: .seconds(timeout), lockKey: lockKey, message: "Back soon",
                screenKind: .full(wipeScrollback: false),
                program: "bash", host: "testhost", user: "test"),
            authenticator: authenticator, clock: clock, host: host, screen: host.commandScreen(holdLimit: holdLimit))
    }

    /// The terminal after the unlock shows exactly what it would had the command's output
    /// `output` reached it with no lock at all.
    func expectScreenAsIfNeverLocked(_ output: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(host.terminal().snapshot() == screenAfter(output).snapshot(), sourceLocation: sourceLocation)
    }

    @Test func locksWhenTheIdleDeadlinePasses() throws {
        let lock = makeLock(timeout: 60)
        #expect(lock.nextDeadline == clock.current + .seconds(60))
        clock.advance(seconds: 59)
        lock.handleDeadline()
        #expect(!lock.isLocked)
        try runToDeadline(lock)
        #expect(lock.state == .locked(.prompting))
        #expect(host.events == ["lock"])
        #expect(host.discards == 1)
        #expect(host.screenText.contains("Locked"))
        #expect(host.screenText.contains("Password for test:"))
        #expect(host.screenText.contains("Back soon"))
    }

    @Test func typingRestartsTheTimerButTerminalRepliesDoNot() {
        let lock = makeLock(timeout: 10)
        clock.advance(seconds: 8)
        type(lock, "l")
        #expect(lock.nextDeadline == clock.current + .seconds(10))
        let typedAt = clock.current
        clock.advance(seconds: 5)
        type(lock, "\u{1b}[12;40R")
        type(lock, "\u{1b}]11;rgb:0000/0000/0000\u{1b}\\")
        #expect(lock.nextDeadline == typedAt + .seconds(10))
        #expect(host.forwardedText == "l\u{1b}[12;40R\u{1b}]11;rgb:0000/0000/0000\u{1b}\\")
    }

    @Test func aReplyInSeveralReadsIsNoActivityButAKeyInItIs() {
        let lock = makeLock(timeout: 10)
        let startedAt = clock.current
        clock.advance(seconds: 5)
        type(lock, "\u{1b}]52;c;c2VjcmV0")
        type(lock, "IGNsaXBib2FyZA==")
        type(lock, "\u{1b}\\")
        #expect(lock.nextDeadline == startedAt + .seconds(10))
        // Enter in the middle of a reply: no reply, and typed by someone.
        type(lock, "\u{1b}]52;c;c2Vj")
        clock.advance(seconds: 1)
        type(lock, "\r")
        #expect(lock.nextDeadline == clock.current + .seconds(10))
    }

    @Test func zeroTimeoutNeverLocksOnIdleButLocksOnDemand() {
        let lock = makeLock(timeout: 0)
        #expect(lock.nextDeadline == nil)
        lock.requestLock()
        #expect(lock.isLocked)
    }

    /// The guardian must hear of a lock before any of it can show, and once per lock.
    @Test func aLockIsAnnouncedBeforeAnythingOfItShows() throws {
        let lock = makeLock()
        lock.requestLock()
        lock.requestLock()
        #expect(host.lockRequestsAfterBytes == [0])
        #expect(lock.isLocked && !host.screen.isEmpty)
        type(lock, "open sesame\r")
        #expect(!lock.isLocked)
        let shown = host.screen.count
        lock.requestLock()
        #expect(host.lockRequestsAfterBytes == [0, shown])
    }

    @Test func nothingTypedWhileLockedReachesTheCommand() throws {
        let lock = makeLock()
        type(lock, "before")
        lock.requestLock()
        type(lock, "\u{03}\u{1a}\u{1c}wrong\r")
        #expect(authenticator.answers == ["wrong"])
        #expect(lock.state.isWaiting)
        type(lock, "ignored while waiting\r")
        try runToDeadline(lock)
        type(lock, "\u{1b}[Aopen sesame\rtyped after enter")
        #expect(authenticator.answers == ["wrong", "open sesame"])
        #expect(!lock.isLocked)
        // Typed ahead at the lock and again at the unlock: keys typed while
        // the password was checked go nowhere.
        #expect(host.discards == 2)
        #expect(host.forwardedText == "before")
        type(lock, "after")
        #expect(host.forwardedText == "beforeafter")
    }

    @Test func failuresBackOffDoublingUpToThirtySeconds() throws {
        let lock = makeLock()
        lock.requestLock()
        var delays: [Duration] = []
        for _ in 0..<7 {
            type(lock, "nope\r")
            let until = try #require(lock.nextDeadline)
            delays.append(until - clock.current)
            try runToDeadline(lock)
        }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30].map { .seconds($0) })
        #expect(host.events.filter { $0.hasPrefix("fail") }.count == 7)
        #expect(host.screenText.contains("7 failed attempts"))
        #expect(host.screenText.contains("Wrong password"))
        type(lock, "open sesame\r")
        #expect(!lock.isLocked)
    }

    @Test func aCheckThatCannotRunStaysLockedAndSaysWhy() throws {
        authenticator.broken = true
        let lock = makeLock()
        lock.requestLock()
        #expect(lock.isLocked)
        type(lock, "open sesame\r")
        #expect(host.events.contains("unavailable PAM module missing"))
        #expect(host.screenText.contains("PAM module missing"))
        try runToDeadline(lock)
        #expect(lock.isLocked)
        authenticator.broken = false
        type(lock, "open sesame\r")
        #expect(!lock.isLocked)
    }

    /// PAM judges the account when an attempt begins (pam_faillock's preauth): an attempt
    /// begins with the first key typed, not at lock time nor right after a failure, and
    /// what the screen said of the last attempt goes as the next begins.
    @Test func anAttemptBeginsWithTheFirstKeyTyped() throws {
        let lock = makeLock()
        lock.requestLock()
        #expect(host.screenText.contains("Password for test:"))
        #expect(authenticator.attempts == 0)
        type(lock, "wrong\r")
        #expect(authenticator.attempts == 1)
        #expect(host.screenText.contains("Wrong password"))
        try runToDeadline(lock)
        #expect(authenticator.attempts == 1, "none begins when the pause ends")
        host.screen.removeAll()
        type(lock, "o")
        #expect(authenticator.attempts == 2)
        #expect(host.screenText.contains("Password for test:"))
        #expect(!host.screenText.contains("Wrong password"))
        type(lock, "pen sesame\r")
        #expect(authenticator.attempts == 2)
        #expect(!lock.isLocked)
    }

    @Test func lockWaitsForTheEndOfAnEscapeSequence() {
        let lock = makeLock()
        output(lock, "text \u{1b}[3")
        lock.requestLock()
        #expect(lock.state == .locking(giveUpAt: clock.current + LockController.boundaryPatience))
        // Keys still reach the command, so it is not locked yet; but a lock is due.
        #expect(!lock.isLocked)
        #expect(lock.isLockingOrLocked)
        output(lock, "1mred\u{1b}[0m")
        #expect(host.screenText.hasPrefix("text \u{1b}[31m"))
        #expect(lock.isLocked)
        #expect(!host.screenText.contains("red"))
        type(lock, "open sesame\r")
        expectScreenAsIfNeverLocked("text \u{1b}[31mred\u{1b}[0m")
    }

    @Test func aSequenceThatNeverEndsIsCutShort() throws {
        let lock = makeLock()
        output(lock, "\u{1b}]2;endless title")
        lock.requestLock()
        #expect(!lock.state.isLocked)
        try runToDeadline(lock)
        #expect(lock.state == .locked(.prompting))
        // CAN and ST: every terminal, tmux included, is back in ground.
        #expect(host.screenText.contains("endless title\u{18}\u{1b}\\"))
        // tmux applied the cut title: the lock hides it.
        #expect(host.screenText.contains("\u{1b}[22;0t\u{1b}]0;Locked\u{1b}\\"))
    }

    /// The lock's title is `Locked`, never empty (mlterm ignores an empty one) and never
    /// the message; the unlock pops the command's and sets it again as the command has it
    /// then, for a terminal without a title stack (issue 27, finding 6).
    @Test func theLockShowsANeutralTitleAndTheUnlockGivesBackTheCommands() {
        let lock = makeLock()
        output(lock, "\u{1b}]2;secret.txt - vim\u{07}")
        host.screen = []
        lock.requestLock()
        let locked = host.screenText
        // The command set the window title alone (OSC 2): the icon name is the terminal's,
        // which a terminal without a title stack could not get back, so it is left alone.
        #expect(locked.hasPrefix("\u{1b}[22;0t\u{1b}]2;Locked\u{1b}\\"))
        #expect(!locked.contains("Back soon\u{1b}\\"))
        #expect(TitleStackModel(host.screen).title == "Locked")
        output(lock, "\u{1b}]2;other.txt - vim\u{07}")
        type(lock, "open sesame\r")
        #expect(!lock.isLocked)
        #expect(host.screenText.contains("\u{1b}[23;0t\u{1b}]2;other.txt - vim\u{1b}\\"))
        // With a title stack and without one (its pushes and pops ignored).
        #expect(TitleStackModel(host.screen).title == "other.txt - vim")
        let withoutStack = host.screenText.replacing("\u{1b}[22;0t", with: "").replacing("\u{1b}[23;0t", with: "")
        #expect(TitleStackModel(Array(withoutStack.utf8)).title == "other.txt - vim")
    }

    /// A command that set no title keeps the terminal's own: the lock leaves the title alone.
    @Test func aCommandThatSetNoTitleLeavesTheTitleAlone() {
        let lock = makeLock()
        output(lock, "plain")
        lock.requestLock()
        #expect(!host.screenText.contains("\u{1b}]0;") && !host.screenText.contains("\u{1b}[22;0t"))
    }

    /// An empty title the command set comes back empty: a terminal without a title stack
    /// (Ghostty, urxvt, st, konsole) would keep `Locked`.
    @Test func anEmptyTitleTheCommandSetComesBackEmpty() {
        let lock = makeLock()
        output(lock, "\u{1b}]2;secret.txt - vim\u{07}\u{1b}]2;\u{07}")
        lock.requestLock()
        type(lock, "open sesame\r")
        #expect(!lock.isLocked)
        #expect(TitleStackModel(host.screen).title == "")
        let withoutStack = host.screenText.replacing("\u{1b}[22;0t", with: "").replacing("\u{1b}[23;0t", with: "")
        #expect(TitleStackModel(Array(withoutStack.utf8)).title == "")
    }

    /// APC strings (kitty's graphics, a pane title to tmux) hide the title at the lock, but
    /// are no title of the command's to set again: the terminal's own comes back by the pop.
    @Test func anAPCLeavesNoTitleToSetAgain() {
        let lock = makeLock()
        output(lock, "\u{1b}_Gi=1;AAAA\u{1b}\\")
        lock.requestLock()
        type(lock, "open sesame\r")
        #expect(!lock.isLocked)
        #expect(TitleStackModel(host.screen).title == "outer")
    }

    @Test func aDCSEndedOnlyForWilliamsKeepsTheLockWaiting() throws {
        // tmux is still inside the DCS after ESC x and after CAN.
        let lock = makeLock()
        output(lock, "\u{1b}Pq\u{1b}x\u{18}")
        lock.requestLock()
        #expect(!lock.state.isLocked)
        output(lock, "more\u{1b}\\after")
        #expect(lock.isLocked)
        #expect(!host.screenText.contains("after"))
    }

    @Test func aCutSequenceEndsWholeAfterTheUnlock() throws {
        let lock = makeLock()
        output(lock, "text \u{1b}[3")
        output(lock, "8;5;1")
        lock.requestLock()
        try runToDeadline(lock)
        #expect(lock.isLocked)
        output(lock, "96mred")
        type(lock, "open sesame\r")
        #expect(!lock.isLocked)
        // The model followed the sequence through the cut: the repaint shows its effect.
        expectScreenAsIfNeverLocked("text \u{1b}[38;5;196mred")
    }

    @Test func aSequenceStillOpenAtTheUnlockIsWrittenAgainAfterTheRepaint() throws {
        let lock = makeLock()
        output(lock, "\u{1b}[1mbold\u{1b}]2;tit")
        output(lock, "le")
        lock.requestLock()
        try runToDeadline(lock)
        output(lock, " still")
        type(lock, "open sesame\r")
        #expect(host.screenText.hasSuffix("\u{1b}]2;title still"))
        output(lock, "\u{7}done")
        expectScreenAsIfNeverLocked("\u{1b}[1mbold\u{1b}]2;title still\u{7}done")
        #expect(host.terminal().title == Array("title still".utf8))
    }

    @Test func controlsInsideASequenceLeftOpenAreNotCarriedOutTwice() throws {
        let lock = makeLock()
        lock.requestLock()
        output(lock, "ab\u{1b}[?100\t")
        type(lock, "open sesame\r")
        output(lock, "4hc")
        expectScreenAsIfNeverLocked("ab\u{1b}[?100\t4hc")
    }

    @Test func aSequenceTooLongToKeepIsNotWrittenAgain() throws {
        let lock = makeLock()
        output(lock, "\u{1b}Pq" + String(repeating: "#", count: 5000))
        lock.requestLock()
        try runToDeadline(lock)
        type(lock, "open sesame\r")
        let shownAtUnlock = host.screen.count
        output(lock, "\u{1b}\\done")
        #expect(!host.screenText.dropFirst(shownAtUnlock).contains("###"))
        #expect(host.terminal().text(row: 0).hasPrefix("done"))
    }

    @Test func outputWhileLockedIsNeverShownAndTheCommandNeverWaits() throws {
        let lock = makeLock(holdLimit: 200)
        output(lock, "before\r\n")
        lock.requestLock()
        let shownAtLock = host.screen.count
        let lines = (1...100).map { "line \($0)\r\n" }.joined()
        output(lock, lines)
        #expect(!host.screenText.dropFirst(shownAtLock).contains("line 1"))
        try runToDeadline(lock)
        #expect(host.screenText.contains("earlier lines will miss the scrollback"))
        type(lock, "open sesame\r")
        expectScreenAsIfNeverLocked("before\r\n" + lines)
        let unlocked = String(decoding: host.screen.dropFirst(shownAtLock), as: UTF8.self)
        // Past the limit the oldest lines go, and a line in the scrollback says how many.
        #expect(unlocked.contains("earlier lines of output did not fit --hold-limit"))
        #expect(!unlocked.contains("line 50\u{1b}"))
        #expect(unlocked.contains("line 77"))
    }

    @Test func unlockRestoresTheModesTheLockTurnedOff() {
        let lock = makeLock()
        output(lock, "\u{1b}[?1000h\u{1b}[?1006h\u{1b}[>1u\u{1b}]2;my title\u{07}")
        lock.requestLock()
        let locked = host.screenText
        #expect(locked.contains("\u{1b}[?1049h"))
        #expect(locked.contains("\u{1b}[22;0t"))
        #expect(locked.contains("\u{1b}[?1000l"))
        #expect(locked.contains("\u{1b}[?1006l"))
        #expect(locked.contains("\u{1b}[>0u"))
        host.screen = []
        type(lock, "open sesame\r")
        let unlocked = host.screenText
        #expect(unlocked.contains("\u{1b}[?1049l"))
        #expect(unlocked.contains("\u{1b}[?1000h"))
        #expect(unlocked.contains("\u{1b}[?1006h"))
        #expect(unlocked.contains("\u{1b}[<1u"))
        #expect(unlocked.contains("\u{1b}[23;0t"))
    }

    @Test func aFullScreenCommandComesBackWithoutRedrawing() {
        let lock = makeLock()
        let fullScreen =
            "shell\r\n\u{1b}[?1049h\u{1b}[?25l\u{1b}[5;10H\u{1b}[44mfull screen\u{1b}[m\u{1b}[2;3r\u{1b}[?6h"
        output(lock, fullScreen)
        lock.requestLock()
        output(lock, "\u{1b}[Hmoved")
        type(lock, "open sesame\r")
        expectScreenAsIfNeverLocked(fullScreen + "\u{1b}[Hmoved")
        #expect(!host.terminal().modes.cursorVisible)
        #expect(host.terminal().isAlternateScreen)
    }

    @Test func theLockScreenIsNotLeftOnTheAlternateScreenForLater() {
        let lock = makeLock()
        output(lock, "main")
        lock.requestLock()
        type(lock, "open sesame\r")
        // Mode 47 shows the alternate screen as it was, uncleared.
        output(lock, "\u{1b}[?47h")
        expectScreenAsIfNeverLocked("main\u{1b}[?47h")
    }

    @Test func theWorkingDirectoryIsHiddenWhileLockedAndBackAfter() {
        let lock = makeLock()
        output(lock, "\u{1b}]7;file://host/home/me/SECRET-PROJECT\u{1b}\\")
        lock.requestLock()
        #expect(host.terminal().workingDirectory == [])
        type(lock, "open sesame\r")
        #expect(host.terminal().workingDirectory == Array("file://host/home/me/SECRET-PROJECT".utf8))
    }

    @Test func queriesAskedWhileLockedAreAskedAfterTheRepaint() {
        let lock = makeLock()
        lock.requestLock()
        let shownAtLock = host.screen.count
        output(lock, "\u{1b}[6n")
        #expect(!host.screenText.dropFirst(shownAtLock).contains("\u{1b}[6n"))
        type(lock, "open sesame\r")
        let afterRepaint = host.screenText.dropFirst(shownAtLock).split(
            separator: "\u{1b}[?2026l", omittingEmptySubsequences: false)
        #expect(afterRepaint.count > 1)
        #expect(afterRepaint.last?.contains("\u{1b}[6n") == true)
    }

    @Test func lockKeyLocksAndIsNeverForwarded() {
        let lock = makeLock(lockKey: 0x1d)
        type(lock, "ab\u{1d}cd")
        #expect(host.forwardedText == "ab")
        #expect(lock.isLocked)
    }

    @Test func resizeRedrawsTheLockScreen() {
        let lock = makeLock()
        lock.requestLock()
        host.screen = []
        host.windowSize = WindowSize(rows: 10, columns: 30)
        lock.handleResize()
        #expect(host.screenText.contains("Locked"))
    }

    @Test func abandoningClearsBothScreensAndDropsHeldOutput() {
        let lock = makeLock()
        lock.requestLock()
        output(lock, "held secret")
        host.screen = []
        lock.abandon()
        #expect(lock.state == .abandoned)
        #expect(!lock.isLockingOrLocked)
        #expect(!host.screenText.contains("held secret"))
        #expect(host.screenText.contains("\u{1b}[?1049l\u{1b}[1;1H\u{1b}[2J"))
    }

    @Test func anAbandonedLockDoesNothingMore() {
        let lock = makeLock()
        lock.abandon()
        #expect(lock.state == .abandoned)
        #expect(lock.nextDeadline == nil)
        lock.requestLock()
        #expect(lock.state == .abandoned)
        #expect(host.screen.isEmpty)
    }
}

extension LockState {
    var isWaiting: Bool {
        if case .locked(.waiting) = self { return true }
        return false
    }
}

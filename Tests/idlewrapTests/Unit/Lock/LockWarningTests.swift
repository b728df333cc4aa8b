import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

/// The window title as a terminal with a title stack keeps it: follows pushes, pops and
/// OSC 0/2 in the bytes written to the terminal.
struct TitleStackModel {
    var title = "outer"
    var stack: [String] = []

    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var rest = Substring(text)
        while let escape = rest.firstIndex(of: "\u{1b}") {
            rest = rest[escape...]
            if rest.hasPrefix("\u{1b}[22;0t") {
                stack.append(title)
                rest = rest.dropFirst(7)
            } else if rest.hasPrefix("\u{1b}[23;0t") {
                if let saved = stack.popLast() { title = saved }
                rest = rest.dropFirst(7)
            } else if rest.hasPrefix("\u{1b}]0;") || rest.hasPrefix("\u{1b}]2;") {
                let body = rest.dropFirst(4)
                let end = body.firstIndex { $0 == "\u{07}" || $0 == "\u{1b}" } ?? body.endIndex
                title = String(body[..<end])
                rest = body[end...].dropFirst()
            } else {
                rest = rest.dropFirst()
            }
        }
    }
}

struct LockWarningTests: LockDriving {
    let clock = ManualClock()
    let host = RecordingHost()
    let authenticator = FakeAuthenticator()

    func makeLock(timeout: Double = 60, warn: Double = 10, bellOnExit: Bool = false) -> LockController {
        LockController(
            settings: LockController.Settings(
                timeout: .seconds(timeout), lockKey: 0x1d, message: nil,
                screenKind: .full(wipeScrollback: false), program: "bash", host: "testhost", user: "test",
                warn: .seconds(warn),
                bellOnExit: bellOnExit),
            authenticator: authenticator, clock: clock, host: host, screen: host.commandScreen())
    }

    /// BELs the warning rang: after its title (the command's own titles may end in BEL).
    var bells: Int { host.screenText.split(separator: " s\u{1b}\\\u{07}", omittingEmptySubsequences: false).count - 1 }

    @Test func theWarningCountsDownInTheTitleThenTheLockFollows() throws {
        let lock = makeLock(timeout: 60, warn: 3)
        let start = clock.current
        // Nothing wakes before the warning starts.
        #expect(lock.nextDeadline == start + .seconds(57))
        try runToDeadline(lock)
        #expect(host.screenText == "\u{1b}[22;0t\u{1b}]0;idlewrap: locking in 3 s\u{1b}\\\u{07}")
        #expect(lock.nextDeadline == start + .seconds(58))
        try runToDeadline(lock)
        #expect(host.screenText.hasSuffix("\u{1b}]0;idlewrap: locking in 2 s\u{1b}\\"))
        try runToDeadline(lock)
        #expect(host.screenText.hasSuffix("\u{1b}]0;idlewrap: locking in 1 s\u{1b}\\"))
        #expect(lock.nextDeadline == start + .seconds(60))
        #expect(!lock.isLocked)
        try runToDeadline(lock)
        #expect(lock.isLocked)
        #expect(bells == 1)
        // The countdown was popped before the lock screen, and the stack is balanced.
        let model = TitleStackModel(host.screen)
        #expect(model.stack.isEmpty)
        #expect(model.title == "outer")
        #expect(host.screenText.contains("\u{1b}[23;0t\u{1b}[2l\u{1b}[12h\u{1b}[?9001l\u{1b}[?1049h"))
        // Nothing but titles and the bell before the lock screen: the command's screen is untouched.
        let beforeLock = host.screenText.split(separator: "\u{1b}[?1049h", omittingEmptySubsequences: false)[0]
        #expect(!beforeLock.contains("\u{1b}[H") && !beforeLock.contains("\u{1b}[2J"))
    }

    @Test func aKeyCancelsTheWarningAndReachesTheCommand() throws {
        let lock = makeLock(timeout: 60, warn: 10)
        try runToDeadline(lock)
        clock.advance(seconds: 4)
        lock.handleDeadline()
        #expect(host.screenText.hasSuffix("locking in 6 s\u{1b}\\"))
        type(lock, "x")
        #expect(host.forwardedText == "x")
        #expect(host.screenText.hasSuffix("\u{1b}[23;0t"))
        let model = TitleStackModel(host.screen)
        #expect(model.stack.isEmpty && model.title == "outer")
        // The timer restarted: the next wake-up is the next warning's start.
        #expect(lock.nextDeadline == clock.current + .seconds(50))
        #expect(!lock.isLocked)
    }

    @Test func terminalRepliesDoNotCancelTheWarning() throws {
        let lock = makeLock(timeout: 60, warn: 10)
        try runToDeadline(lock)
        let shown = host.screen
        type(lock, "\u{1b}[12;40R")
        #expect(host.screen == shown)
        #expect(host.forwardedText == "\u{1b}[12;40R")
        try runToDeadline(lock)
        #expect(host.screenText.hasSuffix("locking in 9 s\u{1b}\\"))
    }

    @Test func theTitleWaitsForTheCommandsSequenceToEnd() throws {
        let lock = makeLock(timeout: 60, warn: 10)
        output(lock, "\u{1b}[38;5;")
        try runToDeadline(lock)
        #expect(host.screenText == "\u{1b}[38;5;")
        output(lock, "1mred")
        #expect(host.screenText == "\u{1b}[38;5;1mred\u{1b}[22;0t\u{1b}]0;idlewrap: locking in 10 s\u{1b}\\\u{07}")
        // A half character holds the pop back too.
        ([0xE2, 0x82] as [UInt8]).withUnsafeBytes { lock.screen.follow($0) }
        type(lock, "k")
        #expect(host.screen.suffix(5) == [0x1B, 0x5C, 0x07, 0xE2, 0x82])
        ([0xAC] as [UInt8]).withUnsafeBytes { lock.screen.follow($0) }
        #expect(host.screenText.hasSuffix("€\u{1b}[23;0t"))
        #expect(TitleStackModel(host.screen).stack.isEmpty)
    }

    @Test func aTitleTheCommandSetsDuringTheWarningIsTheOneRestored() throws {
        let lock = makeLock(timeout: 60, warn: 10)
        output(lock, "\u{1b}]2;before\u{07}")
        try runToDeadline(lock)
        #expect(TitleStackModel(host.screen).title == "idlewrap: locking in 10 s")
        output(lock, "text\u{1b}]2;vim one\u{07}more\u{1b}]0;vim two\u{1b}\\end")
        // The countdown stays in the title...
        #expect(TitleStackModel(host.screen).title == "idlewrap: locking in 10 s")
        // ...with the command's latest title saved under it instead of the old one.
        #expect(TitleStackModel(host.screen).stack == ["vim two"])
        try runToDeadline(lock)
        // ...and a title split across reads counts as well.
        output(lock, "\u{1b}]2;vim ")
        output(lock, "three\u{07}")
        type(lock, "q")
        let model = TitleStackModel(host.screen)
        #expect(model.title == "vim three")
        #expect(model.stack.isEmpty)
        #expect(bells == 1)
    }

    @Test func theLockAfterAWarningRestoresTheCommandsLatestTitle() throws {
        let lock = makeLock(timeout: 60, warn: 2)
        authenticator.password = "pw"
        try runToDeadline(lock)
        output(lock, "\u{1b}]2;latest\u{07}")
        try runToDeadline(lock)
        try runToDeadline(lock)
        #expect(lock.isLocked)
        // The lock hid the command's title on the stack, and shows its own.
        #expect(TitleStackModel(host.screen).title == "Locked")
        type(lock, "pw\r")
        #expect(!lock.isLocked)
        let model = TitleStackModel(host.screen)
        #expect(model.title == "latest")
        #expect(model.stack.isEmpty)
    }

    @Test func onDemandLocksDoNotWarn() {
        let lock = makeLock(timeout: 60, warn: 10)
        lock.requestLock()
        #expect(lock.isLocked)
        #expect(!host.screenText.contains("locking in"))
        #expect(bells == 0)
    }

    @Test func aWarningLongerThanTheTimeoutLastsTheTimeout() throws {
        let lock = makeLock(timeout: 5, warn: 30)
        #expect(lock.nextDeadline == clock.current)
        try runToDeadline(lock)
        #expect(host.screenText.contains("locking in 5 s"))
    }

    @Test func withoutATimeoutThereIsNoWarningAndNoWakeUp() {
        let lock = makeLock(timeout: 0, warn: 10)
        #expect(lock.nextDeadline == nil)
    }

    @Test func aLockKeyDuringTheWarningLocksWithTheTitleBalanced() throws {
        let lock = makeLock(timeout: 60, warn: 10)
        try runToDeadline(lock)
        type(lock, "ab\u{1d}")
        #expect(lock.isLocked)
        #expect(host.forwardedText == "ab")
        #expect(TitleStackModel(host.screen).stack.isEmpty)
    }

    @Test func theSessionEndingDuringTheWarningPopsTheTitle() throws {
        let lock = makeLock(timeout: 60, warn: 10)
        try runToDeadline(lock)
        host.screen += lock.endWarning()
        #expect(TitleStackModel(host.screen).stack.isEmpty)
        #expect(lock.endWarning().isEmpty)
    }
}

struct LockArrivalTests {
    let clock = ManualClock()
    let host = RecordingHost()
    let authenticator = FakeAuthenticator()

    func makeLock(bellOnExit: Bool = false) -> LockController {
        LockController(
            settings: LockController.Settings(
                timeout: .seconds(60), lockKey: nil, message: nil, screenKind: .full(wipeScrollback: false),
                program: "bash", host: "testhost", user: "test", bellOnExit: bellOnExit),
            authenticator: authenticator, clock: clock, host: host, screen: host.commandScreen())
    }

    func output(_ lock: LockController, _ text: String) {
        Array(text.utf8).withUnsafeBytes { lock.screen.follow($0) }
    }

    @Test func theLockScreenCountsLinesAndShowsNoneOfThem() throws {
        let lock = makeLock()
        lock.requestLock()
        let lockedAt = clock.current
        // Nothing arrives: nothing wakes.
        #expect(lock.nextDeadline == nil)
        clock.advance(seconds: 120)
        output(lock, "secret one\nsecret two\nsecret th")
        let time = LocalTime.hourAndMinute(clock.wallTime())
        #expect(host.screenText.contains("New output: 3 lines, last at \(time)"))
        output(lock, "ree\n")
        // Drawn a moment ago: the next drawing waits a second.
        #expect(lock.nextDeadline == clock.current + .seconds(1))
        clock.advance(seconds: 1)
        lock.handleDeadline()
        #expect(host.screenText.contains("New output: 4 lines") == false)
        #expect(host.screenText.split(separator: "New output: 3 lines", omittingEmptySubsequences: false).count == 3)
        #expect(lock.nextDeadline == nil)
        #expect(!host.screenText.contains("secret"))
        #expect(clock.current > lockedAt)
    }

    @Test func aChattyCommandRedrawsAtMostOnceASecond() {
        let lock = makeLock()
        lock.requestLock()
        let drawings = { host.screenText.split(separator: "Locked", omittingEmptySubsequences: false).count - 1 }
        let before = drawings()
        for _ in 0..<50 {
            output(lock, "x\n")
            clock.advance(seconds: 0.05)
            if let due = lock.nextDeadline, due <= clock.current { lock.handleDeadline() }
        }
        // 2.5 s of output: at most one drawing a second, and the last count is shown.
        #expect(drawings() - before <= 3)
        clock.advance(seconds: 1)
        lock.handleDeadline()
        #expect(host.screenText.contains("New output: 50 lines"))
    }

    @Test func aCommandFinishingWhileLockedIsShownWithOneBell() throws {
        let lock = makeLock(bellOnExit: true)
        lock.requestLock()
        clock.advance(seconds: 5)
        lock.commandDidExit()
        #expect(host.screenText.contains("Command finished at \(LocalTime.hourAndMinute(clock.wallTime()))"))
        #expect(host.screen.filter { $0 == 0x07 }.count == 1)
        lock.commandDidExit()
        #expect(host.screen.filter { $0 == 0x07 }.count == 1)
    }

    @Test func noBellWithoutBellOnExitNorWhenUnlocked() {
        let quiet = makeLock()
        quiet.requestLock()
        quiet.commandDidExit()
        #expect(!host.screenText.contains("Command finished at"))
        clock.advance(seconds: 1)
        quiet.handleDeadline()
        #expect(host.screenText.contains("Command finished at"))
        #expect(!host.screen.contains(0x07))
        let unlockedHost = RecordingHost()
        let unlocked = LockController(
            settings: LockController.Settings(
                timeout: .seconds(60), lockKey: nil, message: nil, screenKind: .full(wipeScrollback: false),
                program: "bash", host: "testhost", user: "test", bellOnExit: true),
            authenticator: authenticator, clock: clock, host: unlockedHost, screen: unlockedHost.commandScreen())
        unlocked.commandDidExit()
        #expect(unlockedHost.screen.isEmpty)
    }

    @Test func theNotesGoBeforeTheProgramInSmallWindows() {
        var content = LockScreenContent(
            program: "mysql", host: "db1", since: "2026-12-01 04:00:00", message: "Back soon", failures: 0,
            status: nil, prompt: "Password:")
        content.arrival = "New output: 2 lines, last at 04:05"
        content.finished = "Command finished at 04:06"
        #expect(
            LockScreen.layout(content, rows: 20).map(\.text) == [
                "Locked", "mysql on db1", "since 2026-12-01 04:00:00", "Back soon", "Command finished at 04:06",
                "New output: 2 lines, last at 04:05", "", "Password:",
            ])
        #expect(
            LockScreen.layout(content, rows: 4).map(\.text) == [
                "Locked", "Command finished at 04:06", "New output: 2 lines, last at 04:05", "Password:",
            ])
    }
}

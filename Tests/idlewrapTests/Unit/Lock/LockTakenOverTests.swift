import PTYKit
import Testing

@testable import idlewrap

/// The lock when the session moves to another terminal (`--attach --take`).
extension LockControllerTests {
    @Test func aHalfTypedAnswerStaysWithTheTerminalItWasTypedOn() throws {
        let lock = makeLock()
        lock.requestLock()
        type(lock, "open")
        lock.terminalReplaced()
        type(lock, " sesame\r")
        #expect(authenticator.answers == [" sesame"])
        #expect(lock.isLocked)
        try runToDeadline(lock)
        type(lock, "open sesame\r")
        #expect(!lock.isLocked)
    }

    @Test func aPauseAfterAFailureGoesOnOnTheNewTerminal() throws {
        let lock = makeLock()
        lock.requestLock()
        type(lock, "wrong\r")
        let until = lock.nextDeadline
        lock.terminalReplaced()
        #expect(lock.state.isWaiting)
        #expect(lock.nextDeadline == until)
        type(lock, "open sesame\r")
        #expect(authenticator.answers == ["wrong"])
    }

    @Test func theTerminalLetGoOfIsLeftClearedOffTheLockScreen() {
        let lock = makeLock()
        output(lock, "secret output\r\n\u{1b}[?1000h")
        lock.requestLock()
        let leaving = OutputBuffer(capacity: 256)
        lock.appendLetGo(to: leaving)
        leaving.withUnsafeBytes { host.screen += $0 }
        let shown = host.terminal()
        #expect(!shown.isAlternateScreen)
        #expect(!shown.modes.isSet(privateMode: 1000))
        #expect(shown.modes.cursorVisible)
        #expect((0..<shown.rows).allSatisfy { shown.text(row: $0).allSatisfy(\.isWhitespace) })
        // Still locked, for the next terminal.
        #expect(lock.isLocked)
        lock.terminalReplaced()
        type(lock, "open sesame\r")
        #expect(!lock.isLocked)
    }
}

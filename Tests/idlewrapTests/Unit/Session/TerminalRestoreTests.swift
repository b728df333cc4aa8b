import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

/// What the terminal gets at the end of a session: the command's modes turned off, and a
/// lock screen still showing left with everything the lock pushed popped.
struct TerminalRestoreTests {
    let host = RecordingHost()

    func lock(after output: String) -> LockController {
        let lock = LockController(
            settings: LockController.Settings(
                timeout: .seconds(60), lockKey: nil, message: nil, screenKind: .full(wipeScrollback: false),
                program: "sh",
                host: "testhost", user: "test"),
            authenticator: FakeAuthenticator(), clock: ManualClock(), host: host, screen: host.commandScreen())
        Array(output.utf8).withUnsafeBytes { lock.screen.follow($0) }
        return lock
    }

    func restore(_ lock: LockController) -> String {
        let buffer = OutputBuffer()
        lock.appendRestoreAtExit(to: buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    @Test func aTerminalInItsUsualStateGetsNothing() {
        #expect(restore(lock(after: "plain text\r\n\u{1b}[31mred\u{1b}[0m")) == "")
        #expect(restore(lock(after: "\u{1b}[?1003h\u{1b}[?1003l\u{1b}[?25l\u{1b}[?25h")) == "")
    }

    @Test func kittyPushesArePoppedOnTheScreenTheyWereMadeOn() {
        #expect(
            restore(lock(after: "\u{1b}[>1u\u{1b}[?1049h\u{1b}[>3u\u{1b}[>5u"))
                == "\u{1b}[<2u\u{1b}[?1049l\u{1b}[<1u")
    }

    @Test func leavingALockScreenPopsWhatTheLockPushed() {
        let lock = lock(after: "\u{1b}]0;secret\u{7}\u{1b}kname\u{1b}\\\u{1b}[>1u")
        lock.requestLock()
        let bytes = restore(lock)
        #expect(bytes.hasPrefix("\u{1b}[1;1H\u{1b}[2J\u{1b}[23;0t\u{1b}k\u{1b}\\"))
        // The lock's own push and the command's, on the main screen where both were made.
        #expect(bytes.hasSuffix("\u{1b}[?1049l\u{1b}[1;1H\u{1b}[2J\u{1b}[0m\u{1b}[<2u\u{1b}[?25h"))
    }

    @Test func kittyFlagsLeftOnTheAlternateScreenAreTurnedOffThereForThePassword() {
        let lock = lock(after: "\u{1b}[?1049h\u{1b}[>1u\u{1b}[?1049l")
        lock.requestLock()
        // The lock screen is on the alternate screen: keys must come as plain bytes there.
        #expect(host.terminal().isAlternateScreen)
        #expect(host.terminal().modes.kittyKeyboardFlags == 0)
        Array("open sesame\r".utf8).withUnsafeBytes { lock.handleInput($0) }
        #expect(!lock.isLocked)
        #expect(!host.terminal().isAlternateScreen)
        #expect(host.terminal().modes.kittyKeyboardFlagsByScreen == (0, 1))
        #expect(host.terminal().modes.kittyKeyboardDepth == (0, 1))
    }

    @Test func anAbandonedLockLeavesNothingMoreToUndo() {
        let lock = lock(after: "\u{1b}[?1000h\u{1b}[>1u")
        lock.requestLock()
        lock.abandon()
        #expect(host.screenText.hasSuffix("\u{1b}[<2u\u{1b}[?25h"))
        #expect(restore(lock) == "")
    }
}

import PTYKit
import Testing

@testable import idlewrap

struct TerminalRestoreTests {
    func modes(after output: String) -> TerminalModes {
        var parser = OutputParser()
        Array(output.utf8).withUnsafeBytes { parser.feed($0) }
        return parser.modes
    }

    func restore(_ output: String, lockIsShown: Bool = false) -> String {
        String(
            decoding: TerminalRestore.bytes(
                leaving: modes(after: output), lockIsShown: lockIsShown, wipeScrollback: false), as: UTF8.self)
    }

    @Test func aTerminalInItsUsualStateGetsNothing() {
        #expect(restore("plain text\r\n\u{1b}[31mred\u{1b}[0m") == "")
        #expect(restore("\u{1b}[?1003h\u{1b}[?1003l\u{1b}[?25l\u{1b}[?25h") == "")
    }

    @Test func kittyPushesArePoppedOnTheScreenTheyWereMadeOn() {
        #expect(
            restore("\u{1b}[>1u\u{1b}[?1049h\u{1b}[>3u\u{1b}[>5u")
                == "\u{1b}[<2u\u{1b}[?1049l\u{1b}[<1u")
    }

    @Test func leavingALockScreenPopsWhatTheLockPushed() {
        let bytes = restore("\u{1b}]0;secret\u{7}\u{1b}kname\u{1b}\\\u{1b}[>1u", lockIsShown: true)
        #expect(bytes.hasPrefix("\u{1b}[H\u{1b}[2J\u{1b}[<u\u{1b}[23;0t\u{1b}k\u{1b}\\"))
        #expect(bytes.hasSuffix("\u{1b}[?1049l\u{1b}[H\u{1b}[2J\u{1b}[0m\u{1b}[<1u\u{1b}[?25h"))
    }
}

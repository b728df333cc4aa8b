import PTYKit
import Testing

@testable import idlewrap

@Suite("Text made safe for the terminal")
struct TerminalSafeTextTests {
    @Test("C0 controls and DEL in caret notation, C1 controls escaped, the rest as is")
    func rendering() {
        #expect(terminalSafe("plain text, é, 日本") == "plain text, é, 日本")
        #expect(terminalSafe("a\nb\u{1B}[31m\u{7F}") == "a^Jb^[[31m^?")
        #expect(terminalSafe("\u{0}\u{1F}") == "^@^_")
        #expect(terminalSafe("x\u{9B}2J\u{80}") == "x\\u{9B}2J\\u{80}")
        #expect(terminalSafe("\u{A0}") == "\u{A0}")
    }

    @Test("the lock screen and error messages show the same text for the same input")
    func oneRenderingEverywhere() throws {
        let hostile = "back\nsoon\u{1B}]0;title\u{7}\u{9B}"
        let content = LockScreenContent(
            program: "cat", host: "host", since: "now", message: hostile, failures: 0, status: nil, prompt: "Password:")
        let screen = String(decoding: LockScreen.draw(content, size: WindowSize(rows: 24, columns: 80)), as: UTF8.self)
        #expect(screen.contains(terminalSafe(hostile)))
        #expect(!screen.contains("\n") && !screen.contains("\u{7}") && !screen.contains("\u{9B}"))
        #expect(
            throws: UsageError(
                message: "invalid key '\(terminalSafe(hostile))' for -k: expected a control key such as ^] or ^\\")
        ) {
            try Options.parse(["-k", hostile], environment: { _ in nil })
        }
    }
}

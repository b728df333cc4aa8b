import PTYKit
import Testing

@testable import idlewrap

/// The plain lock screen's text: every line at the first drawing, padded to the rows; then
/// only what is new, the prompt last again; nothing when nothing is new.
@Suite struct PlainLockScreenTests {
    let size = WindowSize(rows: 10, columns: 20)
    let content = LockScreenContent(
        program: "vim", host: "box", since: "2026-12-06 20:00:00", message: nil, failures: 0, status: nil,
        prompt: "Password for alice:")

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func onlyTerminalsSaidToBeDumb() {
        #expect(PlainLockScreen.isNeeded(term: "dumb"))
        #expect(!PlainLockScreen.isNeeded(term: "xterm-256color"))
        #expect(!PlainLockScreen.isNeeded(term: nil))
    }

    @Test func firstDrawingFillsTheRowsFromALineOfItsOwn() {
        let drawn = text(PlainLockScreen.draw(content, size: size, after: nil))
        #expect(
            drawn == "\r\n" + String(repeating: "\r\n", count: 5)
                + "Locked\r\nvim on box\r\nsince 2026-12-06 ...\r\n\r\nPassword for alice: ")
        #expect(!drawn.contains("\u{1b}"))
    }

    @Test func laterDrawingsWriteOnlyWhatIsNew() {
        var failed = content
        failed.failures = 1
        failed.status = "Wrong password"
        failed.prompt = ""
        #expect(
            text(PlainLockScreen.draw(failed, size: size, after: content)) == "\r\n1 failed attempt\r\nWrong password")
        var asking = failed
        asking.prompt = content.prompt
        #expect(text(PlainLockScreen.draw(asking, size: size, after: failed)) == "\r\nPassword for alice: ")
        #expect(PlainLockScreen.draw(asking, size: size, after: asking).isEmpty)
        var cleared = asking
        cleared.status = nil
        #expect(PlainLockScreen.draw(cleared, size: size, after: asking).isEmpty)
    }
}

import Testing

@testable import PTYKit

/// The repaint writes each thing once, and nothing the terminal has already (issue 29).
@Suite("Screen repaint waste")
struct ScreenRepaintWasteTests {
    private func occurrences(_ needle: String, in bytes: [UInt8]) -> Int {
        String(decoding: bytes, as: UTF8.self).split(separator: needle, omittingEmptySubsequences: false).count - 1
    }

    private func model(_ input: String) -> ScreenModel {
        screenEverySplit(bytes(input), rows: 5, columns: 20)
    }

    @Test func synchronizedOutputBeginsAndEndsOnce() {
        let plain = model("text").repaint()
        #expect(occurrences("\u{1b}[?2026h", in: plain) == 1 && occurrences("\u{1b}[?2026l", in: plain) == 1)
        let held = ScreenModel(rows: 3, columns: 10)
        held.startHoldingScrollback(limit: 1024)
        held.feed((0..<10).map { "line \($0)\r\n" }.joined())
        let unlock = OutputBuffer()
        held.appendHeldScrollbackAndRepaint(to: unlock, notice: Array("N earlier".utf8))
        #expect(occurrences("\u{1b}[?2026h", in: unlock.bytes) == 1)
        #expect(occurrences("\u{1b}[?2026l", in: unlock.bytes) == 1)
    }

    @Test(arguments: [
        ("text", 1, 0), (#"\e[2;4r\e[?6htext"#, 1, 1), (#"\e[?6h\e7\e[?6l\e[?1049h\e[?6htext"#, 2, 1),
    ])
    func originModeIsWrittenOnlyWhereItChanges(input: String, resets: Int, sets: Int) {
        let repaint = model(input).repaint()
        #expect(occurrences("\u{1b}[?6l", in: repaint) == resets, "\(String(decoding: repaint, as: UTF8.self))")
        #expect(occurrences("\u{1b}[?6h", in: repaint) == sets)
    }

    /// Until the program sets, clears or resets a tab stop they are the terminal's own.
    @Test func tabStopsAreWrittenOnlyOnceTheProgramChangedThem() {
        #expect(occurrences("\u{1b}[3g", in: model("a\tb").repaint()) == 0)
        #expect(occurrences("\u{1b}H", in: model("a\tb").repaint()) == 0)
        #expect(occurrences("\u{1b}[3g", in: model(#"\e[3g"#).repaint()) == 1)
        // Back to the defaults while the terminal may still have others.
        let reset = model(#"\e[3g\ec"#).repaint()
        #expect(occurrences("\u{1b}[3g", in: reset) == 1 && occurrences("\u{1b}H", in: reset) == 2)
    }
}

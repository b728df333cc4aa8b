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

    /// The last: the cursor DECSC saved in origin mode is set on the alternate screen (its
    /// one slot, as tmux's), before the tab stops, which are set without.
    @Test(arguments: [
        ("text", 1, 0), (#"\e[2;4r\e[?6htext"#, 1, 1), (#"\e[?6h\e7\e[?6l\e[?1049h\e[?6htext"#, 3, 2),
    ])
    func originModeIsWrittenOnlyWhereItChanges(input: String, resets: Int, sets: Int) {
        let repaint = model(input).repaint()
        #expect(occurrences("\u{1b}[?6l", in: repaint) == resets, "\(String(decoding: repaint, as: UTF8.self))")
        #expect(occurrences("\u{1b}[?6h", in: repaint) == sets)
    }

    /// The terminal got every byte before the lock: the unlock writes the tab stops only
    /// where they changed while locked; a repaint from any state writes them all.
    @Test func theUnlockWritesTabStopsOnlyWhereTheyChangedWhileLocked() {
        func unlock(_ before: String, _ whileLocked: String) -> [UInt8] {
            let model = ScreenModel(rows: 5, columns: 20)
            model.feed(before)
            model.startHoldingScrollback(limit: 1024)
            model.feed(whileLocked)
            let buffer = OutputBuffer()
            model.appendHeldScrollbackAndRepaint(to: buffer)
            return buffer.bytes
        }
        #expect(occurrences("\u{1b}[3g", in: unlock(#"a\tb\e[3g\e[5G\eH"#, "c")) == 0)
        #expect(occurrences("\u{1b}[3g", in: unlock("", #"\e[3g"#)) == 1)
        let reset = unlock(#"\e[3g"#, #"\ec"#)
        #expect(occurrences("\u{1b}[3g", in: reset) == 1 && occurrences("\u{1b}H", in: reset) == 2)
        #expect(occurrences("\u{1b}[3g", in: model("a").repaint()) == 1)
    }
}

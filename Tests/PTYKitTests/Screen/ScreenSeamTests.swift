import Testing

@testable import PTYKit
@testable import ScreenTestSupport

/// What the lock and the session ask of the model: input modes off and on, the restore at
/// exit, the known state, the held scrollback, resizes and queries.
@Suite("Screen seams")
struct ScreenSeamTests {
    private func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).map { $0 == "\u{1B}" ? #"\e"# : String($0) }.joined()
    }

    private func model(_ output: String, rows: Int = 5, columns: Int = 10) -> ScreenModel {
        let model = ScreenModel(rows: rows, columns: columns)
        model.feed(output)
        return model
    }

    private func bytes(_ write: (OutputBuffer) -> Void) -> [UInt8] {
        let buffer = OutputBuffer()
        write(buffer)
        return buffer.bytes
    }

    /// LockInputModes' cases: the same bytes, but for the kitty pop, written `CSI < 1 u`.
    static let inputModeCases: [(output: String, off: String, on: String)] = [
        (#"\e[?1h"#, #"\e[?1l"#, #"\e[?1h"#),
        (#"\e[?1000;1006h"#, #"\e[?1000l\e[?1006l"#, #"\e[?1000h\e[?1006h"#),
        (#"\e[?1000h\e[?1003h\e[?1015h"#, #"\e[?1003l\e[?1015l"#, #"\e[?1003h\e[?1015h"#),
        (#"\e[?9h"#, #"\e[?9l"#, #"\e[?9h"#),
        (#"\e[?1001h\e[?1005h"#, #"\e[?1001l\e[?1005l"#, #"\e[?1001h\e[?1005h"#),
        (#"\e[?1002h\e[?1016h"#, #"\e[?1002l\e[?1016l"#, #"\e[?1002h\e[?1016h"#),
        (#"\e[?1004h"#, #"\e[?1004l"#, #"\e[?1004h"#),
        (#"\e[?2004h"#, #"\e[?2004l"#, #"\e[?2004h"#),
        (#"\e="#, #"\e>"#, #"\e="#),
        (#"\e[>1u"#, #"\e[>0u"#, #"\e[<1u"#),
        (#"\e[=3u"#, #"\e[>0u"#, #"\e[<1u"#),
        (#"\e[>1u\e[>0u"#, "", ""),
        (#"\e[>4;2m"#, #"\e[>4;0m"#, #"\e[>4;2m"#),
        // Issue 27, finding 4: the modes that keep a password out or show it, and the other
        // key modes of xterm, Windows Terminal, kitty, foot and WezTerm.
        (#"\e[?9001h"#, #"\e[?9001l"#, #"\e[?9001h"#),
        (#"\e[2h"#, #"\e[2l"#, #"\e[2h"#),
        (#"\e[12l"#, #"\e[12h"#, #"\e[12l"#),
        (#"\e[12h\e[2l"#, "", ""),
        (#"\e[?1051h"#, #"\e[?1051l"#, #"\e[?1051h"#),
        (#"\e[?1050h\e[?1061h"#, #"\e[?1061l"#, #"\e[?1061h"#),
        (#"\e[?1052h\e[?1050l"#, "", ""),
        (#"\e[?1053;1060h"#, #"\e[?1060l"#, #"\e[?1060h"#),
        (#"\e[?2031;2048h"#, #"\e[?2031l\e[?2048l"#, #"\e[?2031h\e[?2048h"#),
        (#"\e[?66h"#, #"\e>"#, #"\e="#),
        (#"\e[2;4;12;20h\e[12l\e[?9001h"#, #"\e[?9001l\e[2l\e[12h"#, #"\e[?9001h\e[2h\e[12l"#),
        (
            #"\e[?1049h\e[?1h\e=\e[?1002;1006;1004;2004h\e[>5u\e[>4;2m"#,
            #"\e[?1l\e[?1002l\e[?1004l\e[?1006l\e[?2004l\e>\e[>0u\e[>4;0m"#,
            #"\e[?1h\e[?1002h\e[?1004h\e[?1006h\e[?2004h\e=\e[<1u\e[>4;2m"#
        ),
    ]

    @Test func inputModesOffAndOnAgain() {
        #expect(bytes(ScreenModes.initial.appendInputModesOff).isEmpty)
        for testCase in Self.inputModeCases {
            let model = model(testCase.output)
            let before = model.modes
            let off = bytes(before.appendInputModesOff)
            let on = bytes(before.appendInputModesOn)
            #expect(text(off) == testCase.off, "\(testCase.output)")
            #expect(text(on) == testCase.on, "\(testCase.output)")
            // Fed back as output they turn everything off, then lead back to the same modes.
            model.feed(off)
            #expect(bytes(model.modes.appendInputModesOff).isEmpty, "\(testCase.output)")
            #expect(model.modes.alternateScreen == before.alternateScreen)
            model.feed(on)
            #expect(model.modes == before, "\(testCase.output)")
        }
    }

    /// KAM, SRM and win32-input-mode go to their usual state at every lock, whatever the
    /// model believes (XTRESTORE can turn them on unseen); each once.
    @Test func theModesThatLockAPasswordOutAreOffAtEveryLock() {
        #expect(text(bytes(ScreenModes.initial.appendLockOutModesOff)) == #"\e[2l\e[12h\e[?9001l"#)
        let model = model(#"\e[2h\e[12l\e[?9001h"#)
        #expect(bytes(model.modes.appendLockOutModesOff).isEmpty)
        #expect(text(bytes(model.modes.appendInputModesOff)) == #"\e[?9001l\e[2l\e[12h"#)
        // Resets: RIS all three; DECSTR KAM and the private modes, not SRM (as xterm).
        model.feed(#"\e[!p"#)
        #expect(!model.modes.keyboardLocked && model.modes.localEcho && !model.modes.isSet(privateMode: 9001))
        model.feed(#"\e[2h\ec"#)
        #expect(!model.modes.keyboardLocked && !model.modes.localEcho)
        // What leaves them on at the end is undone.
        #expect(text(bytes(self.model(#"\e[2h\e[12l\e[?9001h"#).modes.appendRestoreAtExit)) == #"\e[?9001l\e[2l\e[12h"#)
    }

    @Test func restoreAtExit() {
        #expect(bytes(model("plain text\r\n\u{1b}[31mred\u{1b}[0m").modes.appendRestoreAtExit).isEmpty)
        #expect(bytes(model(#"\e[?1003h\e[?1003l\e[?25l\e[?25h"#).modes.appendRestoreAtExit).isEmpty)
        #expect(
            text(bytes(model(#"\e[>1u\e[?1049h\e[>3u\e[>5u"#).modes.appendRestoreAtExit))
                == #"\e[<2u\e[?1049l\e[<1u"#)
        let left = model(#"\e[?1049h\e[?1000;1006h\e=\e[>4;1m\e[?25l"#)
        #expect(
            text(bytes(left.modes.appendRestoreAtExit))
                == #"\e[?1000l\e[?1006l\e>\e[>4m\e[?1049l\e[?25h"#)
        left.feed(bytes(left.modes.appendRestoreAtExit))
        #expect(left.modes == ScreenModes.initial)
    }

    @Test func theKnownStateUndoesWhatGarblesALockScreen() {
        let model = model(#"\e[2;3r\e[?6h\e[?69h\e[2;4s\e[4h\e(0\e)0\x0E\e[1;7;41m\e]8;;http://x\e\\\e[?7l"#)
        model.feed(bytes { ScreenModel.appendKnownState(autowrap: true, to: $0) })
        model.feed("Locked")
        #expect(model.lines[0] == "Locked")
        let state = model.state
        #expect(
            !state.gridModes.origin && !state.gridModes.insert && !state.margins.leftRightMode
                && state.gridModes.autowrap)
        #expect(
            state.margins.top == 0 && state.margins.bottom == 4 && state.margins.left == 0 && state.margins.right == 9)
        #expect(state.charsets.g0 == .ascii && state.charsets.g1 == .ascii && !state.charsets.shifted)
        #expect(model.style(0, 0) == .plain)
        model.feed(bytes { ScreenModel.appendKnownState(autowrap: false, to: $0) })
        #expect(!model.state.gridModes.autowrap)
    }

    @Test func theRepaintIsInsideSynchronizedOutputAndNeverClearsWithED2() {
        let repaint = text(model(#"hello\r\nworld\e[H"#).repaint())
        #expect(repaint.hasPrefix(#"\e[?2026h"#))
        #expect(repaint.hasSuffix(#"\e[?2026l"#))
        #expect(!repaint.contains(#"\e[2J"#))
        #expect(repaint.contains(#"\e[K"#))
        // After it, the character printed last printed again where it is, for a REP.
        #expect(text(model("hello\r\nworld").repaint()).hasSuffix(#"\e[?2026l\e[2;5Hd"#))
    }

    @Test func uncertainWidthsArePlacedAbsolutely() {
        // U+2605 (ambiguous) and an emoji: whatever width a terminal gives them, the next
        // cell is placed with CHA.
        let repaint = text(model("a★b😀c").repaint())
        #expect(repaint.contains("★" + #"\e[3G"# + "b"))
        #expect(repaint.contains("😀" + #"\e[6G"# + "c"))
        #expect(!text(model("a漢b").repaint()).contains(#"\e[4G"#))
    }

    @Test func thePendingWrapIsReprinted() {
        let model = model("0123456789")
        let repaint = text(model.repaint())
        #expect(repaint.contains(#"\e[1;10H9"#))
        let fresh = ScreenModel(rows: 5, columns: 10)
        fresh.feed(model.repaint())
        #expect(fresh.cursor == (0, 9, true))
        fresh.feed("X")
        #expect(fresh.lines[1] == "X")
        let wide = ScreenModel(rows: 5, columns: 10)
        wide.feed("01234567漢")
        let again = ScreenModel(rows: 5, columns: 10)
        again.feed(wide.repaint())
        #expect(again.cursor == (0, 9, true))
        #expect(again.lines[0] == "01234567漢")
    }

    /// A wrap pending at a right margin, in the cursor DECSC saved before 1049: the repaint
    /// of the alternate screen keeps left/right margin mode, which leaving would drop it
    /// (fuzz).
    @Test func aWrapPendingAtAMarginInTheCursorSavedBefore1049Survives() {
        let model = ScreenModel(rows: 6, columns: 11)
        model.feed(ScreenTestSupport.bytes("\u{1B}[?69h\u{1B}[;6sabcdef\u{1B}7\u{1B}[?1049h"))
        let fresh = ScreenModel(rows: 6, columns: 11)
        fresh.feed(model.repaint())
        #expect(fresh.snapshot() == model.snapshot().withoutInputModes)
        #expect(fresh.snapshot().saved.state.pendingWrap)
    }

    /// The cursor 1049 saved comes back through the repaint from either screen, and so
    /// does DECSC's one slot: on the main screen with 1049's left behind, on an alternate
    /// screen entered by 47 after 1049 saved one, and by 47 and then 1049 (which saves
    /// nothing there).
    @Test(arguments: [
        "\u{1B}[2;2H\u{1B}[31m\u{1B}[?1049h\u{1B}[?1049l\u{1B}[m\u{1B}[4;4H\u{1B}7",
        "\u{1B}[2;2H\u{1B}[?1049h\u{1B}[?1049l\u{1B}[3;3H\u{1B}[?47h\u{1B}[5;5H\u{1B}7",
        "\u{1B}[2;2H\u{1B}[?1049h\u{1B}[?1049l\u{1B}[?47h\u{1B}[3;3H\u{1B}[?1049h\u{1B}[4;4H\u{1B}7",
    ])
    func bothSavedCursorsSurviveTheRepaint(_ input: String) {
        let model = ScreenModel(rows: 6, columns: 11)
        model.feed(ScreenTestSupport.bytes(input))
        let fresh = ScreenModel(rows: 6, columns: 11)
        fresh.feed(model.repaint())
        #expect(fresh.snapshot() == model.snapshot().withoutInputModes)
        #expect(model.snapshot().savedBy1049.cursor != nil)
    }

    /// A wrap pending in a saved cursor that a resize takes away from the edge is dropped,
    /// as the cursor's own is: no repaint could bring it back there (fuzz).
    @Test func aResizeDropsASavedWrapNoLongerAtTheEdge() {
        let model = ScreenModel(rows: 5, columns: 1)
        model.feed(ScreenTestSupport.bytes("t\u{1B}[?1049h"))
        model.resize(rows: 6, columns: 38)
        #expect(model.snapshot().savedBy1049.cursor?.state.pendingWrap == false)
        let fresh = ScreenModel(rows: 6, columns: 38)
        fresh.feed(model.repaint())
        #expect(fresh.snapshot() == model.snapshot().withoutInputModes)
    }

    // MARK: - Scrollback

    /// Plays `bytes` into a model of the same size that holds what scrolls off, as a
    /// terminal's history would.
    private func terminalHistory(after bytes: [UInt8], rows: Int, columns: Int) -> (ScreenModel, [UInt8]) {
        let terminal = ScreenModel(rows: rows, columns: columns)
        terminal.feed(ScreenTestSupport.bytes(#"stale\r\nlock screen"#))
        terminal.startHoldingScrollback(limit: 1 << 20)
        terminal.feed(bytes)
        let history = OutputBuffer()
        terminal.state.history.hold?.write(into: history)
        return (terminal, history.bytes)
    }

    @Test func heldLinesReachTheHistoryOnceAndInOrder() {
        let model = model(#"before\r\n"#)
        model.startHoldingScrollback(limit: 1 << 20)
        var expected = ScreenModel(rows: 5, columns: 10)
        expected.startHoldingScrollback(limit: 1 << 20)
        let output = (1...30).map { "line \($0)\r\n" }.joined() + "\u{1b}[31mred\u{1b}[m tail"
        model.feed(output)
        expected = {
            let reference = ScreenModel(rows: 5, columns: 10)
            reference.feed(#"before\r\n"#)
            reference.startHoldingScrollback(limit: 1 << 20)
            reference.feed(output)
            return reference
        }()
        #expect(model.heldScrollback.lines == 27)
        let unlock = OutputBuffer()
        model.appendHeldScrollbackAndRepaint(to: unlock)
        #expect(model.heldScrollback.lines == 0)
        let (terminal, history) = terminalHistory(after: unlock.bytes, rows: 5, columns: 10)
        let held = OutputBuffer()
        expected.state.history.hold?.write(into: held)
        #expect(text(history) == text(held.bytes))
        #expect(String(decoding: history, as: UTF8.self).hasPrefix("before"))
        expectSameScreen(terminal, expected, "after the unlock")
    }

    @Test func wrappedLinesStayWrappedInTheHistory() {
        let model = model("")
        model.startHoldingScrollback(limit: 1 << 20)
        model.feed("0123456789abcdefghij\r\n1\r\n2\r\n3\r\n4\r\n5")
        #expect(model.heldScrollback.lines == 2)
        let unlock = OutputBuffer()
        model.appendHeldScrollbackAndRepaint(to: unlock)
        let (_, history) = terminalHistory(after: unlock.bytes, rows: 5, columns: 10)
        #expect(text(history).hasPrefix("0123456789abcdefghij\r\n"))
    }

    @Test func theHoldIsBoundedAndCountsWhatItDrops() {
        let model = ScreenModel(rows: 24, columns: 80)
        model.startHoldingScrollback(limit: 4096)
        let line = Array(String(repeating: "x", count: 70).utf8) + [0x0D, 0x0A]
        let chunk = [UInt8]((0..<100).flatMap { _ in line })
        for _ in 0..<100 { model.feed(chunk) }
        let held = model.heldScrollback
        #expect(held.bytes <= 4096)
        #expect(held.lines > 0 && held.dropped > 0)
        #expect(held.lines + held.dropped == 10_000 - 23)
        // A line larger than the whole hold is dropped and counted.
        let tiny = ScreenModel(rows: 2, columns: 80)
        tiny.startHoldingScrollback(limit: 8)
        tiny.feed(#"a long line\r\nb\r\nc"#)
        #expect(tiny.heldScrollback.lines == 0 && tiny.heldScrollback.dropped == 1)
    }

    @Test func onlyFullScreenScrollsOfTheMainScreenAreHeld() {
        let model = model("")
        model.startHoldingScrollback(limit: 1 << 20)
        model.feed(#"\e[2;5r\e[5;1H\n\n\e[r\e[?1049h\e[5;1H\n\n\e[?1049l"#)
        #expect(model.heldScrollback.lines == 0)
        model.feed(#"\e[5;1H\n\e[2S"#)
        #expect(model.heldScrollback.lines == 3)
        model.discardHeldScrollback()
        #expect(model.heldScrollback.lines == 0)
    }

    // MARK: - Resize

    /// REP right after a resize repeats nothing: this one left the cursor on the character
    /// printed last, where printing it again would leave a wrap pending, so no repaint
    /// could make it the terminal's last (fuzz, lock-controller).
    @Test func repeatRightAfterAResizeRepeatsNothing() {
        let model = model("loata[", rows: 24, columns: 80)
        model.resize(rows: 27, columns: 6)
        let terminal = ScreenModel(rows: 27, columns: 6)
        terminal.feed(model.repaint())
        for screen in [model, terminal] { screen.feed(#"\e[3b"#) }
        #expect(model.lines[0] == "loata[")
        #expect(model.cursor == (0, 5, false))
        expectSameScreen(terminal, model, "REP after the repaint")
    }

    @Test func shrinkingKeepsTheCursorRowAndPushesTopRowsOut() {
        let model = model(#"1\r\n2\r\n3\r\n4\r\n5"#)
        model.startHoldingScrollback(limit: 1 << 20)
        model.resize(rows: 3, columns: 10)
        #expect(model.lines == ["3", "4", "5"])
        #expect(model.cursor == (2, 1, false))
        #expect(model.heldScrollback.lines == 2)
        // Rows below the cursor go first.
        let top = self.model(#"1\r\n2\r\n3\e[H"#)
        top.resize(rows: 2, columns: 10)
        #expect(top.lines == ["1", "2"])
        #expect(top.cursor == (0, 0, false))
        // Growing adds blank rows; columns are cut, not reflowed (as xterm).
        top.resize(rows: 4, columns: 3)
        #expect(top.lines == ["1", "2", "", ""])
        let wide = self.model("0123456789abc")
        wide.resize(rows: 5, columns: 4)
        #expect(wide.lines[0] == "0123" && wide.lines[1] == "abc")
        wide.resize(rows: 5, columns: 12)
        wide.feed("\u{1b}[1;11HZ")
        #expect(wide.lines[0] == "0123      Z")
    }

    @Test func resizeCutsAWideCharacterInHalfAndKeepsTheAlternateScreen() {
        let model = model(#"abc\e[?1049h\e[H0123漢"#)
        model.resize(rows: 5, columns: 5)
        #expect(model.lines[0] == "0123")
        #expect(model.isAlternateScreen)
        model.feed(#"\e[?1049l"#)
        #expect(model.lines[0] == "abc")
        let repainted = ScreenModel(rows: 5, columns: 5)
        repainted.feed(model.repaint())
        expectSameScreen(repainted, model, "after a resize")
    }

    // MARK: - Queries

    @Test func queriesAreHeldWhileAsked() {
        let model = model("")
        let queries = [
            #"\e[5n"#, #"\e[6n"#, #"\e[?6n"#, #"\e[c"#, #"\e[0c"#, #"\e[>c"#, #"\e[=c"#, #"\e[?2004$p"#, #"\e[4$p"#,
            #"\e[>q"#, #"\e[14t"#, #"\e[16t"#, #"\e[18t"#, #"\e[?u"#, #"\e]4;1;?\e\\"#, #"\e]10;?\e\\"#,
            #"\e]11;?\e\\"#,
            #"\e]12;?\e\\"#, #"\e]52;c;?\e\\"#, #"\eP$qm\e\\"#, #"\eP+q544e\e\\"#,
        ]
        model.feed(queries.joined())
        #expect(model.queryCount == queries.count)
        #expect(model.takeHeldQueries().isEmpty)
        model.isHoldingQueries = true
        model.feed(#"\e]11;?\a"# + queries.joined() + #"\e[31m\e]0;title\a\e[1;2H\e]4;1;rgb:00/00/00\a"#)
        #expect(model.takeHeldQueries() == ScreenTestSupport.bytes(#"\e]11;?\e\\"# + queries.joined()))
        #expect(model.takeHeldQueries().isEmpty)
    }
}

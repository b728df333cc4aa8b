import Testing

@testable import PTYKit

/// The repaint keeps the rows of a wrapped line one line (issue 29): a row the line goes on
/// from is written through its last column and the next row's first character wraps, as
/// tmux's redraw does, so that the terminal sets its wrap flag again (copying, tmux's
/// `capture-pane -J` and reflow read it); never where the wrap would scroll the screen.
@Suite("Screen repaint of wrapped lines")
struct ScreenRepaintWrapTests {
    private func model(_ input: String, rows: Int = 5) -> ScreenModel {
        screenEverySplit(bytes(input), rows: rows, columns: 10)
    }

    private func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Each row's wrap flag, on the screen shown and on the main screen behind it.
    private func wrapFlags(_ model: ScreenModel) -> [[Bool]] {
        [model.state.grid, model.state.mainGrid].map { grid in (0..<grid.rows).map { grid.isWrapped($0) } }
    }

    @Test func aWrappedRowIsWrittenThroughItsLastColumnAndTheNextFollowsWithoutACursorMove() {
        let repaint = text(model("0123456789abc").repaint())
        #expect(repaint.contains("0123456789abc"), "\(repaint.debugDescription)")
        #expect(!text(model("0123456789\r\nabc").repaint()).contains("0123456789abc"))
    }

    /// An SGR between the rows keeps the wrap pending; no EL ends a wrapped row.
    @Test func aStyleChangeAtTheWrapIsWrittenBetweenTheRows() {
        let repaint = text(model(#"\e[31m0123456789\e[44mabc"#).repaint())
        #expect(repaint.contains("0123456789\u{1b}[0;31;44mabc"), "\(repaint.debugDescription)")
    }

    /// The wide character went on to the next row by itself and left the last cell blank:
    /// the row is written short of it, the cell erased, and the character wraps again.
    @Test func aWideCharacterThatDidNotFitWrapsByItselfAgain() {
        let repaint = text(model("012345678中x").repaint())
        #expect(repaint.contains("012345678\u{1b}[K中x"), "\(repaint.debugDescription)")
        // A narrow character after a blank last cell is written after it.
        let blankEdge = text(model(#"0123456789abc\e[1;10H\e[1X"#).repaint())
        #expect(blankEdge.contains("012345678 abc"), "\(blankEdge.debugDescription)")
    }

    /// A held line does the same when its next row is rendered after it (in one batch).
    @Test func aHeldLineEndingInAWideCharacterThatDidNotFitWrapsByItselfAgain() {
        let held = ScreenModel(rows: 3, columns: 10)
        held.startHoldingScrollback(limit: 1 << 16)
        held.feed("012345678中x\r\n1\r\n2\r\n3\r\n4")
        let unlock = OutputBuffer()
        held.appendHeldScrollbackAndRepaint(to: unlock)
        #expect(text(unlock.bytes).contains("012345678\u{1b}[K中x"), "\(text(unlock.bytes).debugDescription)")
    }

    /// The last cell a wide character that did not fit left blank has more in its style
    /// than a background (underline, its colour, a link: the second half of a wide
    /// character cut there), which EL would drop: the blank is printed as a space, and the
    /// character wraps from it, in the repaint (of every split, fed to a messy model) and
    /// after held lines (fuzz, screen-model: the underline colour on 4 by 12).
    @Test(arguments: [
        #"\e[58;5;9m01234567中\e[9Gx中"#, #"\e[4m01234567中\e[9G\e[mx中"#,
        #"\e]8;;http://x\e\\01234567中\e[9G\e]8;;\e\\x中"#,
    ])
    func aStyledBlankBeforeAWideCharacterThatDidNotFitIsPrinted(input: String) {
        let original = model(input)
        #expect(original.lines == ["01234567x", "中", "", "", ""])
        let held = ScreenModel(rows: 3, columns: 10)
        held.startHoldingScrollback(limit: 1 << 16)
        held.feed(bytes("a\r\nb\r\nc\r\n" + input))
        let unlock = OutputBuffer()
        held.appendHeldScrollbackAndRepaint(to: unlock)
        let terminal = ScreenModel(rows: 3, columns: 10)
        terminal.feed(unlock.bytes)
        expectSameScreen(terminal, held, "the held scrollback and repaint")
        // A blank with a background alone is still erased.
        let erased = text(model(#"\e[41m01234567中\e[9G\e[mx中"#).repaint())
        #expect(erased.contains("x\u{1b}[0;41m\u{1b}[K\u{1b}[0m中"), "\(erased.debugDescription)")
    }

    /// The repaint fed to a screen model as the terminal gives every row its wrap flag
    /// back, whatever the command left: autowrap off, a region in origin mode, left and
    /// right margins, the alternate screen shown, and a wrapped row on a blank one.
    @Test(arguments: [
        "0123456789abcdefghij0123456789XY\r\nshort\r\n0123456789ABCDEFGHIJ",
        #"\e[31m0123456789\e[44mabcdefghij\e[m0123"#,
        #"012345678中x\r\n012345678\e[7m中\e[m"#,
        #"0123456789abc\e[?7l"#,
        #"0123456789abc\e[2;4r\e[?6h\e[2;2H"#,
        #"0123456789abc\e[?69h\e[3;6s\e[3;3H"#,
        #"0123456789abc\e[?1049h\e[1;1H0123456789abcdef0123456789\e[2;1H\e[2K"#,
        #"0123456789abc\e[2K"#,
    ])
    func theTerminalGetsEveryWrapFlagBack(input: String) {
        let original = model(input)
        let terminal = ScreenModel(rows: 5, columns: 10)
        terminal.feed(original.repaint())
        #expect(wrapFlags(terminal) == wrapFlags(original), "\(input)")
        #expect(terminal.lines == original.lines, "\(input)")
    }

    /// The terminal's rows wrapped before (the lock screen, output before the lock): a full
    /// row that did not wrap, which gets no EL after it, is erased before it is written,
    /// also where it ends a wrapped line (it follows a pending wrap there).
    @Test(arguments: ["0123456789\r\n0123456789\r\nabc", "0123456789abcdefghij\r\n0123456789"])
    func aWrapFlagTheTerminalHadFromBeforeIsCleared(input: String) {
        let original = model(input)
        let terminal = ScreenModel(rows: 5, columns: 10)
        terminal.feed(String(repeating: "x", count: 49))
        terminal.feed(original.repaint())
        #expect(wrapFlags(terminal) == wrapFlags(original), "\(input)")
        #expect(terminal.lines == original.lines)
    }

    /// The last row's line went on below the screen (scrolled down since): printing on
    /// would scroll the terminal, so that one flag is not written; nothing scrolls.
    @Test func theLastRowDoesNotWrapOffTheScreen() {
        let original = model(#"top\r\n\e[3;1H0123456789abc\e[T"#, rows: 3)
        #expect(original.state.grid.isWrapped(2))
        let terminal = ScreenModel(rows: 3, columns: 10)
        terminal.feed(original.repaint())
        #expect(terminal.lines == original.lines)
        #expect(!terminal.state.grid.isWrapped(2))
    }
}

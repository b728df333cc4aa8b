import Testing

@testable import PTYKit

/// A model started mid-screen (`start(atRow:column:)`): the rows above are the terminal's,
/// and a terminal that shows them gets them back from the repaint untouched.
struct ScreenStartPositionTests {
    /// A terminal (itself a model) showing OLD0...OLD5 with its cursor at the start of row 3.
    func terminal(rows: Int = 6) -> ScreenModel {
        let terminal = ScreenModel(rows: rows, columns: 10)
        terminal.feed((0..<rows).map { "OLD\($0)" }.joined(separator: "\r\n"))
        terminal.feed(#"\e[4;1H\e[J"#)
        return terminal
    }

    func started(atRow row: Int = 3, rows: Int = 6) -> ScreenModel {
        let model = ScreenModel(rows: rows, columns: 10)
        model.start(atRow: row, column: 0)
        return model
    }

    /// `output` to both, then the model repainted onto the terminal as it is.
    func repaintedOnto(_ terminal: ScreenModel, _ model: ScreenModel) {
        let buffer = OutputBuffer()
        model.appendHeldScrollbackAndRepaint(to: buffer)
        terminal.feed(buffer.bytes)
    }

    @Test func theCursorStartsThereAndTheRowsAboveAreLeftAlone() {
        let model = started()
        #expect(model.cursor == (3, 0, false))
        #expect(model.rowsBeforeStart == 3)
        model.feed("a\r\nb")
        #expect(model.rowsBeforeStart == 3)
        let shown = terminal()
        shown.feed("a\r\nb")
        let expected = shown.lines
        // The terminal's screen is spoiled below the start, as a lock screen would.
        shown.feed(#"\e[4;1H\e[JLOCKED\e[1;1H"#)
        repaintedOnto(shown, model)
        #expect(shown.lines == expected)
        #expect(shown.lines[0] == "OLD0")
        #expect(shown.cursor == model.cursor)
    }

    @Test func scrollingMovesTheStartUp() {
        let model = started()
        model.feed("1\r\n2\r\n3\r\n4")
        #expect(model.rowsBeforeStart == 2)
        model.feed("\r\n\r\n\r\n")
        #expect(model.rowsBeforeStart == 0)
    }

    @Test(arguments: [
        #"\e[1;1H"#, #"\e[H"#, #"\e[2H"#, #"\e[A"#, #"\e[2J"#, #"\e[1J"#, #"\e[2d"#, #"\ec"#, #"\e#8"#,
        #"\eM\eM\eM\eM"#,
    ])
    func reachingOrErasingTheRowsAboveMakesThemTheProgramsOwn(sequence: String) {
        let model = started()
        model.feed(sequence)
        #expect(model.rowsBeforeStart < 3)
    }

    @Test func aScrollDownIntoThemEndsThemAtTheRegionsTop() {
        let model = started()
        model.feed(#"\e[T"#)
        #expect(model.rowsBeforeStart == 0)
    }

    /// Left and right margins set on the alternate screen (margins are not per screen), the
    /// cursor brought back below the terminal's rows by leaving it: a scroll of the region
    /// moves cells across those rows between the margins, so they are the program's from the
    /// region's top. The cursor is put between the margins first: outside them a line feed
    /// at the bottom margin scrolls nothing (xterm's xtermIndex).
    @Test func aScrollBetweenLeftAndRightMarginsEndsThemAtTheRegionsTop() {
        let model = started()
        model.feed(#"\e[?1049h\e[2;6r\e[?69h\e[2;8s\e[?1049l"#)
        #expect(model.rowsBeforeStart == 3)
        model.feed(#"\e[2B\e[3G\n"#)
        #expect(model.rowsBeforeStart == 1)
    }

    /// DECSED erases nothing in the model (it keeps no protected cells, and tmux ignores it):
    /// the rows stay the terminal's.
    @Test(arguments: [#"\e[?1J"#, #"\e[?2J"#])
    func selectiveEraseLeavesThem(sequence: String) {
        let model = started()
        model.feed(sequence)
        #expect(model.rowsBeforeStart == 3)
    }

    @Test func whatHappensOnTheAlternateScreenLeavesThemAlone() {
        let model = started()
        model.feed(#"\e[?1049h\e[1;1Hfull screen\e[2J\e[?1049l"#)
        #expect(model.rowsBeforeStart == 3)
        #expect(model.cursor.row == 3)
    }

    @Test func resizingCutsThemAsTheRows() {
        let model = started()
        model.feed("1\r\n2")
        // The cursor on row 4 of 6; 3 rows go, those above it first: 2 of the 3 kept rows.
        model.resize(rows: 3, columns: 10)
        #expect(model.rowsBeforeStart == 1)
        #expect(model.lines == ["", "1", "2"])
    }

    /// Lines scrolled off while held: the terminal's own rows are scrolled into its history
    /// by the repaint, and the screen matches a terminal that saw everything.
    @Test func theTerminalsRowsScrolledWhileHeldAreScrolledOnTheTerminal() {
        let model = started()
        model.feed("x\r\n")
        let shown = terminal()
        shown.feed("x\r\n")
        let reference = terminal()
        reference.feed("x\r\n")
        model.startHoldingScrollback(limit: 1 << 16)
        let later = "1\r\n2\r\n3\r\n"
        model.feed(later)
        reference.feed(later)
        #expect(model.rowsBeforeStart == 1)
        #expect(model.heldScrollback.lines == 0)
        repaintedOnto(shown, model)
        #expect(shown.lines == reference.lines)
        #expect(shown.lines[0] == "OLD2")
        #expect(shown.cursor == reference.cursor)
    }

    /// Past the terminal's rows the program's own lines are held as before, after them.
    @Test func heldLinesOfTheProgramFollowTheTerminalsRows() {
        let model = started()
        model.startHoldingScrollback(limit: 1 << 16)
        model.feed((1...8).map { "L\($0)" }.joined(separator: "\r\n"))
        #expect(model.rowsBeforeStart == 0)
        #expect(model.heldScrollback.lines == 2)
        let shown = terminal()
        repaintedOnto(shown, model)
        #expect(shown.lines == (3...8).map { "L\($0)" })
    }
}

// Where the program started: a program seldom starts on an empty screen with the cursor at
// the top left. A shell run from a prompt on row 15 starts there, below what the terminal
// showed before it. `ScreenModel.start(atRow:column:)` puts the cursor there; the rows above
// it are the terminal's, which the model never saw: it keeps them as a count of rows at the
// top of the main screen (`history.rowsBeforeStart`) that the repaint leaves as they are. A terminal
// with an alternate screen keeps them while another screen shows, so they come back
// exactly; on one without, whatever was drawn over them stays there.
//
// The count only ever shrinks, and always errs towards painting a row: a row the model
// takes for the terminal's while the program wrote on it would come back wrong, one it
// paints while it was the terminal's only comes back blank. So:
// - scrolling the rows up (LF at the bottom, IND, NEL, SU, autowrap) moves them up, as on
//   the terminal; those that leave the top are gone (or, while the scrollback is held,
//   counted, so the repaint scrolls the terminal's own copies into its history);
// - scrolling down into them (RI, SD) and a scroll inside them or with left and right
//   margins end them at the region's top;
// - the cursor reaching one of them (CUP, CUU, VPA, DECRC, DECSTBM's home, RIS, ...) ends
//   them at its row, and ED 1 or 2 ends them all: the cursor never enters them otherwise
//   (printing, LF and CR do not move it up), so no character is written on them unseen;
// - only the main screen has them; a resize cuts them as it cuts the rows.

extension ScreenState {
    /// The cursor starts at `row`, `column` (0-based, clamped to the screen), and the rows
    /// above it are the terminal's.
    mutating func start(atRow row: Int, column: Int) {
        cursor.y = min(max(row, 0), rows - 1)
        cursor.x = min(max(column, 0), columns - 1)
        cursor.pendingWrap = false
        history.rowsBeforeStart = onAlternate ? 0 : cursor.y
    }

    /// A region short of the whole screen, or between left and right margins, scrolled up by
    /// `count` while some rows are the terminal's: those that leave its top are gone (only a full-screen scroll pushes them
    /// into the terminal's history: `mainTopRowsLeave`).
    mutating func rowsBeforeStartScrolled(_ count: Int) {
        guard !onAlternate else { return }
        guard hasFullWidthMargins, margins.bottom >= history.rowsBeforeStart - 1 else {
            // Blank rows come in among them (a region inside them) or cells move across
            // them (left and right margins): the rows from the region's top are painted.
            history.rowsBeforeStart = min(history.rowsBeforeStart, margins.top)
            return
        }
        history.rowsBeforeStart = max(margins.top, history.rowsBeforeStart - count)
    }

    /// After a sequence: the cursor on one of the terminal's rows, or ED having erased them,
    /// makes them the program's.
    mutating func followRowsBeforeStart(erasedAbove: Bool) {
        guard !onAlternate else { return }
        if erasedAbove {
            history.rowsBeforeStart = 0
        } else if cursor.y < history.rowsBeforeStart {
            history.rowsBeforeStart = cursor.y
        }
    }

    /// The terminal's rows that scrolled off while the scrollback was held leave its
    /// screen the way they would have: the main screen, with no margins, scrolled up as
    /// many lines from its last row, which pushes them into its history (on a terminal with
    /// an alternate screen they are still there; on one without, the lock screen was).
    func appendRowsBeforeStartScrolled(into buffer: OutputBuffer) {
        guard history.rowsBeforeStartHeld > 0 else { return }
        buffer.append(.mode(.cursorVisible, on: false))
        buffer.append(.mode(.alternateScreen1049, on: false))
        Self.appendKnownState(autowrap: true, to: buffer)
        buffer.append(.cursorPosition(row: rows, column: 1))
        for _ in 0..<min(history.rowsBeforeStartHeld, rows) { buffer.append("\n") }
    }
}

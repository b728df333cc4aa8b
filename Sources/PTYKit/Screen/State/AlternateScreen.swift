// The alternate screen, the one place that decides what its modes do (their rows' owner:
// .alternateScreen): what each number does to the grids and the saved cursor, and how the
// repaint enters it again. ScreenModes follows which numbers are on (their group: leaving
// by any of them leaves), for the kitty keyboard stacks and for this repaint.
//
// xterm's three ways in: 47 switches and nothing else; 1047 also clears the alternate
// screen on the way out; 1049 saves the cursor and clears the alternate screen on the way
// in, and restores the cursor on the way out. 1048 saves or restores the cursor alone, as
// DECSC and DECRC. 1049 saves as tmux does, the position and the pen into a slot of its
// own, and goes back there on leaving even from the main screen (xterm saves with DECSC,
// into the main screen's slot, and restores it on leaving).

extension ScreenState {
    /// DECSET or DECRST of 47, 1047, 1048 or 1049.
    mutating func setAlternateScreenMode(_ mode: TerminalMode, on: Bool) {
        switch mode {
        case .alternateScreen47:
            switchScreen(toAlternate: on)
        case .alternateScreen1047:
            if !on && onAlternate {
                for row in 0..<rows { grid.clearRow(row, style: 0) }
            }
            switchScreen(toAlternate: on)
        case .saveCursor1048:
            if on { saveCursor() } else { restoreCursor() }
        case .alternateScreen1049:
            if on {
                if !onAlternate {
                    cursor.savedBy1049 = SavedCursor(x: cursor.x, y: cursor.y, pen: pen.style)
                    switchScreen(toAlternate: true)
                    let style = erasePenId()
                    for row in 0..<rows { grid.clearRow(row, style: style) }
                }
            } else {
                switchScreen(toAlternate: false)
                if let saved = cursor.savedBy1049 {
                    cursor.x = min(saved.x, columns - 1)
                    cursor.y = min(saved.y, rows - 1)
                    cursor.pendingWrap = false
                    setPen(saved.pen)
                }
            }
        default:
            break
        }
    }

    /// Onto the alternate screen from the main one, by the numbers the program used, 1049
    /// first: it saves the cursor just set (xterm's DECSC, tmux's own slot); the screen is
    /// painted whole after.
    func appendAlternateScreenEntered(into buffer: OutputBuffer) {
        for mode in [TerminalMode.alternateScreen1049, .alternateScreen1047, .alternateScreen47]
        where modes.isSet(mode) {
            buffer.append(.mode(mode, on: true))
        }
    }
}

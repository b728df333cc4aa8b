/// The cursor: where the next character goes, how it shows, and the cursors saved as tmux
/// keeps them: DECSC's one slot for both screens and 1049's own (xterm keeps a DECSC slot
/// per screen, and 1049 saves into the main screen's).
struct Cursor {
    var x = 0
    var y = 0
    /// The cursor is past the last column: the next character goes on the next row.
    var pendingWrap = false
    /// DECSCUSR's parameter, 0 for the terminal's default.
    var shape: UInt8 = 0
    /// Mode 12.
    var blinks = false
    /// What DECSC saved last, on either screen.
    var saved = SavedCursor()
    /// Where 1049 last entered the alternate screen from, its position and pen (nil before
    /// the first time): leaving by 1049 goes back there, from either screen.
    var savedBy1049: SavedCursor?

    /// The left and right margins are gone: a wrap pending, or saved as pending, at a right
    /// margin (not the last column) is no longer one any terminal can be brought back to;
    /// it is dropped.
    mutating func dropMarginWraps(columns: Int) {
        saved.dropWrap(unlessAt: columns - 1)
        if pendingWrap && x != columns - 1 { pendingWrap = false }
    }
}

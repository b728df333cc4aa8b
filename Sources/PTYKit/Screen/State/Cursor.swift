/// The cursor: where the next character goes, how it shows, and the cursor DECSC saved on
/// each screen (xterm keeps one slot per screen).
struct Cursor {
    var x = 0
    var y = 0
    /// The cursor is past the last column: the next character goes on the next row.
    var pendingWrap = false
    /// DECSCUSR's parameter, 0 for the terminal's default.
    var shape: UInt8 = 0
    /// Mode 12.
    var blinks = false
    var savedMain = SavedCursor()
    var savedAlternate = SavedCursor()

    /// The slot DECSC saves into on the main or the alternate screen.
    subscript(savedOnAlternate onAlternate: Bool) -> SavedCursor {
        get { onAlternate ? savedAlternate : savedMain }
        set {
            if onAlternate {
                savedAlternate = newValue
            } else {
                savedMain = newValue
            }
        }
    }

    /// The left and right margins are gone: a wrap pending, or saved as pending, at a right
    /// margin (not the last column) is no longer one any terminal can be brought back to;
    /// it is dropped.
    mutating func dropMarginWraps(columns: Int) {
        savedMain.dropWrap(unlessAt: columns - 1)
        savedAlternate.dropWrap(unlessAt: columns - 1)
        if pendingWrap && x != columns - 1 { pendingWrap = false }
    }
}

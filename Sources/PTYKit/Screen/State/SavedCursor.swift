/// What DECSC saves and DECRC restores (one slot for both screens, as tmux keeps it:
/// Cursor); 1049 saves its position and pen in another.
struct SavedCursor: Equatable, Sendable {
    var x = 0
    var y = 0
    var pendingWrap = false
    var pen = Style.plain
    var g0 = TerminalCharacterSet.ascii
    var g1 = TerminalCharacterSet.ascii
    var shifted = false
    var originMode = false

    /// A wrap saved as pending anywhere but at `column` is dropped: a saved wrap pends only
    /// at the edge, as the cursor's own.
    mutating func dropWrap(unlessAt column: Int) {
        if pendingWrap && x != column { pendingWrap = false }
    }

    /// Kept on a screen `rows` by `columns` after a resize.
    mutating func clamp(rows: Int, columns: Int) {
        x = min(x, columns - 1)
        y = min(max(y, 0), rows - 1)
        // A saved wrap pends only at the edge, as the cursor's own (fuzz).
        dropWrap(unlessAt: columns - 1)
    }
}

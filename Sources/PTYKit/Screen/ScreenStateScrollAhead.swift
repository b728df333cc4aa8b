import CCellStores

/// Text that scrolls off before a chunk ends, skipped.
///
/// A flood of plain text (a build log, `cat` of a file) arrives in chunks of several screens
/// at a small window: at 80x24 a 4 KiB read holds some 50 rows, and the first half of them
/// scroll away before the read ends. Their cells would be written and blanked again for
/// nothing. Plain text (printable ASCII, CR and LF) only ever moves the cursor right and
/// down, so where each byte lands can be worked out without writing it, and when the rows
/// shown at the end of the text all begin inside it, the screen they replace, and the rows
/// before them, cannot be seen any more: the screen is blanked and only the text from the
/// first of those rows on is fed. The grid is the same as if every byte had been (the fuzz
/// target's "any chunking gives the same grid" holds it to that).
extension ScreenState {
    /// Where the cursor goes through plain text: how many rows it entered (by a line feed,
    /// or by a character that wrapped), and where it is.
    struct PlainTextWalk {
        var offset: Int
        var x: Int
        var pendingWrap: Bool
        var rowsEntered = 0
    }

    /// Feeds not walked after one that would not have scrolled enough.
    static let scrollAheadPauseAfterMiss = 16

    /// Skips the start of `count` bytes (the parser in ground, nothing half-read) that
    /// cannot change what is shown at their end, and returns where feeding should go on
    /// (0 if nothing is skipped).
    mutating func skipTextThatScrollsAway(_ base: UnsafePointer<UInt8>, count: Int) -> Int {
        // What the walk assumes: a line feed at the bottom scrolls the whole screen and
        // nothing keeps what leaves it; text goes to the last column, wraps and inserts
        // nothing.
        guard
            top == 0 && bottom == rows &- 1 && !leftRightMarginMode && autowrap && !insertMode
                && scrollback == nil && rowsBeforeStart == 0
        else { return 0 }
        // The first row shown at the end must be one the text entered below the rows
        // shown now (the cursor's row and any below it keep what they hold until then).
        // The walk costs about a third of feeding, so it pays off once half a screen of
        // rows more than that is skipped.
        let needed = 2 &* rows &- 1 &- y
        let worthwhile = needed &+ rows &>> 1
        guard count >= worthwhile else { return 0 }
        // Most text scrolls less than that a chunk (a wide window, a slow writer): after
        // a chunk that would not, the next few are not walked at all, and a quarter of the
        // way into one, one that will not is left.
        guard scrollAheadPause == 0 else {
            scrollAheadPause &-= 1
            return 0
        }
        var walk = PlainTextWalk(offset: 0, x: x, pendingWrap: pendingWrap)
        let quarter = count &>> 2
        walkPlainText(base, to: quarter, stoppingAtRow: .max, &walk)
        if walk.offset == quarter {
            guard walk.rowsEntered &* 4 >= worthwhile else {
                scrollAheadPause = Self.scrollAheadPauseAfterMiss
                return 0
            }
            walkPlainText(base, to: count, stoppingAtRow: .max, &walk)
        }
        guard walk.rowsEntered >= worthwhile else { return 0 }
        // The rows shown at the end are the last `rows` entered: from this one on.
        var first = PlainTextWalk(offset: 0, x: x, pendingWrap: pendingWrap)
        walkPlainText(base, to: walk.offset, stoppingAtRow: walk.rowsEntered &- rows &+ 1, &first)
        // Every row scrolled in blank, in the erase style of a pen that plain text does
        // not change.
        let style = erasePenId()
        for row in 0..<rows { grid.clearRow(row, style: style) }
        y = 0
        x = first.x
        pendingWrap = false
        lastPrinted = nil
        return first.offset
    }

    /// Walks plain text from `walk` up to `end` or the first byte that is not plain text,
    /// or until the cursor enters row number `stop` (counting from 1): then `walk` is where
    /// that row's own bytes begin, the cursor at its column there. The moves printASCII,
    /// carriageReturn and lineFeed make without margins, a run of text at a time: its
    /// characters fill the rows from the cursor on, `columns` to a row.
    private func walkPlainText(
        _ base: UnsafePointer<UInt8>, to end: Int, stoppingAtRow stop: Int, _ walk: inout PlainTextWalk
    ) {
        var (offset, x, pendingWrap, entered) = (walk.offset, walk.x, walk.pendingWrap, walk.rowsEntered)
        defer { walk = PlainTextWalk(offset: offset, x: x, pendingWrap: pendingWrap, rowsEntered: entered) }
        let columns = self.columns
        while offset < end {
            let byte = base[offset]
            if byte &- 0x20 < 0x5F {
                let runEnd =
                    vectors.searchesWithAVX2
                    ? ccell_printable_run_end_avx2(base, offset &+ 1, end)
                    : ScreenParser.printableRunEnd(base, from: offset &+ 1, to: end, withAVX2: false)
                if pendingWrap {
                    entered &+= 1
                    x = 0
                    pendingWrap = false
                    if entered == stop { return }
                }
                // The run's characters sit at x, x + 1, ... of a line `columns` wide a row.
                let last = x &+ (runEnd &- offset) &- 1
                var column = last
                if last >= columns {
                    let wraps = last / columns
                    if stop &- entered <= wraps {
                        // The row is entered by the character at the start of its wrap.
                        offset &+= (stop &- entered) &* columns &- x
                        x = 0
                        entered = stop
                        return
                    }
                    entered &+= wraps
                    column = last &- wraps &* columns
                }
                pendingWrap = column == columns &- 1
                x = pendingWrap ? column : column &+ 1
                offset = runEnd
            } else if byte == 0x0D {
                x = 0
                pendingWrap = false
                offset &+= 1
            } else if byte == 0x0A {
                pendingWrap = false
                if newlineMode { x = 0 }
                entered &+= 1
                offset &+= 1
                if entered == stop { return }
            } else {
                return
            }
        }
    }
}

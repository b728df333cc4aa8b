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

    /// What a skip left: where feeding the read goes on, and, when the rest of it is all
    /// plain text (which the next read may scroll away in turn, so the model keeps it
    /// back), where the walk leaves the cursor after it.
    struct ScrollAhead {
        var resume: Int
        var plainToTheEnd: Bool
        /// From the cursor after the skip: the rows the rest enters, and the cursor then.
        var end: PlainTextWalk
    }

    /// Skips the start of `count` bytes (the parser in ground, nothing half-read) that
    /// cannot change what is shown at their end; nil if nothing is skipped. `kept` is
    /// where the walk left the cursor after plain text fed before these bytes but kept back
    /// (not yet written), at offset 0: a skip then drops that text too, and there is none
    /// unless the first row shown at the end begins in these bytes.
    mutating func skipTextThatScrollsAway(
        _ base: UnsafePointer<UInt8>, count: Int, after kept: PlainTextWalk? = nil
    ) -> ScrollAhead? {
        // What the walk assumes: a line feed at the bottom scrolls the whole screen and
        // nothing keeps what leaves it; text goes to the last column, wraps and inserts
        // nothing.
        guard
            top == 0 && bottom == rows &- 1 && !leftRightMarginMode && autowrap && !insertMode
                && scrollback == nil && rowsBeforeStart == 0
        else { return nil }
        let start = kept ?? PlainTextWalk(offset: 0, x: x, pendingWrap: pendingWrap)
        // The first row shown at the end must be one the text entered below the rows
        // shown now (the cursor's row and any below it keep what they hold until then).
        // The walk costs about a third of feeding, so it pays off once half a screen of
        // rows more than that is skipped.
        let needed = 2 &* rows &- 1 &- y
        let worthwhile = needed &+ rows &>> 1
        guard start.rowsEntered &+ count >= worthwhile else { return nil }
        // Most text scrolls less than that a read (a wide window, a slow writer): after
        // a read that would not, the next few are not walked at all, and a quarter of the
        // way into one, one that will not is left.
        guard scrollAheadPause == 0 else {
            scrollAheadPause &-= 1
            return nil
        }
        var walk = start
        let quarter = count &>> 2
        walkPlainText(base, to: quarter, stoppingAtRow: .max, &walk)
        if walk.offset == quarter {
            guard start.rowsEntered &+ (walk.rowsEntered &- start.rowsEntered) &* 4 >= worthwhile else {
                scrollAheadPause = Self.scrollAheadPauseAfterMiss
                return nil
            }
            walkPlainText(base, to: count, stoppingAtRow: .max, &walk)
        }
        // The rows shown at the end are the last `rows` entered: from this one on.
        let firstShown = walk.rowsEntered &- rows &+ 1
        guard walk.rowsEntered >= worthwhile && firstShown > start.rowsEntered else { return nil }
        var first = start
        walkPlainText(base, to: walk.offset, stoppingAtRow: firstShown, &first)
        // Every row scrolled in blank, in the erase style of a pen that plain text does
        // not change.
        let style = erasePenId()
        for row in 0..<rows { grid.clearRow(row, style: style) }
        y = 0
        x = first.x
        pendingWrap = false
        lastPrinted = nil
        return ScrollAhead(
            resume: first.offset, plainToTheEnd: walk.offset == count,
            end: PlainTextWalk(offset: 0, x: walk.x, pendingWrap: walk.pendingWrap, rowsEntered: rows &- 1))
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
                let runEnd = ScreenParser.printableRunEnd(
                    base, from: offset &+ 1, to: end, withAVX2: vectors.searchesWithAVX2)
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

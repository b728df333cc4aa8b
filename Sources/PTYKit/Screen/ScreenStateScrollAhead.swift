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
    /// cannot change what is shown at their end; nil if nothing is skipped.
    mutating func skipTextThatScrollsAway(_ base: UnsafePointer<UInt8>, count: Int) -> ScrollAhead? {
        guard isWalkable else { return nil }
        let start = PlainTextWalk(offset: 0, x: x, pendingWrap: pendingWrap)
        // The first row shown at the end must be one the text entered below the rows
        // shown now (the cursor's row and any below it keep what they hold until then).
        // The walk is not free (a read that scrolls less is fed whole anyway), so it is
        // taken only where half a screen of rows more than that would be skipped.
        let needed = 2 &* rows &- 1 &- y
        let worthwhile = needed &+ rows &>> 1
        guard count >= worthwhile else { return nil }
        // Most text scrolls less than that a read (a wide window, a slow writer): after
        // a read that would not, the next few are not walked at all, and a quarter of the
        // way into one, one that will not is left.
        guard scrollAheadPause == 0 else {
            scrollAheadPause &-= 1
            return nil
        }
        guard let walked = walkToTheFirstRowShown(base, count: count, from: start, worthwhile: worthwhile),
            let first = walked.first
        else { return nil }
        return scrollAway(to: first, end: walked.end, count: count)
    }

    /// What a read after text kept back comes to.
    enum AfterKeptText {
        /// The first row shown at its end begins in it: the kept text is dropped too.
        case skipped(ScrollAhead)
        /// Plain text to its end that scrolls less than a screen: where it leaves the
        /// cursor after the kept text, at offset 0 (of the read after it).
        case scrolledTooLittle(end: PlainTextWalk)
        /// It holds something other than plain text.
        case notPlain
    }

    /// The same for a read after plain text kept back (fed but not yet written), which
    /// left the cursor at `kept`, at offset 0: walked on from there whatever it scrolls,
    /// since the alternative is writing the kept text as well.
    mutating func skipTextThatScrollsAway(
        _ base: UnsafePointer<UInt8>, count: Int, after kept: PlainTextWalk
    ) -> AfterKeptText {
        guard isWalkable, let walked = walkToTheFirstRowShown(base, count: count, from: kept, worthwhile: 0) else {
            return .notPlain
        }
        if let first = walked.first { return .skipped(scrollAway(to: first, end: walked.end, count: count)) }
        guard walked.end.offset == count else { return .notPlain }
        let end = walked.end
        return .scrolledTooLittle(
            end: PlainTextWalk(offset: 0, x: end.x, pendingWrap: end.pendingWrap, rowsEntered: end.rowsEntered))
    }

    /// What the walk assumes: a line feed at the bottom scrolls the whole screen and
    /// nothing keeps what leaves it; text goes to the last column, wraps and inserts
    /// nothing.
    private var isWalkable: Bool {
        top == 0 && bottom == rows &- 1 && !leftRightMarginMode && autowrap && !insertMode && scrollback == nil
            && rowsBeforeStart == 0
    }

    /// Blanks the screen for text that goes on at `first` and ends at `end`.
    private mutating func scrollAway(to first: PlainTextWalk, end: PlainTextWalk, count: Int) -> ScrollAhead {
        // Every row scrolled in blank, in the erase style of a pen that plain text does
        // not change.
        let style = erasePenId()
        for row in 0..<rows { grid.clearRow(row, style: style) }
        y = 0
        x = first.x
        pendingWrap = false
        lastPrinted = nil
        return ScrollAhead(
            resume: first.offset, plainToTheEnd: end.offset == count,
            end: PlainTextWalk(offset: 0, x: end.x, pendingWrap: end.pendingWrap, rowsEntered: rows &- 1))
    }

    /// Walks `count` bytes from `start`, noting where lines begin: where the walk ends,
    /// and where the first row shown then begins if that is in these bytes, the walk
    /// having entered `worthwhile` rows; nil if a quarter of the way in it would not.
    private mutating func walkToTheFirstRowShown(
        _ base: UnsafePointer<UInt8>, count: Int, from start: PlainTextWalk, worthwhile: Int
    ) -> (first: PlainTextWalk?, end: PlainTextWalk)? {
        walkScratch.generation &+= 1
        let scratch = walkScratch
        scratch.note(start)
        var walk = start
        let quarter = count &>> 2
        walkPlainText(base, to: quarter, stoppingAtRow: .max, &walk, scratch)
        if walk.offset == quarter {
            guard start.rowsEntered &+ (walk.rowsEntered &- start.rowsEntered) &* 4 >= worthwhile else {
                scrollAheadPause = Self.scrollAheadPauseAfterMiss
                return nil
            }
            walkPlainText(base, to: count, stoppingAtRow: .max, &walk, scratch)
        }
        // The rows shown at the end are the last `rows` entered: from this one on.
        let firstShown = walk.rowsEntered &- rows &+ 1
        guard walk.rowsEntered >= worthwhile && firstShown > start.rowsEntered else { return (nil, walk) }
        var first = scratch.latest(atOrBefore: firstShown) ?? start
        if first.rowsEntered < firstShown {
            walkPlainText(base, to: walk.offset, stoppingAtRow: firstShown, &first, scratch)
        }
        return (first, walk)
    }

    /// Walks plain text from `walk` up to `end` or the first byte that is not plain text,
    /// or until the cursor enters row number `stop` (counting from 1): then `walk` is where
    /// that row's own bytes begin, the cursor at its column there. The moves printASCII,
    /// carriageReturn and lineFeed make without margins, the runs of text between returns
    /// and line feeds moved over whole; those are found with the CPU's widest vectors
    /// (CCellStores), up to a batch at a time.
    private func walkPlainText(
        _ base: UnsafePointer<UInt8>, to end: Int, stoppingAtRow stop: Int, _ walk: inout PlainTextWalk,
        _ scratch: WalkScratch
    ) {
        var cursor = walk
        defer { walk = cursor }
        let columns = self.columns
        let capacity = WalkScratch.lineStopsABatch
        let stops = scratch.lineStops
        var runStart = cursor.offset
        var found = capacity
        while found == capacity {
            found = lineStops(base, runStart, end, stops, capacity)
            for index in 0..<found {
                let stopByte = stops[index]
                if stopByte > runStart
                    && cursor.moveOver(run: runStart, count: stopByte &- runStart, columns: columns, stop: stop)
                {
                    return
                }
                switch base[stopByte] {
                case 0x0D:
                    cursor.x = 0
                    cursor.pendingWrap = false
                case 0x0A:
                    cursor.pendingWrap = false
                    if newlineMode { cursor.x = 0 }
                    cursor.rowsEntered &+= 1
                    if cursor.rowsEntered == stop {
                        cursor.offset = stopByte &+ 1
                        return
                    }
                    scratch.note(
                        PlainTextWalk(
                            offset: stopByte &+ 1, x: cursor.x, pendingWrap: false, rowsEntered: cursor.rowsEntered))
                default:
                    cursor.offset = stopByte
                    return
                }
                runStart = stopByte &+ 1
            }
        }
        if end > runStart
            && cursor.moveOver(run: runStart, count: end &- runStart, columns: columns, stop: stop)
        {
            return
        }
        cursor.offset = end
    }
}

extension ScreenState.PlainTextWalk {
    /// Moves over `count` printable characters from offset `start`, which fill the rows
    /// from the cursor on, `columns` to a row. True when they enter row `stop`: then
    /// `offset` is where that row's characters begin, at column 0.
    @inline(__always)
    mutating func moveOver(run start: Int, count: Int, columns: Int, stop: Int) -> Bool {
        if pendingWrap {
            rowsEntered &+= 1
            x = 0
            pendingWrap = false
            if rowsEntered == stop {
                offset = start
                return true
            }
        }
        // The characters sit at x, x + 1, ... of a line `columns` wide a row.
        let last = x &+ count &- 1
        var column = last
        if last >= columns {
            // A line of text wraps once at most windows; a division costs more.
            let wraps = last < columns &<< 1 ? 1 : last / columns
            if stop &- rowsEntered <= wraps {
                // The row is entered by the character at the start of its wrap.
                offset = start &+ (stop &- rowsEntered) &* columns &- x
                x = 0
                rowsEntered = stop
                return true
            }
            rowsEntered &+= wraps
            column = last &- wraps &* columns
        }
        pendingWrap = column == columns &- 1
        x = pendingWrap ? column : column &+ 1
        return false
    }
}

/// Text that scrolls off before it could be seen, skipped.
///
/// A flood of plain text (a build log, `cat` of a file) scrolls the screen many times over
/// between two looks at it: at 80x24 a 4 KiB read holds some 50 rows, at 200x60 two reads
/// hold more than a screen. The cells of rows that scroll away would be written and
/// blanked again for nothing. Plain text (printable ASCII, CR and LF) only ever moves the
/// cursor right and down, so where each byte lands can be worked out without writing it:
/// the model keeps plain text back (KeptText) and walks each read on from where it
/// leaves the cursor; when the rows shown at the end of the walk were all scrolled in, the
/// screen and the text before the first of them cannot be seen any more: the screen is
/// blanked, and only the text from that row on is kept. The grid is the same as if every
/// byte had been fed (the fuzz target's "any chunking gives the same grid" holds it to that).
extension ScreenState {
    /// Where the cursor goes through plain text.
    struct PlainTextWalk {
        var offset: Int
        var x: Int
        var pendingWrap: Bool
        /// The row it is in, numbered on from the top row of the screen when the text
        /// kept back was begun (row 0) and on past the bottom: rows `rows` and after
        /// scrolled in.
        var row = 0
        /// The SGRs walked over left a background other than the default one: the walk
        /// ends before the next row.
        var tinted = false
    }

    /// What a skip left: where the first row shown at the end of the read begins in it (the
    /// top row of the screen now), and where the read leaves the cursor when the rest of it
    /// is plain text (which the next read may scroll away in turn, so the model keeps it
    /// back): at its end, or at the ESC of an SGR its end cuts that the walk would go over
    /// once whole (`end.offset` says where).
    struct ScrollAhead {
        var first: PlainTextWalk
        var end: PlainTextWalk?
    }

    /// What a read comes to, walked from the cursor or from where the text kept back
    /// leaves it.
    enum ReadWalk {
        /// The first row shown at its end was scrolled in and begins in the read: the
        /// text kept back and the read before that row are skipped (`scrollAway`).
        case skipped(ScrollAhead)
        /// It was scrolled in and begins in the text kept back, at `row`; `end` is where
        /// the read leaves the cursor, when it is plain text to its end (or to an SGR its
        /// end cuts, as ScrollAhead.end).
        case scrolledKeptText(row: Int, end: PlainTextWalk?)
        /// Plain text to its end (or to an SGR its end cuts) that scrolls in no row shown
        /// at its end: where it leaves the cursor.
        case scrolledTooLittle(end: PlainTextWalk)
        /// It holds more than plain text, before any row shown at its end was scrolled in.
        case notPlain
    }

    /// Walks a read when nothing is kept back, from the cursor (the parser in ground,
    /// nothing half-read); nil when it is not walked. A read shorter than a row (an echo,
    /// a prompt) is not: it is not a flood, and the walk and the copy would cost more than
    /// they could save. A read that is not plain text costs the walk up to the first
    /// sequence it does not go over: at once for a full-screen program, which begins its
    /// reads with one; most of the read where one comes late (a background in `ls`).
    mutating func walkRead(_ base: UnsafePointer<UInt8>, count: Int, _ scratch: inout WalkScratch) -> ReadWalk? {
        guard count >= columns && isWalkable else { return nil }
        // What earlier walks noted is not this text's.
        scratch.generation &+= 1
        return walk(base, count: count, from: cursorWalk, topRow: 0, streamOffset: 0, &scratch)
    }

    /// The cursor as a walk begins from it when nothing is kept back: its row numbered as
    /// the screen's.
    var cursorWalk: PlainTextWalk {
        PlainTextWalk(offset: 0, x: cursor.x, pendingWrap: cursor.pendingWrap, row: cursor.y)
    }

    /// Walks a read after the plain text `kept` back, from where that leaves the cursor.
    /// Inlined: the planner's kept text is read where it is, not copied for the call (some
    /// 40 instructions a read).
    @inline(__always)
    mutating func walkRead(
        _ base: UnsafePointer<UInt8>, count: Int, after kept: KeptText, _ scratch: inout WalkScratch
    ) -> ReadWalk {
        guard isWalkable else { return .notPlain }
        return walk(base, count: count, from: kept.end, topRow: kept.topRow, streamOffset: kept.streamEnd, &scratch)
    }

    /// Blanks the screen for the text `kept` back, whose row `row` is the first shown now
    /// (the rows that left held, while the scrollback is); returns where that row begins in
    /// it.
    mutating func scrollAway(
        keptText kept: KeptText, toRow row: Int, _ scratch: inout WalkScratch, _ heldRows: inout HeldTextRows
    ) -> PlainTextWalk {
        let first = start(
            ofRow: row, in: kept.bytes, count: kept.count, from: kept.start, streamOffset: kept.streamStart, &scratch)
        scrollAway(
            UnsafeBufferPointer(start: kept.bytes, count: first.offset), from: kept.start, topRow: kept.topRow,
            to: first, &heldRows)
        return first
    }

    /// Where row `row` begins in `count` bytes walked from `start`, the first at
    /// `streamOffset` of the text walked: from the last line feed before it the walks
    /// noted in these bytes (a line wraps to a few rows at most), else from `start`.
    private func start(
        ofRow row: Int, in base: UnsafePointer<UInt8>, count: Int, from start: PlainTextWalk, streamOffset: Int,
        _ scratch: inout WalkScratch
    ) -> PlainTextWalk {
        var first = start
        if var noted = scratch.latest(atOrBefore: row), noted.offset >= streamOffset {
            noted.offset &-= streamOffset
            first = noted
        }
        if first.row < row {
            scratch.streamOffset = streamOffset
            walkPlainText(base, to: count, stoppingAtRow: row, &first, &scratch)
        }
        return first
    }

    /// What the walk assumes: a line feed at the bottom scrolls the whole screen and
    /// nothing keeps what leaves it but the scrollback hold, which takes rows made from
    /// the text (HeldTextRows); the modes are in the states their rows name (text goes to
    /// the last column, wraps and inserts nothing); every row is single-size.
    private var isWalkable: Bool {
        @inline(__always) get {
            margins.areWholeScreen(rows: rows) && grid.sizedRows.pointee == 0
                && gridModes.bits & Self.walkAssumes.modes == Self.walkAssumes.on
                && (history.takesNothing || history.rowsBeforeStart == 0 && heldRowsCanBeMadeFromText)
        }
    }

    /// While the scrollback is held, the rows that leave can be made from the bytes: text
    /// in the plain pen, in ASCII, written on rows that hold plain ASCII (SGRs are not
    /// walked over then). On the alternate screen nothing keeps them.
    private var heldRowsCanBeMadeFromText: Bool {
        onAlternate || pen.style == .plain && charsets.current == .ascii && rowsFromCursorArePlainText
    }

    /// The modes whose rows name a state the walk assumes them in (walksWhen), and those
    /// of them it assumes on, as GridModes.bits numbers them.
    static let walkAssumes = ModeRow.rows.reduce(into: (modes: UInt64(0), on: UInt64(0))) { assumes, row in
        guard let on = row.walksWhen else { return }
        assumes.modes |= 1 << UInt64(row.mode.rawValue)
        if on { assumes.on |= 1 << UInt64(row.mode.rawValue) }
    }

    /// Walks `count` bytes from `start`, the screen's top row numbered `topRow`, the read's
    /// first byte at `streamOffset` of the text walked since the kept text was begun (what
    /// the line feeds noted count in).
    private mutating func walk(
        _ base: UnsafePointer<UInt8>, count: Int, from start: PlainTextWalk, topRow: Int, streamOffset: Int,
        _ scratch: inout WalkScratch
    ) -> ReadWalk {
        scratch.streamOffset = streamOffset
        var walk = start
        walkPlainText(base, to: count, stoppingAtRow: .max, &walk, &scratch)
        // The rows shown at the end are the last `rows` the walk entered: from this one on.
        let firstShown = walk.row &- rows &+ 1
        // Where plain text to the end leaves the cursor (and the background the SGRs in it
        // left), or to an SGR the end cuts.
        let end: PlainTextWalk? =
            walk.offset == count || endsInWalkedRendition(base, from: walk.offset, count: count) ? walk : nil
        guard firstShown >= topRow &+ rows else { return end.map { .scrolledTooLittle(end: $0) } ?? .notPlain }
        guard firstShown > start.row else { return .scrolledKeptText(row: firstShown, end: end) }
        let first = self.start(
            ofRow: firstShown, in: base, count: walk.offset, from: start, streamOffset: streamOffset, &scratch)
        return .skipped(ScrollAhead(first: first, end: end))
    }

    /// Whether the bytes from `start` to `count` are the start of an SGR the walk would go
    /// over once whole: ESC, `[` and parameters, no more than KeptText keeps of one.
    private func endsInWalkedRendition(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Bool {
        guard base[start] == 0x1B && count &- start < KeptText.cutLimit && walksGraphicRenditions else { return false }
        guard start &+ 1 < count else { return true }
        guard base[start &+ 1] == UInt8(ascii: "[") else { return false }
        for offset in (start &+ 2)..<count where base[offset] &- 0x30 >= 10 && base[offset] != 0x3B { return false }
        return true
    }

    /// Blanks the screen for text that goes on at `first`, the top row from then on.
    mutating func blankScreen(to first: PlainTextWalk) {
        // Every row scrolled in blank, in the erase style of a pen that plain text does
        // not change.
        let style = erasePenId()
        for row in 0..<rows { grid.clearRow(row, style: style) }
        cursor.y = 0
        cursor.x = first.x
        cursor.pendingWrap = false
        lastPrinted = nil
    }

    /// Walks plain text from `walk` up to `end` or the first byte that is neither plain
    /// text nor in an SGR it goes over (ScreenStateWalkedRendition.swift), or until the
    /// cursor enters row number `stop`: then `walk` is where that row's own bytes begin,
    /// the cursor at its column there. The moves printASCII, carriageReturn and lineFeed
    /// make without margins, the runs of text between returns, line feeds and escapes moved
    /// over whole; those are found with the CPU's widest vectors (CScreenKernels), up to a
    /// batch at a time. Dense lines go by blocks (TextBlocks.swift) on screens 64 columns
    /// wide or more: from a batch of stops that close together (decided once a batch, so
    /// that long lines pay nothing) until the blocks grow sparse, the way kept for the
    /// next walk.
    private func walkPlainText(
        _ base: UnsafePointer<UInt8>, to end: Int, stoppingAtRow stop: Int, _ walk: inout PlainTextWalk,
        _ scratch: inout WalkScratch
    ) {
        let blocks = columns >= Self.textBlock
        var byBlocks = blocks && scratch.walksBlocks
        defer { scratch.walksBlocks = byBlocks }
        while true {
            if byBlocks {
                guard walkDenseLines(base, to: end, stoppingAtRow: stop, &walk, scratch) else { return }
                byBlocks = false
            }
            guard walkLines(base, to: end, stoppingAtRow: stop, &walk, scratch, untilDense: blocks) else { return }
            byBlocks = true
        }
    }

    /// The walk a batch of stops at a time. True when it stopped before a batch of dense
    /// lines (`untilDense`), the walk not ended.
    private func walkLines(
        _ base: UnsafePointer<UInt8>, to end: Int, stoppingAtRow stop: Int, _ walk: inout PlainTextWalk,
        _ scratch: WalkScratch, untilDense: Bool
    ) -> Bool {
        var cursor = walk
        defer { walk = cursor }
        let capacity = WalkScratch.lineStopsABatch
        let stops = scratch.lineStops
        let notes = scratch.notes
        let walksGraphicRenditions = self.walksGraphicRenditions
        var runStart = cursor.offset
        var found = capacity
        while found == capacity {
            found = lineStops(base, runStart, end, stops, capacity)
            if untilDense && found == capacity && stops[capacity &- 1] &- runStart < Self.denseLinesBatchSpan
                && !cursor.tinted
            {
                cursor.offset = runStart
                return true
            }
            if walkStops(
                base, stops, found, to: end, stoppingAtRow: stop, &cursor, &runStart, notes,
                renditions: walksGraphicRenditions)
            {
                return false
            }
        }
        if end > runStart && cursor.moveOver(run: runStart, count: end &- runStart, columns: columns, stop: stop) {
            return false
        }
        cursor.offset = end
        return false
    }

    /// The walk by blocks where 64 bytes are left, and by the stops of the bytes from a
    /// block not taken to 64 bytes on, then by blocks again. True when the blocks grew
    /// sparse, the walk not ended. Not inlined: the walk by stops keeps its registers.
    @inline(never)
    private func walkDenseLines(
        _ base: UnsafePointer<UInt8>, to end: Int, stoppingAtRow stop: Int, _ walk: inout PlainTextWalk,
        _ scratch: WalkScratch
    ) -> Bool {
        var cursor = walk
        defer { walk = cursor }
        var runStart = cursor.offset
        while true {
            if !cursor.tinted && end &- runStart >= Self.textBlock {
                cursor.offset = runStart
                let sparse = walkBlocks(base, to: end, stoppingAtRow: stop, &cursor, scratch)
                runStart = cursor.offset
                if sparse { return true }
            }
            let limit = min(end, runStart &+ Self.textBlock)
            let found = lineStops(base, runStart, limit, scratch.lineStops, WalkScratch.lineStopsABatch)
            if walkStops(
                base, scratch.lineStops, found, to: end, stoppingAtRow: stop, &cursor, &runStart, scratch.notes,
                renditions: walksGraphicRenditions)
            {
                return false
            }
            if found == WalkScratch.lineStopsABatch { continue }
            if limit > runStart
                && cursor.moveOver(run: runStart, count: limit &- runStart, columns: columns, stop: stop)
            {
                return false
            }
            // An SGR may end after the limit.
            runStart = max(runStart, limit)
            if runStart == end {
                cursor.offset = end
                return false
            }
        }
    }

    /// Walks the runs before the `found` stops at `stops` and the stops, from the run at
    /// `runStart`, which it moves on. True when the walk ends in them (`cursor.offset` is
    /// where).
    @inline(__always)
    private func walkStops(
        _ base: UnsafePointer<UInt8>, _ stops: UnsafeMutablePointer<Int>, _ found: Int, to end: Int,
        stoppingAtRow stop: Int, _ cursor: inout PlainTextWalk, _ runStart: inout Int, _ notes: LineNotes,
        renditions walksGraphicRenditions: Bool
    ) -> Bool {
        let columns = self.columns
        for index in 0..<found {
            let stopByte = stops[index]
            if stopByte > runStart
                && cursor.moveOver(run: runStart, count: stopByte &- runStart, columns: columns, stop: stop)
            {
                return true
            }
            switch base[stopByte] {
            case 0x0D:
                cursor.x = 0
                cursor.pendingWrap = false
            case 0x0A:
                guard !cursor.tinted else {
                    cursor.offset = stopByte
                    return true
                }
                cursor.pendingWrap = false
                if gridModes.newline { cursor.x = 0 }
                cursor.row &+= 1
                if cursor.row == stop {
                    cursor.offset = stopByte &+ 1
                    return true
                }
                notes.note(PlainTextWalk(offset: stopByte &+ 1, x: cursor.x, pendingWrap: false, row: cursor.row))
            case 0x1B where walksGraphicRenditions:
                guard
                    let length = Self.walkedGraphicRenditionLength(base, at: stopByte, end: end, tinted: &cursor.tinted)
                else {
                    cursor.offset = stopByte
                    return true
                }
                // Its bytes are all printable: the next stop is after it.
                runStart = stopByte &+ length
                continue
            default:
                cursor.offset = stopByte
                return true
            }
            runStart = stopByte &+ 1
        }
        return false
    }
}

extension ScreenState.PlainTextWalk {
    /// Moves over `count` printable characters from offset `start`, which fill the rows
    /// from the cursor on, `columns` to a row. True when the walk ends in them: they enter
    /// row `stop` (then `offset` is where that row's characters begin, at column 0), or
    /// they would wrap to a row with a background set (then `offset` is `start`).
    @inline(__always)
    mutating func moveOver(run start: Int, count: Int, columns: Int, stop: Int) -> Bool {
        if tinted && (pendingWrap || x &+ count > columns) {
            offset = start
            return true
        }
        if pendingWrap {
            row &+= 1
            x = 0
            pendingWrap = false
            if row == stop {
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
            if stop &- row <= wraps {
                // The row is entered by the character at the start of its wrap.
                offset = start &+ (stop &- row) &* columns &- x
                x = 0
                row = stop
                return true
            }
            row &+= wraps
            column = last &- wraps &* columns
        }
        pendingWrap = column == columns &- 1
        x = pendingWrap ? column : column &+ 1
        return false
    }
}

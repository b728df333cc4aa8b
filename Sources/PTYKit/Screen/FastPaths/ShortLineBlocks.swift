import CScreenKernels

/// Short lines (`yes`, `seq`, a list of short names) walked over 64 bytes at a time.
///
/// The scroll-ahead's walk (ScreenStateScrollAhead.swift) takes one return or line feed at
/// a time, some 40 instructions each: over 100 for each of `yes`'s 3-byte lines. Where 64
/// bytes hold only printable ASCII, returns and line feeds, where they leave the cursor
/// follows from where their returns and line feeds are (CScreenKernels' ccell_line_ends):
/// a row for each line feed and one for a wrap, the column from the characters after the
/// last return. Only on screens 64 columns wide or more: the characters after a return in
/// the block are fewer, so only those before the first return can reach the right margin,
/// and they wrap once at most (lines without returns, which step right a line at a time
/// and wrap every few lines: `seq` in raw mode).
extension ScreenState {
    /// The bytes taken at once.
    static let shortLinesBlock = 64

    /// Returns and line feeds closer than this on average, over a whole batch of them
    /// (WalkScratch.lineStopsABatch), are short lines: the walk tries blocks from there.
    /// Lines of 7 characters without returns, 14 with: longer ones save little over their
    /// stops, and coloured text (vim's, `ls`'s) as dense has an escape in most blocks.
    static let shortLineStopSpacing = 8

    /// A batch of stops that spans fewer bytes than this is short lines; 0 on screens
    /// narrower than a block, where the walk does not try blocks.
    var shortLinesBatchSpan: Int {
        columns >= Self.shortLinesBlock ? WalkScratch.lineStopsABatch &* Self.shortLineStopSpacing : 0
    }

    /// Walks the blocks of short lines from `start` up to `end` or the first that is not
    /// one, or that would enter row `stop`, noting where each block's last line feed
    /// leaves the cursor (what WalkScratch.latest goes on from); returns where the first
    /// block not taken begins. Not inlined: called once a batch of stops at most, it would
    /// crowd the walk's loop over them.
    @inline(never)
    func walkShortLines(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, stoppingAtRow stop: Int,
        _ walk: inout PlainTextWalk, _ scratch: WalkScratch
    ) -> Int {
        var block = start
        let newline = gridModes.newline
        while end &- block >= Self.shortLinesBlock
            && walk.moveOver(
                block: block, ends: lineEnds(base + block), columns: columns, newline: newline, stop: stop,
                noting: scratch)
        {
            block &+= Self.shortLinesBlock
        }
        return block
    }

    /// The index of the first of `count` stops, in order, at `offset` or after it (there
    /// is one).
    static func firstStop(atOrAfter offset: Int, in stops: UnsafeMutablePointer<Int>, count: Int) -> Int {
        var low = 0
        var high = count &- 1
        while low < high {
            let middle = (low &+ high) &>> 1
            if stops[middle] < offset { low = middle &+ 1 } else { high = middle }
        }
        return low
    }
}

extension ScreenState.PlainTextWalk {
    /// Moves over the 64 bytes at offset `block` whose returns and line feeds are `ends`,
    /// on a screen `columns` wide (64 or more), noting where the last line feed leaves the
    /// cursor. False, the walk unchanged, when they are not plain text, a line feed or a
    /// wrap in them would enter row `stop`, or 64 characters on a screen 64 wide would
    /// reach the margin again.
    ///
    /// Only the characters before the first return (or line feed, in newline mode) can
    /// reach the last column, at most once: fewer than `columns` follow a return. From the
    /// one that does (bit `margin`), each character stays in the last column while a line
    /// feed comes before it (a line feed ends the pending wrap, not the column: `yes`
    /// without its returns), and the first that comes straight after a character wraps
    /// (bit `wrap`): the characters from it on go on from column 0 of the next row.
    @inline(__always)
    mutating func moveOver(
        block: Int, ends: ccell_line_ends, columns: Int, newline: Bool, stop: Int, noting scratch: WalkScratch
    ) -> Bool {
        let returns = ends.returns
        let feeds = ends.feeds
        guard returns & feeds == 0 else { return false }
        let printable = ~(returns | feeds)
        let resets = newline ? returns | feeds : returns
        let first = printable & (resets & (0 &- resets) &- 1)
        let count = first.nonzeroBitCount
        // -1 for a wrap pending before the block, 64 when no character reaches the margin.
        let margin =
            pendingWrap ? -1 : x &+ count < columns ? 64 : Self.position(ofSetBit: columns &- 1 &- x, in: first)
        // The characters from the margin on that come straight after a character.
        let wraps =
            pendingWrap
            ? first & (first &<< 1 | 1)
            : margin < 64 ? first & (first &<< 1) & ((UInt64.max &<< UInt64(margin)) &<< 1) : 0
        let wrap = wraps.trailingZeroBitCount
        let afterWrap = wrap < 64 ? (first &>> UInt64(wrap)).nonzeroBitCount : 0
        // 64 characters from column 0 of a screen 64 wide would reach the margin again.
        guard afterWrap < columns else { return false }
        let rowsEntered = feeds.nonzeroBitCount &+ (wrap < 64 ? 1 : 0)
        guard row &+ rowsEntered < stop else { return false }
        if feeds != 0 {
            let lastFeed = 63 &- feeds.leadingZeroBitCount
            let before = (1 &<< UInt64(lastFeed)) &- 1
            let returnsBefore = returns & before
            let xAfter =
                newline
                ? 0
                : returnsBefore != 0
                    ? ((printable & before) &>> UInt64(64 &- returnsBefore.leadingZeroBitCount)).nonzeroBitCount
                    : wrap < lastFeed
                        ? ((printable & before) &>> UInt64(wrap)).nonzeroBitCount
                        : margin < lastFeed ? columns &- 1 : x &+ (printable & before).nonzeroBitCount
            let feedRow = row &+ feeds.nonzeroBitCount &+ (wrap < lastFeed ? 1 : 0)
            scratch.note(Self(offset: block &+ lastFeed &+ 1, x: xAfter, pendingWrap: false, row: feedRow))
        }
        row &+= rowsEntered
        if resets != 0 {
            x = ((printable &>> UInt64(63 &- resets.leadingZeroBitCount)) &>> 1).nonzeroBitCount
            pendingWrap = false
        } else if wrap < 64 {
            x = afterWrap
            pendingWrap = false
        } else if margin < 64 {
            x = columns &- 1
            pendingWrap = printable &>> 63 != 0
        } else {
            x &+= count
            pendingWrap = false
        }
        return true
    }

    /// The position of the set bit of `bits` that has `index` set bits below it (there is
    /// one): halves searched down to a bit.
    @inline(__always)
    static func position(ofSetBit index: Int, in bits: UInt64) -> Int {
        var position = 0
        var left = index
        var width = 32
        while width > 0 {
            let below = ((bits &>> UInt64(position)) & ((1 &<< UInt64(width)) &- 1)).nonzeroBitCount
            if below <= left {
                left &-= below
                position &+= width
            }
            width &>>= 1
        }
        return position
    }
}

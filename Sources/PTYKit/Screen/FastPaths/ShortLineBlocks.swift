import CScreenKernels

/// Short lines (`yes`, `seq`, a list of short names) walked over 64 bytes at a time.
///
/// The scroll-ahead's walk (ScreenStateScrollAhead.swift) takes one return or line feed at
/// a time, some 40 instructions each: over 100 for each of `yes`'s 3-byte lines. Where 64
/// bytes hold only printable ASCII, returns and line feeds, and none of their characters
/// wraps, where they leave the cursor follows from where their returns and line feeds are
/// (CScreenKernels' ccell_line_ends): a row for each line feed, the column from the
/// characters after the last return. Only on screens 64 columns wide or more: the
/// characters after a return in the block are fewer, so only those before the first
/// return can reach the right margin.
extension ScreenState {
    /// The bytes taken at once.
    static let shortLinesBlock = 64

    /// Lines whose line feeds are closer than this are short: the walk tries blocks after
    /// one (a block of longer lines seldom has no wrap and no escape, and each try costs),
    /// with the cursor at column 0 (after a return) or at the margin (`yes` without its
    /// returns): lines without returns that creep to the margin wrap too often.
    static let shortLineLength = 32

    /// The returns and line feeds found at once after blocks of short lines: about a
    /// block's worth of lines of 6 bytes (`seq`'s, which wrap every few lines without
    /// their returns).
    static let stopsAfterShortLines = 16

    /// Whether the walk tries blocks of short lines on this screen.
    var walksShortLineBlocks: Bool { columns >= Self.shortLinesBlock }

    /// Walks the blocks of short lines from `start` (just after a line feed) up to `end`
    /// or the first that is not one, or that would enter row `stop`, noting where each
    /// block's last line feed leaves the cursor (what WalkScratch.latest goes on from);
    /// returns where the first block not taken begins.
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
}

extension ScreenState.PlainTextWalk {
    /// Moves over the 64 bytes at offset `block` whose returns and line feeds are `ends`,
    /// on a screen `columns` wide (64 or more), noting where the last line feed leaves the
    /// cursor. False, the walk unchanged, when they are not plain text, a character in them
    /// would wrap, or a line feed in them would enter row `stop`.
    @inline(__always)
    mutating func moveOver(
        block: Int, ends: ccell_line_ends, columns: Int, newline: Bool, stop: Int, noting scratch: WalkScratch
    ) -> Bool {
        let returns = ends.returns
        let feeds = ends.feeds
        let printable = ~(returns | feeds)
        let rowsEntered = feeds.nonzeroBitCount
        guard returns & feeds == 0 && !(pendingWrap && printable & 1 != 0) && row &+ rowsEntered < stop else {
            return false
        }
        let resets = newline ? returns | feeds : returns
        // The characters before the first return go on from the cursor's column; the rest
        // (63 at most) from column 0, short of the last column.
        let first = printable & (resets & (0 &- resets) &- 1)
        // At the last column, one character a line (each after a line feed) stays there:
        // `yes` without its returns, once its lines have crept to the margin.
        let atMargin = x &+ first.nonzeroBitCount >= columns
        if atMargin && (x != columns &- 1 || first & (first &>> 1) != 0) { return false }
        if feeds != 0 {
            let lastFeed = 63 &- feeds.leadingZeroBitCount
            let before = (1 &<< UInt64(lastFeed)) &- 1
            let returnsBefore = returns & before
            let xAfter =
                newline
                ? 0
                : returnsBefore != 0
                    ? ((printable & before) &>> UInt64(64 &- returnsBefore.leadingZeroBitCount)).nonzeroBitCount
                    : atMargin ? x : x &+ (printable & before).nonzeroBitCount
            scratch.note(Self(offset: block &+ lastFeed &+ 1, x: xAfter, pendingWrap: false, row: row &+ rowsEntered))
        }
        row &+= rowsEntered
        if resets != 0 {
            x = ((printable &>> UInt64(63 &- resets.leadingZeroBitCount)) &>> 1).nonzeroBitCount
            pendingWrap = false
        } else if atMargin {
            pendingWrap = printable &>> 63 != 0
        } else {
            x &+= first.nonzeroBitCount
            pendingWrap = false
        }
        return true
    }
}

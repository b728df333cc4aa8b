import CScreenKernels

/// Plain text walked over 64 bytes at a time.
///
/// The scroll-ahead's walk (ScreenStateScrollAhead.swift) takes one return, line feed or
/// SGR at a time, some 40 instructions each: over 100 for each of `yes`'s 3-byte lines,
/// some 300 for each of coloured `ls`'s. Where 64 bytes hold only printable ASCII,
/// returns, line feeds and SGRs that set no background, where they leave the cursor
/// follows from where their returns, line feeds and characters are (CScreenKernels'
/// ccell_walk_blocks, in C for the CPU's bit counts, which Swift's baseline x86-64 spells
/// out in a dozen instructions): a row for each line feed and one for a wrap, the column
/// from the characters after the last return. Only on screens 64 columns wide or more:
/// the characters after a return in the block are fewer, so only those before the first
/// return can reach the right margin, and they wrap once at most (lines without returns,
/// which step right a line at a time and wrap every few lines: `seq` in raw mode).
extension ScreenState {
    /// The bytes a step takes at most.
    static let textBlock = 64

    /// A batch of stops (WalkScratch.lineStopsABatch returns, line feeds and escapes) that
    /// spans fewer bytes than this is dense lines, walked by blocks from there: 24 bytes a
    /// stop, lines of 48 bytes with returns, of 24 without, coloured `ls` (some 20).
    /// Longer lines go faster by their stops.
    static let denseLinesBatchSpan = WalkScratch.lineStopsABatch * 24

    /// Walks blocks of plain text from `walk` up to `end` or the first byte a block does
    /// not take (ccell_walk_blocks), or a block that would enter row `stop`, noting where
    /// each block's last line feed leaves the cursor (what WalkScratch.latest goes on
    /// from). Only where 64 bytes are left, from a walk that has no background set. True
    /// when it left them because the lines grew long.
    @inline(__always)
    func walkBlocks(
        _ base: UnsafePointer<UInt8>, to end: Int, stoppingAtRow stop: Int, _ walk: inout PlainTextWalk,
        _ scratch: WalkScratch
    ) -> Bool {
        var text = ccell_text_walk(
            offset: walk.offset, x: walk.x, row: walk.row, pending_wrap: walk.pendingWrap, sparse: false)
        var setting = ccell_block_setting(
            columns: columns, stop: stop, newline: gridModes.newline,
            renditions_seen: walksGraphicRenditions ? scratch.renditionsSeen : nil,
            starts: scratch.lineStarts, starts_kept: WalkScratch.lineStartsKept, stream_offset: scratch.streamOffset,
            generation: scratch.generation)
        blockWalker(base, end, &text, &setting)
        walk.offset = text.offset
        walk.x = text.x
        walk.row = text.row
        walk.pendingWrap = text.pending_wrap
        return text.sparse
    }
}

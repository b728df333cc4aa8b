import CScreenKernels

/// What the scroll-ahead's walks over plain text (ScreenStateScrollAhead.swift) write as
/// they go, allocated once by the planner (FeedPlanner): the returns and line feeds found in
/// a batch, and where the walk was just after each line feed, by the row the feed entered,
/// for the last rows. The walk to the first row shown at the end of a read goes on from the
/// last line feed before it, in the read or in the kept text, instead of from the start of
/// either (what wrapping enters after a line feed is one line's text).
struct WalkScratch {
    /// Returns, line feeds and escapes found at a time: a read of 4 KiB of a log has some
    /// 80, of coloured `ls` some 200.
    static let lineStopsABatch = 128
    /// Rows whose line feeds are kept: a power of two, above the rows of a screen the
    /// walk is worth it for plus the rows a line wraps to.
    static let lineStartsKept = 128

    let lineStops: UnsafeMutablePointer<Int>
    /// Written by the walk over blocks (CScreenKernels' ccell_walk_blocks) too.
    let lineStarts: UnsafeMutablePointer<ccell_line_start>
    /// The SGRs the walk over blocks has seen it may go over (ccell_walk_blocks).
    let renditionsSeen: UnsafeMutablePointer<UInt64>
    /// Whether the walk goes by blocks of 64 bytes (TextBlocks.swift), kept from one walk
    /// to the next: the lines of a flood are alike.
    var walksBlocks = false
    /// Counts the texts kept back (and reads walked alone): what an earlier one noted is
    /// not this one's.
    var generation: UInt = 0
    /// Where the bytes being walked begin in the text walked since the kept text was
    /// begun: the offsets noted count from there, so that they hold across reads.
    var streamOffset = 0

    init() {
        lineStops = .allocate(capacity: Self.lineStopsABatch)
        lineStarts = .allocate(capacity: Self.lineStartsKept)
        lineStarts.initialize(
            repeating: ccell_line_start(offset: 0, x: 0, row: 0, generation: 0), count: Self.lineStartsKept)
        renditionsSeen = .allocate(capacity: 1 << Int(CCELL_RENDITIONS_SEEN_BITS))
        // All ones: no SGR's key (CScreenKernels' CCELL_RENDITIONS_SEEN_BITS).
        renditionsSeen.initialize(repeating: .max, count: 1 << Int(CCELL_RENDITIONS_SEEN_BITS))
    }

    func deallocate() {
        lineStops.deallocate()
        lineStarts.deallocate()
        renditionsSeen.deallocate()
    }

    /// What the walk by stops notes its line feeds in.
    var notes: LineNotes { LineNotes(starts: lineStarts, streamOffset: streamOffset, generation: generation) }

    /// The walk noted in this text at row `row` or the nearest row before it that is still
    /// kept, looking as many rows back as are kept; its offset counts from the text's start.
    func latest(atOrBefore row: Int) -> ScreenState.PlainTextWalk? {
        var row = row
        let oldest = max(row &- Self.lineStartsKept &+ 1, 0)
        while row >= oldest {
            let start = lineStarts[row & (Self.lineStartsKept &- 1)]
            if start.generation == generation && start.row == row {
                return ScreenState.PlainTextWalk(offset: start.offset, x: start.x, pendingWrap: false, row: row)
            }
            row &-= 1
        }
        return nil
    }
}

/// The ring WalkScratch keeps line feeds in, with the offset and generation of the text
/// being walked: three words the walk's loop keeps in registers.
struct LineNotes {
    let starts: UnsafeMutablePointer<ccell_line_start>
    let streamOffset: Int
    let generation: UInt

    /// Notes where the walk is just after a line feed (a wrap is never pending then).
    @inline(__always) func note(_ walk: ScreenState.PlainTextWalk) {
        starts[walk.row & (WalkScratch.lineStartsKept &- 1)] = ccell_line_start(
            offset: walk.offset &+ streamOffset, x: walk.x, row: walk.row, generation: generation)
    }
}

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

    struct LineStart {
        var walk: ScreenState.PlainTextWalk
        /// The text it was noted in.
        var generation: UInt
    }

    let lineStops: UnsafeMutablePointer<Int>
    private let lineStarts: UnsafeMutablePointer<LineStart>
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
            repeating: LineStart(walk: ScreenState.PlainTextWalk(offset: 0, x: 0, pendingWrap: false), generation: 0),
            count: Self.lineStartsKept)
    }

    func deallocate() {
        lineStops.deallocate()
        lineStarts.deallocate()
    }

    @inline(__always) func note(_ walk: ScreenState.PlainTextWalk) {
        var walk = walk
        walk.offset &+= streamOffset
        lineStarts[walk.row & (Self.lineStartsKept &- 1)] = LineStart(walk: walk, generation: generation)
    }

    /// The walk noted in this text at row `row` or the nearest row before it that is still
    /// kept, looking as many rows back as are kept; its offset counts from the text's start.
    func latest(atOrBefore row: Int) -> ScreenState.PlainTextWalk? {
        var row = row
        let oldest = max(row &- Self.lineStartsKept &+ 1, 0)
        while row >= oldest {
            let start = lineStarts[row & (Self.lineStartsKept &- 1)]
            if start.generation == generation && start.walk.row == row { return start.walk }
            row &-= 1
        }
        return nil
    }
}

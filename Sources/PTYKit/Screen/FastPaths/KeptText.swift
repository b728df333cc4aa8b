/// Plain text fed to the model but not yet written to its grid, kept back because the
/// reads after it may scroll it away (ScreenStateScrollAhead.swift): a read too short to
/// scroll the screen away, what is left of one after the text that scrolled away in it was
/// skipped, and the plain text of the reads after it. The model's screen is its grid with
/// this text fed; the model feeds it before anything reads or changes the screen.
struct KeptText {
    /// A screen of text and a read after it, at most windows; more than this is fed.
    static let capacity = 16 * 1024
    let bytes: UnsafeMutablePointer<UInt8>
    var count = 0
    /// Where the cursor is at its start (the grid's cursor), and where the walk left the
    /// cursor after it, at offset 0 of the next read; rows numbered as the walk numbers
    /// them, the screen's top row `topRow`.
    var start = ScreenState.PlainTextWalk(offset: 0, x: 0, pendingWrap: false)
    var end = ScreenState.PlainTextWalk(offset: 0, x: 0, pendingWrap: false)
    var topRow = 0
    /// Where its first byte is in the text walked since it was begun: the walk notes line
    /// feeds by that (WalkScratch).
    var streamStart = 0
    var streamEnd: Int { streamStart &+ count }

    init() {
        bytes = .allocate(capacity: Self.capacity)
    }

    func deallocate() {
        bytes.deallocate()
    }

    /// Keeps back `count` bytes of plain text in place of what was kept: from `start`
    /// (the top row numbered `topRow`, the first byte at `streamStart`), they leave the
    /// cursor at `end`.
    mutating func keep(
        _ base: UnsafePointer<UInt8>, count: Int, start: ScreenState.PlainTextWalk, end: ScreenState.PlainTextWalk,
        topRow: Int, streamStart: Int
    ) {
        self.count = 0
        self.start = start
        self.topRow = topRow
        self.streamStart = streamStart
        append(base, count: count, end: end)
    }

    /// Keeps back plain text after what is kept (a read that did not scroll the kept text
    /// away), which leaves the cursor at `end`.
    mutating func append(_ base: UnsafePointer<UInt8>, count: Int, end: ScreenState.PlainTextWalk) {
        (bytes + self.count).update(from: base, count: count)
        self.count &+= count
        self.end = end
    }

    /// Drops the text before `first`, the start of a row in it that is now the top row of
    /// the screen (blanked for it).
    mutating func drop(before first: ScreenState.PlainTextWalk) {
        count &-= first.offset
        // The two may overlap: copyMemory is a memmove.
        UnsafeMutableRawPointer(bytes).copyMemory(from: bytes + first.offset, byteCount: count)
        streamStart &+= first.offset
        start = ScreenState.PlainTextWalk(offset: 0, x: first.x, pendingWrap: first.pendingWrap, row: first.row)
        topRow = first.row
    }
}

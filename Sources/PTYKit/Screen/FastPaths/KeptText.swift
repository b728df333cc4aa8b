/// Plain text fed to the model but not yet written to its grid, kept back because the
/// reads after it may scroll it away (ScreenStateScrollAhead.swift): a read too short to
/// scroll the screen away, what is left of one after the text that scrolled away in it was
/// skipped, and the plain text of the reads after it. The model's screen is its grid with
/// this text fed; the model feeds it before anything reads or changes the screen.
///
/// A read whose end cuts an SGR the walk would go over whole (in a coloured flood, one
/// read in a few) is kept up to its ESC, and the SGR's start is fed, so that the parser
/// is where the stream is; the planner keeps the parser as it was before, to feed the text
/// from (and put the parser back after it), or to go back to when the next read ends the
/// SGR (`endCutRendition`): then it is kept whole, and the walk goes on after it.
struct KeptText {
    /// A screen of text and a read after it, at most windows; more than this is fed.
    static let capacity = 16 * 1024
    /// The longest SGR the end of a read may cut and the next read end, and still be
    /// kept: the longest the walk goes over is 34 bytes (8 codes of 3 digits).
    static let cutLimit = 36
    /// `capacity` bytes, then room for an SGR cut and ended.
    let bytes: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    /// How many bytes after the text are the start of an SGR its read's end cut, fed.
    private(set) var cutCount = 0
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
        bytes = .allocate(capacity: Self.capacity + Self.cutLimit)
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
        drop()
        self.start = start
        self.topRow = topRow
        self.streamStart = streamStart
        append(base, count: count, end: end)
    }

    /// Keeps back plain text after what is kept (a read that did not scroll the kept text
    /// away), which leaves the cursor at `end`.
    mutating func append(_ base: UnsafePointer<UInt8>, count: Int, end: ScreenState.PlainTextWalk) {
        // A cut SGR is ended or fed with the text before the next read is walked.
        assert(cutCount == 0)
        (bytes + self.count).update(from: base, count: count)
        self.count &+= count
        self.end = end
    }

    /// Notes that the `count` bytes at `base`, after the text, are the start of an SGR its
    /// read's end cut (the walk ended at its ESC), which the caller feeds; false, noting
    /// nothing, if there is no text.
    mutating func noteCut(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard self.count > 0 else { return false }
        (bytes + self.count).update(from: base, count: count)
        cutCount = count
        return true
    }

    /// Where the first `count` bytes of a read end the SGR cut after the text, when the
    /// whole is an SGR the walk goes over within `cutLimit` bytes: then it is kept whole,
    /// the walk's end after it; nil, keeping nothing, if not.
    mutating func endCutRendition(_ base: UnsafePointer<UInt8>, count: Int) -> Int? {
        let cutEnd = self.count &+ cutCount
        let copied = min(count, Self.cutLimit &- cutCount)
        (bytes + cutEnd).update(from: base, count: copied)
        var tinted = end.tinted
        guard
            let length = ScreenState.walkedGraphicRenditionLength(
                bytes, at: self.count, end: cutEnd &+ copied, tinted: &tinted)
        else { return nil }
        let ended = length &- cutCount
        self.count &+= length
        end.tinted = tinted
        cutCount = 0
        return ended
    }

    /// Forgets the text (fed, or about to be).
    mutating func drop() {
        count = 0
        cutCount = 0
    }

    /// Drops the text before `first`, the start of a row in it that is now the top row of
    /// the screen (blanked for it).
    mutating func drop(before first: ScreenState.PlainTextWalk) {
        count &-= first.offset
        // The two may overlap: copyMemory is a memmove. The start of a cut SGR moves too.
        UnsafeMutableRawPointer(bytes).copyMemory(from: bytes + first.offset, byteCount: count &+ cutCount)
        streamStart &+= first.offset
        start = ScreenState.PlainTextWalk(offset: 0, x: first.x, pendingWrap: first.pendingWrap, row: first.row)
        topRow = first.row
    }
}

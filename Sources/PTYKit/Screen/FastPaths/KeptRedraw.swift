/// The last redraw of a read, kept back instead of fed (the kept redraw): a program that
/// redraws whole screens (vim scrolling, a dashboard) erases this one in its next read, and
/// that read's redraw skip (FeedPlanner) then leaves it out with what comes before its own
/// erase. Only a redraw made of what such an erase, CUP and pen reset undo is kept (text,
/// CR, LF, cursor moves, erases, SGRs: nothing fed alone), ending at a boundary: it changes
/// none of what a relay reads after every read without feeding it (modes, titles, queries,
/// the parser's state, the rows above the start). The model feeds it before anything reads
/// or changes the screen, as it does the kept text.
///
/// A read cut inside a control sequence (a pty hands a large redraw over 4 KiB at a time)
/// ends with the start of one: the redraw is kept up to its ESC, and the sequence's bytes
/// are fed, so that the parser is where the stream is; the parser as it was before them is
/// kept too, to feed the redraw from (and put the parser back after it), or to go back to
/// when the next read's redraw leaves the redraw and that sequence out.
struct KeptRedraw {
    /// A redraw of the widest screens, with colours; a longer one is fed.
    static let capacity = 16 * 1024
    /// The longest control sequence the end of a read may cut and still be kept, with
    /// what the next read ends it with.
    static let openLimit = 32
    /// `capacity` bytes of the redraw, then the sequence's start and end (`openLimit`), then
    /// `redrawStart`.
    let bytes: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    /// How many bytes after the redraw are the start of a control sequence, fed.
    private(set) var openCount = 0
    /// The parser at the boundary before them, when there are any.
    private(set) var parserBeforeOpenSequence: ScreenParser? = nil

    /// What begins a redraw: a pen reset, a CUP and ED 2. After bytes that begin at a
    /// boundary, the redraw skip leaves out all of them (resumes at their end) only if each
    /// is complete and none is to be fed: how bytes are checked for keeping.
    private static let redrawStart: [UInt8] = [0x1B, 0x5B, 0x6D, 0x1B, 0x5B, 0x48, 0x1B, 0x5B, 0x32, 0x4A]

    init() {
        bytes = .allocate(capacity: Self.capacity + Self.openLimit + Self.redrawStart.count)
    }

    func deallocate() {
        bytes.deallocate()
    }

    /// Keeps back `count` bytes from the start of a redraw at a boundary, where `parser`
    /// is, if they fit and hold only what the next redraw undoes, ending at a boundary or
    /// inside a control sequence (then kept up to its ESC, and its bytes, `openCount` from
    /// `bytes + count`, are the caller's to feed); false, keeping nothing, if not. A last
    /// byte above 0x7F may leave a character open: not kept.
    mutating func keep(
        _ base: UnsafePointer<UInt8>, count: Int, _ parser: ScreenParser, _ findRedraw: CellVectors.FindRedraw,
        _ items: UnsafeMutablePointer<Int>
    ) -> Bool {
        drop()
        guard count <= Self.capacity else { return false }
        let end = Self.openControlSequenceStart(base, count: count) ?? count
        guard end > 0, base[end &- 1] < 0x80 else { return false }
        bytes.update(from: base, count: end)
        guard isUndone(from: 0, count: end, findRedraw, items) else { return false }
        self.count = end
        openCount = count &- end
        if openCount > 0 {
            (bytes + end).update(from: base + end, count: openCount)
            parserBeforeOpenSequence = parser
        }
        return true
    }

    /// Whether the `count` bytes at `bytes + start`, which begin at a boundary, are all
    /// complete and undone by a redraw (`redrawStart` written after them).
    private func isUndone(
        from start: Int, count: Int, _ findRedraw: CellVectors.FindRedraw, _ items: UnsafeMutablePointer<Int>
    ) -> Bool {
        Self.redrawStart.withUnsafeBufferPointer {
            (bytes + (start &+ count)).update(from: $0.baseAddress!, count: $0.count)
        }
        // No room for an item to feed alone: one makes the scan stop.
        return findRedraw(bytes + start, count &+ Self.redrawStart.count, items, 0).resume == count
    }

    /// Where the `count` bytes end inside a control sequence begun in them (ESC, or ESC [
    /// and parameter or intermediate bytes), no more than `openLimit` before their end:
    /// its ESC; nil if not.
    private static func openControlSequenceStart(_ base: UnsafePointer<UInt8>, count: Int) -> Int? {
        var start = count &- 1
        while start >= 0 && count &- start < openLimit && base[start] &- 0x20 < 0x20 { start &-= 1 }
        if start == count &- 1 && start >= 0 && base[start] == 0x1B { return start }
        guard start >= 1, base[start] == UInt8(ascii: "["), base[start &- 1] == 0x1B else { return nil }
        return start &- 1
    }

    /// Where the first `count` bytes of a read end the control sequence kept open: after
    /// its final byte, if that comes before anything else and the sequence is one a redraw
    /// undoes; nil if not.
    mutating func openSequenceEnd(
        in base: UnsafePointer<UInt8>, count: Int, _ findRedraw: CellVectors.FindRedraw,
        _ items: UnsafeMutablePointer<Int>
    ) -> Int? {
        // After an ESC alone, `[` makes it a control sequence.
        var end = openCount == 1 && count > 0 && base[0] == UInt8(ascii: "[") ? 1 : 0
        while end < count && end &+ openCount < Self.openLimit && base[end] &- 0x20 < 0x20 { end &+= 1 }
        guard end < count, end &+ openCount < Self.openLimit, base[end] &- 0x40 < 0x3F else { return nil }
        end &+= 1
        (bytes + (self.count &+ openCount)).update(from: base, count: end)
        return isUndone(from: self.count, count: openCount &+ end, findRedraw, items) ? end : nil
    }

    /// Forgets what is kept (left out, or about to be fed).
    mutating func drop() {
        count = 0
        openCount = 0
        parserBeforeOpenSequence = nil
    }
}

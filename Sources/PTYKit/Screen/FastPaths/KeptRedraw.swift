/// The last redraw of a read, kept back instead of fed (the kept redraw): a program that
/// redraws whole screens (vim scrolling, a dashboard) erases this one in its next read, and
/// that read's redraw skip (FeedPlanner) then leaves it out with what comes before its own
/// erase. Only a redraw made of what such an erase, CUP and pen reset undo is kept (text,
/// CR, LF, cursor moves, erases, SGRs: nothing fed alone), ending at a boundary: it changes
/// none of what a relay reads after every read without feeding it (modes, titles, queries,
/// the parser's state, the rows above the start). The model feeds it before anything reads
/// or changes the screen, as it does the kept text.
struct KeptRedraw {
    /// A redraw of the widest screens, with colours; a longer one is fed.
    static let capacity = 16 * 1024
    /// `capacity` bytes, then room for `redrawStart` after them.
    let bytes: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    /// What begins a redraw: a pen reset, a CUP and ED 2. After the bytes of a redraw,
    /// the redraw skip leaves out all of them (resumes at their end) only if none is to be
    /// fed: how a redraw is checked for keeping.
    private static let redrawStart: [UInt8] = [0x1B, 0x5B, 0x6D, 0x1B, 0x5B, 0x48, 0x1B, 0x5B, 0x32, 0x4A]

    init() {
        bytes = .allocate(capacity: Self.capacity + Self.redrawStart.count)
    }

    func deallocate() {
        bytes.deallocate()
    }

    /// Keeps back `count` bytes from the start of a redraw at a boundary, if they fit, end
    /// at a boundary and hold only what the next redraw undoes (`findRedraw` says so of
    /// them followed by `redrawStart`); false, keeping nothing, if not. A last byte above
    /// 0x7F may leave a character open: not kept.
    mutating func keep(
        _ base: UnsafePointer<UInt8>, count: Int, _ findRedraw: CellVectors.FindRedraw,
        _ items: UnsafeMutablePointer<Int>
    ) -> Bool {
        self.count = 0
        guard count > 0, count <= Self.capacity, base[count &- 1] < 0x80 else { return false }
        bytes.update(from: base, count: count)
        Self.redrawStart.withUnsafeBufferPointer { (bytes + count).update(from: $0.baseAddress!, count: $0.count) }
        // No room for an item to feed alone: one makes the scan stop.
        let check = findRedraw(bytes, count &+ Self.redrawStart.count, items, 0)
        guard check.resume == count else { return false }
        self.count = count
        return true
    }

    /// Forgets what is kept (left out, or about to be fed).
    mutating func drop() {
        count = 0
    }
}

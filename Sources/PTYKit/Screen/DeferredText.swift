/// Plain text fed to the model but not yet written to its grid: what is left of a read
/// after the text that scrolled away in it was skipped, and the plain text of any reads
/// after it too short to scroll it away, kept back because the next read may scroll it
/// away (ScreenStateScrollAhead.swift). The model's screen is its grid
/// with this text fed; the model feeds it before anything reads or changes the screen.
struct DeferredText {
    /// At 80x24 what is left of a read is about 2 KiB; more than this is fed at once.
    static let capacity = 16 * 1024
    let bytes: UnsafeMutablePointer<UInt8>
    var count = 0
    /// Where the walk left the cursor after it: the rows it enters, and the cursor then;
    /// at offset 0, of the next read.
    var end = ScreenState.PlainTextWalk(offset: 0, x: 0, pendingWrap: false)

    init() {
        bytes = .allocate(capacity: Self.capacity)
    }

    func deallocate() {
        bytes.deallocate()
    }

    /// Keeps back plain text after what is kept (the rest of a read after a skip, or a read
    /// that did not scroll the kept text away), which leaves the cursor at `end`.
    mutating func append(_ base: UnsafePointer<UInt8>, count: Int, end: ScreenState.PlainTextWalk) {
        (bytes + self.count).update(from: base, count: count)
        self.count &+= count
        self.end = end
    }
}

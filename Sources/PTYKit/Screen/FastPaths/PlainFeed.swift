/// The plain path of every byte: the parser, the state it changes, and the sequence the
/// stream is inside. What the model shows is what this gives fed every byte in order; the
/// fast paths (FeedPlanner) only decide which bytes it need not see, and a model made with
/// `fastPaths: .none` feeds it all of them, as the reference the tests and the fuzz target
/// compare the fast paths with.
struct PlainFeed {
    var parser: ScreenParser
    var state: ScreenState
    var open = OpenSequence()

    /// Feeds `count` bytes to the parser and the grid.
    mutating func feed(_ base: UnsafePointer<UInt8>, count: Int) {
        parser.feed(base, count: count, into: &state)
        if parser.isAtBoundary {
            open.reset()
        } else {
            open.follow(UnsafeRawBufferPointer(start: base, count: count), openingAt: parser.openSequenceStart)
        }
    }

    /// Feeds `count` bytes kept back from before the sequence the stream is inside, which
    /// were fed after them (the kept text or redraw): from `boundary`, the parser before
    /// that sequence, the parser then put back inside it; as `feed` where there is none.
    mutating func feed(_ base: UnsafePointer<UInt8>, count: Int, before boundary: ScreenParser?) {
        guard let boundary else { return feed(base, count: count) }
        let inside = parser
        parser = boundary
        parser.feed(base, count: count, into: &state)
        parser = inside
    }

    /// Feeds bytes only until the stream reaches a boundary; how many it consumed.
    mutating func feedUntilBoundary(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let consumed = parser.feedUntilBoundary(
            base.assumingMemoryBound(to: UInt8.self), count: bytes.count, into: &state)
        if parser.isAtBoundary {
            open.reset()
        } else {
            open.follow(bytes, openingAt: nil)
        }
        return consumed
    }
}

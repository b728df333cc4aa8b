import CScreenKernels
import Glibc

extension ScreenModel {
    /// Whether a model takes its speed tricks (FeedPlanner) or feeds every byte through the
    /// parser and the state (PlainFeed): the reference the fuzz target and the tests compare
    /// the tricks with, as Ghostty's `debug` stream and libvterm's damage merging.
    package enum FastPaths: Sendable {
        case all
        case none
    }
}

/// The speed tricks around the plain feed, behind one boundary: the model hands every read
/// here, and the planner decides which of its bytes the parser and the state must see. It
/// owns what the tricks keep between reads; the state keeps nothing of theirs. The tricks,
/// named alike in types, comments, docs and tests:
///
/// - the scroll-ahead (ScreenStateScrollAhead.swift): plain text that scrolls away before
///   anything looks at it is walked, not fed;
/// - the kept text (KeptText): plain text kept back across reads, which the next read may
///   scroll away in turn;
/// - the redraw skip: a read that redraws the screen fed from its last redraw
///   (CScreenKernels' ccell_find_redraw);
/// - the kept redraw (KeptRedraw): that last redraw kept back, which the next read's
///   redraw skip may leave out in turn.
///
/// With `.none` every read goes to the plain feed whole. The state is the same either way
/// once the kept text is fed (`feedKeptText`), which everything that reads or changes the
/// screen does first.
struct FeedPlanner {
    let fastPaths: ScreenModel.FastPaths
    private(set) var keptText = KeptText()
    /// The parser at the boundary before the start of an SGR the kept text's read cut, fed
    /// (KeptText.cutCount): kept here, not in the kept text, which the walks are handed.
    private var parserBeforeCut: ScreenParser? = nil
    /// What the walks of the scroll-ahead note as they go.
    private var walkScratch = WalkScratch()
    /// Where the rows the scroll-ahead skipped are made for the scrollback hold.
    private var heldRows = HeldTextRows()
    /// Where the redraw skip's finder writes the items before the last redraw it feeds
    /// alone: offset and length of each.
    private let redrawItems: UnsafeMutablePointer<Int>
    private static let redrawItemsKept = 64
    private let findRedraw: CellVectors.FindRedraw
    /// The state's count of full erases when the redraw skip last looked for a redraw: it
    /// looks again only in a read after another.
    private var fullErasesLookedAt = 0
    /// How many bytes of reads the redraw skip left out, kept redraws included.
    private(set) var bytesSkippedBeforeRedraws = 0
    private(set) var keptRedraw = KeptRedraw()

    init(_ fastPaths: ScreenModel.FastPaths, vectors: CellVectors) {
        self.fastPaths = fastPaths
        redrawItems = .allocate(capacity: 2 * Self.redrawItemsKept)
        findRedraw = vectors.findRedraw
    }

    func deallocate() {
        keptText.deallocate()
        walkScratch.deallocate()
        heldRows.deallocate()
        redrawItems.deallocate()
        keptRedraw.deallocate()
    }

    /// Follows a read.
    mutating func feed(_ base: UnsafePointer<UInt8>, count: Int, _ plain: inout PlainFeed) {
        guard fastPaths == .all else { return plain.feed(base, count: count) }
        var base = base
        var count = count
        // Plain text is walked only from a boundary (ground, nothing half-read): the rest
        // of a sequence the last read cut (in a coloured flood, one read in a few) is fed
        // first.
        if !plain.parser.isAtBoundary {
            if keptRedraw.openCount > 0 && feedAfterOpenKeptRedraw(base, count: count, &plain) { return }
            let consumed: Int
            if keptText.cutCount > 0, let end = endCutRendition(base, count: count, &plain) {
                consumed = end
            } else {
                feedKeptText(&plain)
                consumed = plain.feedUntilBoundary(UnsafeRawBufferPointer(start: base, count: count))
            }
            guard consumed < count else { return }
            base += consumed
            count &-= consumed
        }
        if keptText.count > 0 {
            followKeptText(base, count: count, &plain)
        } else if !feedFromLastRedraw(base, count: count, &plain) {
            walkAndKeepBack(base, count: count, &plain)
        }
    }

    /// Feeds the kept text or the kept redraw, if any: what everything that reads or changes
    /// the screen does first. What neither can change (modes, titles, the parser's state,
    /// held queries) is read without them, so that a relay looking at those after every
    /// read keeps nothing from being skipped.
    mutating func feedKeptText(_ plain: inout PlainFeed) {
        feedKeptRedraw(&plain)
        let count = keptText.count
        guard count > 0 else { return }
        var boundary: ScreenParser? = nil
        if keptText.cutCount > 0 { swap(&boundary, &parserBeforeCut) }
        keptText.drop()
        plain.feed(keptText.bytes, count: count, before: boundary)
    }

    /// A read after kept text whose read's end cut an SGR: when the read ends it and the
    /// walk goes over the whole, it is kept back with the text, the parser put back at the
    /// boundary before it; how many bytes of the read that took, or nil, having done
    /// nothing, if not.
    private mutating func endCutRendition(_ base: UnsafePointer<UInt8>, count: Int, _ plain: inout PlainFeed)
        -> Int?
    {
        guard let boundary = parserBeforeCut, plain.state.walksGraphicRenditions,
            let end = keptText.endCutRendition(base, count: count)
        else { return nil }
        plain.parser = boundary
        parserBeforeCut = nil
        plain.open.reset()
        return end
    }

    /// Keeps back the plain text of a read, its bytes before `end` (the walk's end in it;
    /// `keep` has them kept), and feeds what follows: the start of an SGR the read's end
    /// cut, the parser before it kept with the text.
    private mutating func keepBack(
        _ base: UnsafePointer<UInt8>, count: Int, end: ScreenState.PlainTextWalk, _ plain: inout PlainFeed,
        _ keep: (inout KeptText, _ count: Int, _ end: ScreenState.PlainTextWalk) -> Void
    ) {
        var next = end
        next.offset = 0
        keep(&keptText, end.offset, next)
        plain.open.reset()
        guard end.offset < count else { return }
        if keptText.noteCut(base + end.offset, count: count &- end.offset) { parserBeforeCut = plain.parser }
        plain.feed(base + end.offset, count: count &- end.offset)
    }

    /// A read when nothing is kept back: the text in it that scrolls away skipped, and
    /// plain text kept back.
    private mutating func walkAndKeepBack(_ base: UnsafePointer<UInt8>, count: Int, _ plain: inout PlainFeed) {
        let start = plain.state.cursorWalk
        switch plain.state.walkRead(base, count: count, &walkScratch) {
        case .skipped(let ahead):
            plain.state.scrollAway(
                UnsafeBufferPointer(start: base, count: ahead.first.offset), from: start, topRow: 0, to: ahead.first,
                &heldRows)
            feedPenChanges(base, count: ahead.first.offset, &plain)
            keepBackOrFeed(base, count: count, ahead, streamOffset: 0, &plain)
        case .scrolledTooLittle(let end) where count <= KeptText.capacity:
            keepBack(base, count: count, end: end, &plain) {
                $0.keep(base, count: $1, start: start, end: $2, topRow: 0, streamStart: 0)
            }
        default:
            feedSkippingRedraws(base, count: count, &plain)
        }
    }

    /// A read after text kept back: in a flood each read scrolls away some of it.
    private mutating func followKeptText(_ base: UnsafePointer<UInt8>, count: Int, _ plain: inout PlainFeed) {
        switch plain.state.walkRead(base, count: count, after: keptText, &walkScratch) {
        case .skipped(let ahead):
            plain.state.scrollAway(
                UnsafeBufferPointer(start: keptText.bytes, count: keptText.count),
                then: UnsafeBufferPointer(start: base, count: ahead.first.offset), from: keptText.start,
                topRow: keptText.topRow, to: ahead.first, &heldRows)
            feedPenChanges(keptText.bytes, count: keptText.count, &plain)
            feedPenChanges(base, count: ahead.first.offset, &plain)
            keepBackOrFeed(base, count: count, ahead, streamOffset: keptText.streamEnd, &plain)
        case .scrolledKeptText(let row, let end):
            let first = plain.state.scrollAway(keptText: keptText, toRow: row, &walkScratch, &heldRows)
            feedPenChanges(keptText.bytes, count: first.offset, &plain)
            keptText.drop(before: first)
            keepBackAfterKeptText(base, count: count, end: end, &plain)
        case .scrolledTooLittle(let end):
            keepBackAfterKeptText(base, count: count, end: end, &plain)
        case .notPlain:
            // Walked again from the cursor after the kept text, the read would scroll no
            // more before that byte: it is fed after the kept text.
            feedKeptText(&plain)
            feedSkippingRedraws(base, count: count, &plain)
        }
    }

    /// Keeps back a read after the kept text, which leaves the cursor at `end` if it is
    /// plain text to its end, if there is room; else feeds both (a read that fits alone
    /// may then be kept back in its place).
    private mutating func keepBackAfterKeptText(
        _ base: UnsafePointer<UInt8>, count: Int, end: ScreenState.PlainTextWalk?, _ plain: inout PlainFeed
    ) {
        guard let end else {
            feedKeptText(&plain)
            return feedSkippingRedraws(base, count: count, &plain)
        }
        guard keptText.count &+ count <= KeptText.capacity else {
            feedKeptText(&plain)
            return walkAndKeepBack(base, count: count, &plain)
        }
        keepBack(base, count: count, end: end, &plain) { $0.append(base, count: $1, end: $2) }
    }

    /// After a skip, keeps back the rest of the read, its first byte at `streamOffset` of
    /// the text walked, in place of the kept text if it is all plain text (the next read
    /// may scroll it away); else feeds it.
    private mutating func keepBackOrFeed(
        _ base: UnsafePointer<UInt8>, count: Int, _ ahead: ScreenState.ScrollAhead, streamOffset: Int,
        _ plain: inout PlainFeed
    ) {
        let first = ahead.first
        let rest = count &- first.offset
        guard var end = ahead.end, rest <= KeptText.capacity else {
            keptText.drop()
            return feedSkippingRedraws(base + first.offset, count: rest, &plain)
        }
        end.offset &-= first.offset
        keepBack(base + first.offset, count: rest, end: end, &plain) {
            $0.keep(
                base + first.offset, count: $1,
                start: ScreenState.PlainTextWalk(offset: 0, x: first.x, pendingWrap: false, row: first.row), end: $2,
                topRow: first.row, streamStart: streamOffset &+ first.offset)
        }
    }

    /// Feeds the parser the SGRs in `count` bytes of walked text that will not be fed
    /// (skipped, or kept text dropped): all that text no one will see still changes is the
    /// pen. Only those from the last that begins with a reset.
    private func feedPenChanges(_ base: UnsafePointer<UInt8>, count: Int, _ plain: inout PlainFeed) {
        var offset = ScreenState.lastPenReset(in: base, count: count)
        while offset < count, let escape = memchr(base + offset, 0x1B, count &- offset) {
            let start = UnsafePointer<UInt8>(escape.assumingMemoryBound(to: UInt8.self)) - base
            // A walked SGR ends at its `m`, before `count`.
            var end = start &+ 2
            while base[end] != UInt8(ascii: "m") { end &+= 1 }
            plain.feed(base + start, count: end &+ 1 &- start)
            offset = end &+ 1
        }
    }

    /// The redraw skip: feeds a read, or what is left of it, from its last redraw. A
    /// program that redraws whole screens (vim, a dashboard: ED 2 in the last read) draws
    /// several in a read, and only the last is seen: what comes before the last redraw's
    /// CUP and pen reset is left out where the ED 2, CUP and reset undo all of it, but for
    /// the modes, titles and the like in it, fed alone (CScreenKernels' ccell_find_redraw).
    /// Not while the scrollback is held on the main screen (`mayLeaveOutRedraws`).
    private mutating func feedSkippingRedraws(_ base: UnsafePointer<UInt8>, count: Int, _ plain: inout PlainFeed) {
        guard plain.state.fullErases != fullErasesLookedAt && Self.mayLeaveOutRedraws(plain.state) else {
            return plain.feed(base, count: count)
        }
        fullErasesLookedAt = plain.state.fullErases
        let redraw = findRedraw(base, count, redrawItems, Self.redrawItemsKept)
        guard redraw.resume >= 0 else { return plain.feed(base, count: count) }
        feedFromRedraw(base, count: count, redraw, &plain)
    }

    /// The redraw skip before the scroll-ahead, for a read after a kept redraw or an ED 2
    /// (a program that redraws: its reads begin with sequences, where the walk would stop
    /// anyway, or with the rest of a redraw, which the walk would go over for nothing);
    /// false, having fed the kept redraw, where the read has no redraw to feed from.
    private mutating func feedFromLastRedraw(_ base: UnsafePointer<UInt8>, count: Int, _ plain: inout PlainFeed)
        -> Bool
    {
        guard keptRedraw.count > 0 || plain.state.fullErases != fullErasesLookedAt,
            Self.mayLeaveOutRedraws(plain.state)
        else { return false }
        let redraw = findRedraw(base, count, redrawItems, Self.redrawItemsKept)
        // Looked at: not again behind the walk.
        fullErasesLookedAt = plain.state.fullErases
        guard redraw.resume >= 0 else {
            feedKeptRedraw(&plain)
            return false
        }
        feedFromRedraw(base, count: count, redraw, &plain)
        return true
    }

    /// Feeds a read from its last redraw, which `redraw` found: the redraw kept before it
    /// and the bytes before `resume` left out, the items among them fed alone; the last
    /// redraw kept back if it may be.
    private mutating func feedFromRedraw(
        _ base: UnsafePointer<UInt8>, count: Int, _ redraw: ccell_redraw, _ plain: inout PlainFeed
    ) {
        bytesSkippedBeforeRedraws &+= keptRedraw.count &+ redraw.resume
        keptRedraw.drop()
        for index in 0..<redraw.fed { plain.feed(base + redrawItems[2 &* index], count: redrawItems[2 &* index &+ 1]) }
        let rest = base + redraw.resume
        let restCount = count &- redraw.resume
        // The rows above the start follow an erase on the main screen: those are read
        // after every read.
        guard plain.state.history.rowsBeforeStart == 0 || plain.state.onAlternate,
            keptRedraw.keep(rest, count: restCount, plain.parser, findRedraw, redrawItems)
        else { return plain.feed(rest, count: restCount) }
        plain.open.reset()
        // The control sequence the read ended inside: the parser and the open sequence
        // follow it.
        if keptRedraw.openCount > 0 { plain.feed(keptRedraw.bytes + keptRedraw.count, count: keptRedraw.openCount) }
    }

    /// A read after a kept redraw that ended inside a control sequence (the parser inside
    /// it): when the read ends that sequence with one a redraw undoes and then redraws, all
    /// three are left out, the parser put back at the boundary before the sequence; false,
    /// having done nothing, if not.
    private mutating func feedAfterOpenKeptRedraw(_ base: UnsafePointer<UInt8>, count: Int, _ plain: inout PlainFeed)
        -> Bool
    {
        guard let end = keptRedraw.openSequenceEnd(in: base, count: count, findRedraw, redrawItems),
            let boundary = keptRedraw.parserBeforeOpenSequence
        else { return false }
        let redraw = findRedraw(base + end, count &- end, redrawItems, Self.redrawItemsKept)
        guard redraw.resume >= 0 else { return false }
        plain.parser = boundary
        plain.open.reset()
        fullErasesLookedAt = plain.state.fullErases
        bytesSkippedBeforeRedraws &+= keptRedraw.openCount &+ end
        feedFromRedraw(base + end, count: count &- end, redraw, &plain)
        return true
    }

    /// Whether the redraw skip may leave bytes out: not while the scrollback is held on the
    /// main screen, where text that scrolls off before the erase goes to the hold. Nothing
    /// scrolls into it from the alternate screen (a full-screen program's, while locked),
    /// and what the skip leaves out cannot switch screens.
    private static func mayLeaveOutRedraws(_ state: ScreenState) -> Bool {
        !state.history.isHolding || state.onAlternate
    }

    /// Feeds the kept redraw, if any; one that ended inside a control sequence from the
    /// parser before it, the parser then put back inside it.
    private mutating func feedKeptRedraw(_ plain: inout PlainFeed) {
        let count = keptRedraw.count
        guard count > 0 else { return }
        let boundary = keptRedraw.parserBeforeOpenSequence
        keptRedraw.drop()
        plain.feed(keptRedraw.bytes, count: count, before: boundary)
    }
}

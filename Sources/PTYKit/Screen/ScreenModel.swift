import Glibc

/// A model of the screen a program draws on through its terminal: feed it every byte the
/// program writes and it keeps the grid of cells of the main and alternate screens, the
/// cursor, the pen, margins, modes, character sets, tab stops and titles, and can render
/// the bytes that bring any xterm-compatible terminal back to exactly that screen.
///
/// It cannot restore what it does not model: images (sixel, kitty graphics, iTerm2), the
/// terminal's own scrollback (it only adds held lines to it), its palette and default
/// colours (OSC 4, 10-12, 104-112 are not replayed), the icon name from before it, the title stack the
/// terminal had before, selection, and modes it does not track (see docs/screen-model.md).
///
/// All state lives behind one pointer owned by this class, so the hot loop runs without
/// reference counting or exclusivity checks. Not thread-safe: one owner, one thread.
public final class ScreenModel {
    struct Engine {
        var parser: ScreenParser
        var state: ScreenState
        var open = OpenSequence()
        var deferred = DeferredText()
        /// How many bytes of reads were left out before a redraw (`applyRead`).
        var leftOutOfRedraws = 0
    }

    private let engine: UnsafeMutablePointer<Engine>
    private let stringStorage: UnsafeMutablePointer<UInt8>

    /// A screen of `rows` by `columns` cells, as a terminal just reset. A side of 0 is one
    /// the terminal does not report (a serial console, a pty nobody sized): 24 rows or 80
    /// columns, as the programs in it and tmux take it; a 1-cell screen would wrap every
    /// character and repaint nothing of what they drew.
    public convenience init(rows: Int, columns: Int) {
        self.init(rows: rows, columns: columns, vectors: .chosen)
    }

    /// With the C loops of `vectors` (tests pin each form the CPU has against SSE2).
    init(rows: Int, columns: Int, vectors: CellVectors) {
        stringStorage = .allocate(capacity: ControlString.capacity)
        engine = .allocate(capacity: 1)
        engine.initialize(
            to: Engine(
                parser: ScreenParser(stringStorage: stringStorage, scansWithAVX2: vectors.searchesWithAVX2),
                state: ScreenState(
                    rows: Self.side(rows, unreported: WindowSize.unreportedRows),
                    columns: Self.side(columns, unreported: WindowSize.unreportedColumns),
                    vectors: vectors)))
    }

    deinit {
        engine.pointee.deferred.deallocate()
        engine.pointee.state.scrollback?.deallocate()
        engine.pointee.state.deallocate()
        engine.deinitialize(count: 1)
        engine.deallocate()
        stringStorage.deallocate()
    }

    public var rows: Int { engine.pointee.state.rows }
    public var columns: Int { engine.pointee.state.columns }

    // MARK: - Feeding

    /// Follows `bytes`; the fast path. Queries in it are held while `isHoldingQueries`.
    public func feed(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var count = bytes.count
        // Plain text is walked only from a boundary (ground, nothing half-read): the rest
        // of a sequence the last read cut (in a coloured flood, one read in a few) is fed
        // first.
        if !engine.pointee.parser.isAtBoundary {
            let consumed = feedUntilBoundary(bytes)
            guard consumed < count else { return }
            base += consumed
            count &-= consumed
        }
        if engine.pointee.deferred.count > 0 {
            followKeptText(base, count: count)
        } else {
            walkAndKeepBack(base, count: count)
        }
    }

    /// A read when nothing is kept back: the text in it that scrolls away skipped, and
    /// plain text kept back.
    private func walkAndKeepBack(_ base: UnsafePointer<UInt8>, count: Int) {
        let engine = self.engine
        let start = engine.pointee.state.cursorWalk
        switch engine.pointee.state.walkRead(base, count: count) {
        case .skipped(let ahead):
            applyPenChanges(base, count: ahead.first.offset)
            keepBackOrApply(base, count: count, ahead, streamOffset: 0)
        case .scrolledTooLittle(let end) where count <= DeferredText.capacity:
            engine.pointee.deferred.keep(base, count: count, start: start, end: end, topRow: 0, streamStart: 0)
            engine.pointee.open.reset()
        default:
            applyRead(base, count: count)
        }
    }

    /// A read after text kept back: in a flood each read scrolls away some of it.
    private func followKeptText(_ base: UnsafePointer<UInt8>, count: Int) {
        let engine = self.engine
        switch engine.pointee.state.walkRead(base, count: count, after: engine.pointee.deferred) {
        case .skipped(let ahead):
            applyPenChanges(engine.pointee.deferred.bytes, count: engine.pointee.deferred.count)
            applyPenChanges(base, count: ahead.first.offset)
            keepBackOrApply(base, count: count, ahead, streamOffset: engine.pointee.deferred.streamEnd)
        case .scrolledKeptText(let row, let end):
            let first = engine.pointee.state.scrollAway(keptText: engine.pointee.deferred, toRow: row)
            applyPenChanges(engine.pointee.deferred.bytes, count: first.offset)
            engine.pointee.deferred.drop(before: first)
            keepBackAfterKeptText(base, count: count, end: end)
        case .scrolledTooLittle(let end):
            keepBackAfterKeptText(base, count: count, end: end)
        case .notPlain:
            // Walked again from the cursor after the kept text, the read would scroll no
            // more before that byte: it is fed after the kept text.
            applyDeferredText()
            applyRead(base, count: count)
        }
    }

    /// Keeps back a read after the text kept back, which leaves the cursor at `end` if it
    /// is plain text to its end, if there is room; else feeds both (a read that fits alone
    /// may then be kept back in its place).
    private func keepBackAfterKeptText(_ base: UnsafePointer<UInt8>, count: Int, end: ScreenState.PlainTextWalk?) {
        guard let end else {
            applyDeferredText()
            return applyRead(base, count: count)
        }
        guard engine.pointee.deferred.count &+ count <= DeferredText.capacity else {
            applyDeferredText()
            return walkAndKeepBack(base, count: count)
        }
        engine.pointee.deferred.append(base, count: count, end: end)
    }

    /// After a skip, keeps back the rest of the read, its first byte at `streamOffset` of
    /// the text walked, in place of what was kept if it is all plain text (the next read
    /// may scroll it away); else feeds it.
    private func keepBackOrApply(
        _ base: UnsafePointer<UInt8>, count: Int, _ ahead: ScreenState.ScrollAhead, streamOffset: Int
    ) {
        let first = ahead.first
        let rest = count &- first.offset
        guard let end = ahead.end, rest <= DeferredText.capacity else {
            engine.pointee.deferred.count = 0
            return applyRead(base + first.offset, count: rest)
        }
        engine.pointee.deferred.keep(
            base + first.offset, count: rest,
            start: ScreenState.PlainTextWalk(offset: 0, x: first.x, pendingWrap: false, row: first.row), end: end,
            topRow: first.row, streamStart: streamOffset &+ first.offset)
        engine.pointee.open.reset()
    }

    /// Feeds the parser the SGRs in `count` bytes of walked text that will not be fed
    /// (skipped, or kept text dropped): all that text no one will see still changes is the
    /// pen. Only those from the last that begins with a reset.
    private func applyPenChanges(_ base: UnsafePointer<UInt8>, count: Int) {
        var offset = ScreenState.lastPenReset(in: base, count: count)
        while offset < count, let escape = memchr(base + offset, 0x1B, count &- offset) {
            let start = UnsafePointer<UInt8>(escape.assumingMemoryBound(to: UInt8.self)) - base
            // A walked SGR ends at its `m`, before `count`.
            var end = start &+ 2
            while base[end] != UInt8(ascii: "m") { end &+= 1 }
            apply(base + start, count: end &+ 1 &- start)
            offset = end &+ 1
        }
    }

    /// Feeds a read, or what is left of it, to the parser and the grid. A program that
    /// redraws whole screens (vim, a dashboard: ED 2 in the last read) draws several in a
    /// read, and only the last is seen: what comes before the last redraw's CUP and pen
    /// reset is left out where the ED 2, CUP and reset undo all of it, but for the modes,
    /// titles and the like in it, fed alone (CCellStores' ccell_find_redraw). Not while
    /// the scrollback is held: text that scrolls off before the erase goes there.
    private func applyRead(_ base: UnsafePointer<UInt8>, count: Int) {
        let engine = self.engine
        guard engine.pointee.state.erasedFully && engine.pointee.state.scrollback == nil else {
            return apply(base, count: count)
        }
        engine.pointee.state.erasedFully = false
        let items = engine.pointee.state.walkScratch.lineStops
        let redraw = engine.pointee.state.findRedraw(base, count, items, WalkScratch.lineStopsABatch / 2)
        guard redraw.resume > 0 else { return apply(base, count: count) }
        for index in 0..<redraw.fed { apply(base + items[2 &* index], count: items[2 &* index &+ 1]) }
        engine.pointee.leftOutOfRedraws &+= redraw.resume
        apply(base + redraw.resume, count: count &- redraw.resume)
    }

    /// Feeds `count` bytes to the parser and the grid.
    private func apply(_ base: UnsafePointer<UInt8>, count: Int) {
        let engine = self.engine
        engine.pointee.parser.feed(base, count: count, into: &engine.pointee.state)
        if engine.pointee.parser.isAtBoundary {
            engine.pointee.open.reset()
        } else {
            engine.pointee.open.follow(
                UnsafeRawBufferPointer(start: base, count: count), openingAt: engine.pointee.parser.openSequenceStart)
        }
    }

    /// Feeds the plain text kept back, if any.
    private func applyDeferredText() {
        let count = engine.pointee.deferred.count
        guard count > 0 else { return }
        engine.pointee.deferred.count = 0
        apply(engine.pointee.deferred.bytes, count: count)
    }

    /// The engine, with the plain text kept back fed: what everything that reads or
    /// changes the screen goes through. What plain text cannot change (modes, titles, the
    /// parser's state, held queries) is read without it, so that a relay looking at those
    /// after every read keeps nothing from being skipped.
    private var settled: UnsafeMutablePointer<Engine> {
        applyDeferredText()
        return engine
    }

    /// Follows bytes only until the stream reaches a boundary, and returns how many it
    /// consumed: 0 if it is already at one, `bytes.count` if it never reaches one. A lock
    /// engages, and pass-through resumes after it, only at a boundary.
    public func feedUntilBoundary(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let engine = settled
        let consumed = engine.pointee.parser.feedUntilBoundary(
            base.assumingMemoryBound(to: UInt8.self), count: bytes.count, into: &engine.pointee.state)
        if engine.pointee.parser.isAtBoundary {
            engine.pointee.open.reset()
        } else {
            engine.pointee.open.follow(bytes, openingAt: nil)
        }
        return consumed
    }

    /// True when nothing is half-parsed: not inside an escape sequence, a control string or
    /// a UTF-8 character.
    public var isAtBoundary: Bool { engine.pointee.parser.isAtBoundary }

    /// Where in `bytes`, fed from the current state, the stream was last at a boundary (the
    /// offset after it), or nil if it never was. Changes nothing.
    public func lastBoundary(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return isAtBoundary ? 0 : nil }
        return engine.pointee.parser.lastBoundary(in: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }

    /// The bytes since the stream was last at a boundary (at most 4096; none past that):
    /// written after a repaint, they leave the terminal inside the same sequence as the
    /// stream, so the rest of it arrives whole. Controls inside it are left out: a terminal
    /// carries them out where they come (or ignores them in a string), and the repaint
    /// already shows what they did.
    public var openSequence: [UInt8] { engine.pointee.open.prefix.filter { $0 >= 0x20 || $0 == 0x1B } }

    /// Bytes that end whatever sequence, string or character the stream is in, on every
    /// terminal (CAN, then ST for a DCS string that tmux keeps open), and change nothing
    /// else; fed to the model too, they bring it to a boundary from any state.
    public static let cut: [UInt8] = ScreenParser.cut

    // MARK: - What the lock hides and restores

    /// The input modes, the cursor's visibility, the alternate screen and the titles set.
    public var modes: ScreenModes { engine.pointee.state.modes }

    /// How many times the stream set the window title (wrapping): a change says a title was
    /// set since.
    public var titleSets: UInt { engine.pointee.state.titleSets }

    /// The window title the stream last set with OSC 0 or 2 (empty if none), as bytes.
    public var title: [UInt8] { engine.pointee.state.title }

    /// The icon name the stream last set with OSC 0 or 1 (nil if none), as bytes.
    public var iconName: [UInt8]? { engine.pointee.state.iconName }

    /// How many titles the stream pushed (XTPUSHTITLE) and did not pop.
    public var titleStackDepth: Int { engine.pointee.state.titleStack.count }

    /// tmux's window name (`ESC k`), nil if never set.
    public var windowName: [UInt8]? { engine.pointee.state.windowName }

    /// The working directory the stream announced with OSC 7 (a `file://` URI), if any.
    public var workingDirectory: [UInt8]? { engine.pointee.state.workingDirectory }

    // MARK: - Rendering

    /// Appends the bytes that bring an xterm-compatible terminal from any state to exactly
    /// this screen: both screens' cells, the cursor with its pending wrap, the saved
    /// cursor, tab stops, character sets, margins, origin, autowrap and insert modes, the
    /// cursor's shape and visibility, inside synchronized output. Input modes are not set
    /// (`ScreenModes.appendInputModesOn` does that), nor titles. Last, the character the
    /// stream printed last is printed again where it is, so that a REP coming next repeats
    /// it as it would have (any sequence after that would make a terminal forget it):
    /// `beforeLastCharacter` appends what is to be written after the repaint but before it.
    public func appendRepaint(
        to buffer: OutputBuffer, beforeLastCharacter: (OutputBuffer) -> Void = { _ in }
    ) {
        let engine = settled
        engine.pointee.state.repaint(into: buffer)
        beforeLastCharacter(buffer)
        engine.pointee.state.appendLastPrinted(into: buffer)
    }

    /// Appends the known state a screen of one's own draws from: no margins, origin mode
    /// off, ASCII, insert mode off, the default pen, autowrap as asked (cursor homed).
    public static func appendKnownState(autowrap: Bool, to buffer: OutputBuffer) {
        ScreenState.appendKnownState(autowrap: autowrap, to: buffer)
    }

    // MARK: - Scrollback while not shown

    /// From now on, every line that scrolls off the top of the main screen (a full-screen
    /// scroll region: what every terminal keeps in its history) is rendered into a hold of
    /// at most `limit` bytes; past it the oldest lines are dropped and counted. The hold
    /// grows as lines arrive; where memory runs out first, that is its limit.
    public func startHoldingScrollback(limit: Int) {
        let engine = settled
        engine.pointee.state.scrollback?.deallocate()
        engine.pointee.state.scrollback = ScrollbackHold(limit: limit)
        engine.pointee.state.rowsBeforeStartHeld = 0
        engine.pointee.state.tabStopsChanged = false
    }

    /// Lines held, bytes they take, and lines dropped past the limit.
    public var heldScrollback: (lines: Int, bytes: Int, dropped: Int) {
        guard let hold = engine.pointee.state.scrollback else { return (0, 0, 0) }
        return (hold.lineCount, hold.usedBytes, hold.droppedLines)
    }

    /// Appends the held lines, put into the terminal's history once and in order, followed
    /// by the repaint (`appendRepaint`, with its `beforeLastCharacter`; the tab stops only
    /// where they changed while held: the terminal had every byte before); then stops
    /// holding. Without a hold, just the repaint. `notice`, if given, goes into the history
    /// after the held lines, as a line of its own (plain text, one row): the line just
    /// above the screen, kept however short the history is (or just above the rows of a
    /// line that wrapped onto the screen, which it must not split). `drain`, if given,
    /// takes the buffer's bytes (then emptied) whenever the held lines have filled 64 KiB
    /// of it: writing them then needs no memory of their size.
    public func appendHeldScrollbackAndRepaint(
        to buffer: OutputBuffer, notice: [UInt8] = [], drain: ((OutputBuffer) -> Void)? = nil,
        beforeLastCharacter: (OutputBuffer) -> Void = { _ in }
    ) {
        let engine = settled
        if let hold = engine.pointee.state.scrollback {
            engine.pointee.state.scrollback = nil
            engine.pointee.state.scrollbackAndRepaint(hold, notice: notice, drain: drain, into: buffer)
            engine.pointee.state.rowsBeforeStartHeld = 0
            hold.deallocate()
        } else {
            engine.pointee.state.repaint(into: buffer)
        }
        beforeLastCharacter(buffer)
        engine.pointee.state.appendLastPrinted(into: buffer)
    }

    /// Stops holding and discards what was held.
    public func discardHeldScrollback() {
        let engine = settled
        engine.pointee.state.scrollback?.deallocate()
        engine.pointee.state.scrollback = nil
        engine.pointee.state.rowsBeforeStartHeld = 0
    }

    // MARK: - Where the program started

    /// The terminal's cursor was at `row`, `column` (0-based; clamped to the screen) when
    /// the program started: the cursor starts there, and the rows above it hold what the
    /// terminal showed before, which the model never saw. The repaint leaves those rows as
    /// they are (a terminal with an alternate screen has kept them) until the program
    /// scrolls them away, erases them or moves the cursor onto them; cells of the start
    /// row left of `column` are blank. Call it before the first `feed`.
    public func start(atRow row: Int, column: Int) {
        settled.pointee.state.start(atRow: row, column: column)
    }

    /// How many rows at the top of the main screen are still the terminal's from before the
    /// program (see `start(atRow:column:)`): the repaint leaves them alone.
    public var rowsBeforeStart: Int { engine.pointee.state.rowsBeforeStart }

    // MARK: - Size

    /// The terminal's new size. Rows and columns are cut or padded, without reflowing
    /// wrapped lines (as xterm; tmux reflows): the program redraws on the SIGWINCH it gets,
    /// and a reflow would not match what a terminal without one shows. When rows go, those
    /// above the cursor go first (into the history, and into the hold while holding), so
    /// the cursor row stays visible, as xterm and tmux do. Margins are reset.
    public func resize(rows: Int, columns: Int) {
        settled.pointee.state.resize(
            rows: Self.side(rows, unreported: WindowSize.unreportedRows),
            columns: Self.side(columns, unreported: WindowSize.unreportedColumns))
    }

    /// A side of the screen as a terminal reports it: 0 is `unreported`, and there is at
    /// least one cell.
    private static func side(_ reported: Int, unreported: UInt16) -> Int {
        reported == 0 ? Int(unreported) : max(reported, 1)
    }

    // MARK: - Queries

    /// While true, the queries the stream asks the terminal (DSR, DA1-3, DECRQM, XTVERSION,
    /// window reports, kitty flags, OSC colour and clipboard queries, DECRQSS, XTGETTCAP)
    /// are kept, to be sent after the repaint so that the answers describe the screen shown.
    public var isHoldingQueries: Bool {
        get { engine.pointee.state.queries.isHolding }
        set { engine.pointee.state.queries.isHolding = newValue }
    }

    /// The queries held so far, in order, and forgets them.
    public func takeHeldQueries() -> [UInt8] {
        engine.pointee.state.queries.take()
    }

    /// How many queries the stream asked in all.
    public var queryCount: Int { engine.pointee.state.queries.count }

    // MARK: - Comparing

    /// The visible state as a value.
    public func snapshot() -> ScreenSnapshot {
        ScreenSnapshot(settled.pointee.state)
    }

    /// The text of visible row `row`, blanks as spaces, trailing blanks kept.
    public func text(row: Int) -> String {
        let engine = settled
        return ScreenSnapshot.rowText(engine.pointee.state.grid, row: row, state: engine.pointee.state)
    }

    /// The cursor: 0-based row and column, and whether a wrap is pending.
    public var cursor: (row: Int, column: Int, pendingWrap: Bool) {
        let engine = settled
        return (engine.pointee.state.y, engine.pointee.state.x, engine.pointee.state.pendingWrap)
    }

    /// Whether the alternate screen is shown.
    public var isAlternateScreen: Bool { engine.pointee.state.onAlternate }

    var state: ScreenState { settled.pointee.state }

    /// The first id the state holds that names no entry of its tables, described; nil when
    /// all are good. Walks every cell: for the fuzz target and tests, after any feed (text
    /// kept back is not fed for it).
    package func firstBrokenTableReference() -> String? {
        engine.pointee.state.firstBrokenTableReference()
    }

    /// How many bytes of plain text are kept back now.
    var deferredTextCount: Int { engine.pointee.deferred.count }

    /// How many bytes of reads were left out before a redraw.
    var bytesLeftOutOfRedraws: Int { engine.pointee.leftOutOfRedraws }
}

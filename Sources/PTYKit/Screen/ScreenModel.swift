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
    /// The plain feed and the speed tricks around it (FeedPlanner).
    struct Engine {
        var plain: PlainFeed
        var planner: FeedPlanner
    }

    private let engine: UnsafeMutablePointer<Engine>
    private let parserStorage: UnsafeMutablePointer<UInt8>

    /// A screen of `rows` by `columns` cells, as a terminal just reset. A side of 0 is one
    /// the terminal does not report (a serial console, a pty nobody sized): 24 rows or 80
    /// columns, as the programs in it and tmux take it; a 1-cell screen would wrap every
    /// character and repaint nothing of what they drew.
    public convenience init(rows: Int, columns: Int) {
        self.init(rows: rows, columns: columns, fastPaths: .all)
    }

    /// With the speed tricks, or none: every byte through the parser and the state, the
    /// reference the tests and the fuzz target compare the tricks with.
    package convenience init(rows: Int, columns: Int, fastPaths: FastPaths) {
        self.init(rows: rows, columns: columns, fastPaths: fastPaths, vectors: .chosen)
    }

    /// With the C loops of `vectors` (tests pin each form the CPU has against SSE2).
    init(rows: Int, columns: Int, fastPaths: FastPaths = .all, vectors: CellVectors) {
        parserStorage = .allocate(capacity: ScreenParser.storageCapacity)
        engine = .allocate(capacity: 1)
        engine.initialize(
            to: Engine(
                plain: PlainFeed(
                    parser: ScreenParser(storage: parserStorage, vectors: vectors),
                    state: ScreenState(
                        rows: Self.side(rows, unreported: WindowSize.unreportedRows),
                        columns: Self.side(columns, unreported: WindowSize.unreportedColumns),
                        vectors: vectors)),
                planner: FeedPlanner(fastPaths, vectors: vectors)))
    }

    deinit {
        engine.pointee.planner.deallocate()
        engine.pointee.plain.state.history.deallocate()
        engine.pointee.plain.state.deallocate()
        engine.deinitialize(count: 1)
        engine.deallocate()
        parserStorage.deallocate()
    }

    public var rows: Int { engine.pointee.plain.state.rows }
    public var columns: Int { engine.pointee.plain.state.columns }

    // MARK: - Feeding

    /// Follows `bytes`; the fast path. Queries in it are held while `isHoldingQueries`.
    public func feed(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        engine.pointee.planner.feed(base, count: bytes.count, &engine.pointee.plain)
    }

    /// The engine, with the kept text fed: what everything that reads or changes the screen
    /// goes through (FeedPlanner.feedKeptText says what is read without it).
    private var settled: UnsafeMutablePointer<Engine> {
        engine.pointee.planner.feedKeptText(&engine.pointee.plain)
        return engine
    }

    /// Follows bytes only until the stream reaches a boundary, and returns how many it
    /// consumed: 0 if it is already at one, `bytes.count` if it never reaches one. A lock
    /// engages, and pass-through resumes after it, only at a boundary.
    public func feedUntilBoundary(_ bytes: UnsafeRawBufferPointer) -> Int {
        settled.pointee.plain.feedUntilBoundary(bytes)
    }

    /// True when nothing is half-parsed: not inside an escape sequence, a control string or
    /// a UTF-8 character.
    public var isAtBoundary: Bool { engine.pointee.plain.parser.isAtBoundary }

    /// Where in `bytes`, fed from the current state, the stream was last at a boundary (the
    /// offset after it), or nil if it never was. Changes nothing.
    public func lastBoundary(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return isAtBoundary ? 0 : nil }
        return engine.pointee.plain.parser.lastBoundary(
            in: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }

    /// The bytes since the stream was last at a boundary (at most 4096; none past that):
    /// written after a repaint, they leave the terminal inside the same sequence as the
    /// stream, so the rest of it arrives whole. Controls inside it are left out: a terminal
    /// carries them out where they come (or ignores them in a string), and the repaint
    /// already shows what they did.
    public var openSequence: [UInt8] { engine.pointee.plain.open.prefix.filter { $0 >= 0x20 || $0 == 0x1B } }

    /// Bytes that end whatever sequence, string or character the stream is in, on every
    /// terminal (CAN, then ST for a DCS string that tmux keeps open), and change nothing
    /// else; fed to the model too, they bring it to a boundary from any state.
    public static let cut: [UInt8] = ScreenParser.cut

    // MARK: - What the lock hides and restores

    /// The input modes, the cursor's visibility, the alternate screen and the titles set.
    public var modes: ScreenModes { engine.pointee.plain.state.modes }

    /// How many times the stream set the window title (wrapping): a change says a title was
    /// set since.
    public var titleSets: UInt { engine.pointee.plain.state.titles.sets }

    /// The window title the stream last set with OSC 0 or 2 (empty if none), as bytes.
    public var title: [UInt8] { engine.pointee.plain.state.titles.title }

    /// The icon name the stream last set with OSC 0 or 1 (nil if none), as bytes.
    public var iconName: [UInt8]? { engine.pointee.plain.state.titles.iconName }

    /// How many titles the stream pushed (XTPUSHTITLE) and did not pop.
    public var titleStackDepth: Int { engine.pointee.plain.state.titles.stack.count }

    /// tmux's window name (`ESC k`), nil if never set.
    public var windowName: [UInt8]? { engine.pointee.plain.state.titles.windowName }

    /// The working directory the stream announced with OSC 7 (a `file://` URI), if any.
    public var workingDirectory: [UInt8]? { engine.pointee.plain.state.titles.workingDirectory }

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
        engine.pointee.plain.state.repaint(into: buffer)
        beforeLastCharacter(buffer)
        engine.pointee.plain.state.appendLastPrinted(into: buffer)
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
        engine.pointee.plain.state.history.startHolding(limit: limit)
        engine.pointee.plain.state.tabStops.changed = false
    }

    /// Lines held, bytes they take, and lines dropped past the limit (while holding, the
    /// kept text fed: the lines it scrolls away are held then).
    public var heldScrollback: (lines: Int, bytes: Int, dropped: Int) {
        guard engine.pointee.plain.state.history.isHolding,
            let hold = settled.pointee.plain.state.renderedHold()
        else { return (0, 0, 0) }
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
        if let hold = engine.pointee.plain.state.renderedHold() {
            engine.pointee.plain.state.scrollbackAndRepaint(hold, notice: notice, drain: drain, into: buffer)
            engine.pointee.plain.state.history.stopHolding()
        } else {
            engine.pointee.plain.state.repaint(into: buffer)
        }
        beforeLastCharacter(buffer)
        engine.pointee.plain.state.appendLastPrinted(into: buffer)
    }

    /// Appends the held lines as plain text, oldest first (`PlainTextFilter`: for a terminal
    /// that shows an escape sequence as text), then stops holding. `drain` takes the
    /// buffer's bytes (then emptied) as each 64 KiB of the held lines is written, as for
    /// `appendHeldScrollbackAndRepaint`: writing them needs no memory of their size.
    public func appendHeldScrollbackAsText(to buffer: OutputBuffer, drain: (OutputBuffer) -> Void) {
        let engine = settled
        guard let hold = engine.pointee.plain.state.renderedHold() else { return }
        var filter = PlainTextFilter()
        let rendered = OutputBuffer(capacity: ScrollbackHold.drainSize)
        withoutActuallyEscaping(drain) { drain in
            hold.write(
                into: rendered,
                drain: { rendered in
                    rendered.withUnsafeBytes { filter.append($0, to: buffer) }
                    drain(buffer)
                    buffer.removeAll()
                })
        }
        rendered.withUnsafeBytes { filter.append($0, to: buffer) }
        engine.pointee.plain.state.history.stopHolding()
    }

    /// Stops holding and discards what was held.
    public func discardHeldScrollback() {
        settled.pointee.plain.state.history.stopHolding()
    }

    // MARK: - Where the program started

    /// The terminal's cursor was at `row`, `column` (0-based; clamped to the screen) when
    /// the program started: the cursor starts there, and the rows above it hold what the
    /// terminal showed before, which the model never saw. The repaint leaves those rows as
    /// they are (a terminal with an alternate screen has kept them) until the program
    /// scrolls them away, erases them or moves the cursor onto them; cells of the start
    /// row left of `column` are blank. Call it before the first `feed`.
    public func start(atRow row: Int, column: Int) {
        settled.pointee.plain.state.start(atRow: row, column: column)
    }

    /// How many rows at the top of the main screen are still the terminal's from before the
    /// program (see `start(atRow:column:)`): the repaint leaves them alone.
    public var rowsBeforeStart: Int { engine.pointee.plain.state.history.rowsBeforeStart }

    // MARK: - Size

    /// The terminal's new size. Rows and columns are cut or padded, without reflowing
    /// wrapped lines (as xterm; tmux reflows): the program redraws on the SIGWINCH it gets,
    /// and a reflow would not match what a terminal without one shows. When rows go, those
    /// above the cursor go first (into the history, and into the hold while holding), so
    /// the cursor row stays visible, as xterm and tmux do. Margins are reset.
    public func resize(rows: Int, columns: Int) {
        settled.pointee.plain.state.resize(
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
        get { engine.pointee.plain.state.queries.isHolding }
        set { engine.pointee.plain.state.queries.isHolding = newValue }
    }

    /// The queries held so far, in order, and forgets them.
    public func takeHeldQueries() -> [UInt8] {
        engine.pointee.plain.state.queries.take()
    }

    /// How many queries the stream asked in all.
    public var queryCount: Int { engine.pointee.plain.state.queries.count }

    // MARK: - Comparing

    /// The visible state as a value.
    public func snapshot() -> ScreenSnapshot {
        ScreenSnapshot(settled.pointee.plain.state)
    }

    /// The text of visible row `row`, blanks as spaces, trailing blanks kept.
    public func text(row: Int) -> String {
        let engine = settled
        return ScreenSnapshot.rowText(engine.pointee.plain.state.grid, row: row, state: engine.pointee.plain.state)
    }

    /// The size of visible row `row` (DECDWL, DECDHL).
    public func lineSize(row: Int) -> LineSize {
        settled.pointee.plain.state.grid.lineSize(row)
    }

    /// The cursor: 0-based row and column, and whether a wrap is pending.
    public var cursor: (row: Int, column: Int, pendingWrap: Bool) {
        let engine = settled
        return (
            engine.pointee.plain.state.cursor.y, engine.pointee.plain.state.cursor.x,
            engine.pointee.plain.state.cursor.pendingWrap
        )
    }

    /// Whether the alternate screen is shown.
    public var isAlternateScreen: Bool { engine.pointee.plain.state.onAlternate }

    /// The state as everything fed leaves it (for tests): the kept text fed, the held rows
    /// rendered.
    var state: ScreenState {
        let engine = settled
        engine.pointee.plain.state.renderedHold()
        return engine.pointee.plain.state
    }

    /// The first id the state holds that names no entry of its tables, described; nil when
    /// all are good. Walks every cell: for the fuzz target and tests, after any feed (text
    /// kept back is not fed for it).
    package func firstBrokenTableReference() -> String? {
        engine.pointee.plain.state.firstBrokenTableReference()
    }

    /// How many bytes of plain text are kept back now (the kept text).
    var keptTextCount: Int { engine.pointee.planner.keptText.count }

    /// How many bytes of reads the redraw skip left out.
    var bytesSkippedBeforeRedraws: Int { engine.pointee.planner.bytesSkippedBeforeRedraws }
}

/// The state of the terminal the stream draws on (libvterm's state and screen layers in
/// one): the two grids and the small values it is made of (cursor, pen and its tables,
/// margins, modes, character sets, tab stops, titles), and the operations that span them.
/// It consumes the parser's events. Its memory is owned by ScreenModel.
struct ScreenState {
    private(set) var rows: Int
    private(set) var columns: Int
    /// The grid shown, and the other one (swapped when the alternate screen is switched).
    var grid: Grid
    var otherGrid: Grid
    private(set) var onAlternate = false

    var cursor = Cursor()
    var pen = Pen()
    var margins: Margins
    var gridModes = GridModes()
    var charsets = CharacterSets()
    var tabStops: TabStops
    /// The modes ScreenModel reports, the input modes the lock switches off among them.
    var modes = ScreenModes.initial
    /// The last character printed, for REP; nil after anything else (as tmux).
    var lastPrinted: UInt8? = nil
    var titles = Titles()

    var queries = QueryHold()
    /// What the rows that leave the top of the main screen go to (History.swift).
    var history = History()

    /// How many times the stream erased the whole screen (ED 2): a program that does may
    /// redraw whole screens, which the redraw skip looks for (FeedPlanner).
    var fullErases = 0

    /// Whether the stream ever made a row double-size: the terminal's rows may be then, and
    /// the repaint sets the size of every row, single ones too.
    var sizedLinesSeen = false

    /// What runs of 4 characters or more are stored by, and text that may scroll away
    /// walked by, with the CPU's widest vectors.
    let storeASCII: CellVectors.Store
    let lineStops: CellVectors.LineStops
    let blockWalker: CellVectors.BlockWalker

    init(rows: Int, columns: Int, vectors: CellVectors) {
        storeASCII = vectors.storeASCII
        lineStops = vectors.lineStops
        blockWalker = vectors.blockWalker
        self.rows = rows
        self.columns = columns
        grid = Grid(rows: rows, columns: columns)
        otherGrid = Grid(rows: rows, columns: columns)
        margins = Margins(rows: rows, columns: columns)
        tabStops = TabStops(columns: columns)
    }

    func deallocate() {
        grid.deallocate()
        otherGrid.deallocate()
        pen.deallocate()
    }

    var mainGrid: Grid { onAlternate ? otherGrid : grid }
    var alternateGrid: Grid { onAlternate ? grid : otherGrid }

    // MARK: - Pen and styles

    /// The id of the current pen, interning it on first use after a change.
    @inline(__always)
    mutating func currentPenId() -> UInt16 {
        if !pen.isCurrent {
            let id = styleId(pen.style)
            pen.note(id: id)
        }
        return pen.id
    }

    @inline(__always)
    mutating func setPen(_ style: Style) {
        pen.set(style)
    }

    /// The style cells erased with the current pen get: its background.
    @inline(__always)
    mutating func erasePenId() -> UInt16 {
        pen.style.background == .default ? 0 : styleId(pen.style.erased)
    }

    @inline(__always)
    mutating func styleId(_ style: Style) -> UInt16 {
        if style == .plain { return 0 }
        return pen.cache.id(for: style) ?? internedId(style)
    }

    /// The id of a style the cache does not hold: from the table, which interns it if new.
    private mutating func internedId(_ style: Style) -> UInt16 {
        let id = idCollectingIfFull { $0.pen.styles.id(for: style) } ?? 0
        pen.cache.remember(style, id)
        return id
    }

    /// Frees the styles, clusters and hyperlinks nothing refers to (Pen.collectGarbage),
    /// once the rows waiting in the hold are rendered with the ids they name.
    mutating func collectGarbage() {
        renderWaitingRows()
        pen.collectGarbage(
            cellsOf: [grid, otherGrid], savedPens: [cursor.saved.pen, cursor.savedBy1049?.pen ?? .plain])
    }

    /// The id `lookUp` (a table's `id(for:)`) gives, looked up again after a collection
    /// when the table was full; nil if it still is.
    mutating func idCollectingIfFull<ID>(_ lookUp: (inout ScreenState) -> ID?) -> ID? {
        if let id = lookUp(&self) { return id }
        collectGarbage()
        return lookUp(&self)
    }

    /// The first id the state holds that names no entry of its table, described; nil when
    /// every one is good (Pen.firstBrokenReference).
    func firstBrokenTableReference() -> String? {
        pen.firstBrokenReference(
            cellsOf: [("shown", grid), ("other", otherGrid)],
            savedPens: [("saved pen", cursor.saved.pen), ("pen saved by 1049", cursor.savedBy1049?.pen ?? .plain)])
    }

    // MARK: - Margins

    /// The right edge text runs to from the cursor (Margins.rightEdge); on a double-size row
    /// the last column of its first half (rows have no size in left/right margin mode),
    /// unless the cursor was put past it (CUP, DECRC: as xterm, they do not look at the
    /// row's size), where text runs on to the last column in cells that do not show.
    @inline(__always) var rightEdge: Int { rightEdge(from: cursor.x, row: cursor.y, of: grid) }

    @inline(__always) func rightEdge(from x: Int, row y: Int, of grid: Grid) -> Int {
        if margins.leftRightMode { return margins.rightEdge(from: x, columns: columns) }
        let last = grid.lastColumn(y)
        return x > last ? columns &- 1 : last
    }

    @inline(__always) var leftEdge: Int { margins.leftEdge(from: cursor.x) }

    var hasFullWidthMargins: Bool { margins.haveFullWidth(columns: columns) }

    // MARK: - Switching screens

    mutating func switchScreen(toAlternate: Bool) {
        guard toAlternate != onAlternate else { return }
        swap(&grid, &otherGrid)
        onAlternate = toAlternate
    }

    /// What DECSC would save now.
    var cursorToSave: SavedCursor {
        SavedCursor(
            x: cursor.x, y: cursor.y, pendingWrap: cursor.pendingWrap, pen: pen.style, g0: charsets.g0,
            g1: charsets.g1, shifted: charsets.shifted, originMode: gridModes.origin)
    }

    mutating func saveCursor() {
        cursor.saved = cursorToSave
    }

    mutating func restoreCursor() {
        let saved = cursor.saved
        cursor.x = min(saved.x, columns - 1)
        cursor.y = min(saved.y, rows - 1)
        // A wrap pending at a right margin that has moved since is not restored: no repaint
        // could leave a terminal's cursor waiting to wrap short of its margin.
        cursor.pendingWrap = saved.pendingWrap && cursor.x == saved.x && cursor.x == rightEdge
        setPen(saved.pen)
        charsets = CharacterSets(g0: saved.g0, g1: saved.g1, shifted: saved.shifted)
        gridModes.origin = saved.originMode
    }

    /// The left and right margins are gone (Cursor.dropMarginWraps).
    mutating func dropMarginWraps() {
        cursor.dropMarginWraps(columns: columns)
    }

    // MARK: - Resets

    /// RIS: everything back to a terminal just started, both screens cleared. Titles stay
    /// (xterm keeps the window title).
    mutating func fullReset() {
        switchScreen(toAlternate: false)
        for grid in [grid, otherGrid] {
            for y in 0..<rows { grid.clearRow(y, style: 0) }
        }
        cursor = Cursor()
        setPen(.plain)
        margins = Margins(rows: rows, columns: columns)
        gridModes = GridModes()
        charsets = CharacterSets()
        tabStops.reset()
        lastPrinted = nil
        modes.fullReset()
    }

    /// DECSTR: modes and pen back to their defaults, without clearing the screen (VT510).
    mutating func softReset() {
        gridModes.insert = false
        gridModes.origin = false
        margins = Margins(rows: rows, columns: columns)
        dropMarginWraps()
        setPen(Style(hyperlink: pen.style.hyperlink))
        charsets = CharacterSets()
        cursor.saved = SavedCursor()
        modes.softReset()
    }

    // MARK: - Resize

    /// Both grids take the new size: rows are cut or padded on the right (no reflow, as
    /// xterm); when the main screen loses rows, the rows above the cursor go first (into the
    /// terminal's history, as xterm and tmux push them), then those below.
    mutating func resize(rows newRows: Int, columns newColumns: Int) {
        guard newRows != rows || newColumns != columns else { return }
        // REP right after a resize repeats nothing: the terminal and the model see a resize
        // at different points of the stream, and one that moves the cursor or cuts the
        // character leaves nothing the repaint could print again (fuzz).
        lastPrinted = nil
        var shiftMain = 0
        var shiftAlternate = 0
        if newRows < rows {
            // Keep the cursor row visible: drop rows from the top only as far as needed.
            let cursorRow = cursor.y
            let excess = rows - newRows
            let fromTop = max(0, min(excess, cursorRow - (newRows - 1)))
            if onAlternate {
                shiftAlternate = fromTop
                shiftMain = max(0, min(excess, (cursor.savedBy1049?.y ?? 0) - (newRows - 1)))
            } else {
                shiftMain = fromTop
            }
            mainTopRowsLeave(shiftMain)
        }
        let newMain = Self.resized(mainGrid, rows: newRows, columns: newColumns, dropping: shiftMain)
        let newAlternate = Self.resized(alternateGrid, rows: newRows, columns: newColumns, dropping: shiftAlternate)
        mainGrid.deallocate()
        alternateGrid.deallocate()
        if onAlternate {
            grid = newAlternate
            otherGrid = newMain
            cursor.y -= shiftAlternate
            cursor.savedBy1049?.y -= shiftMain
        } else {
            grid = newMain
            otherGrid = newAlternate
            cursor.y -= shiftMain
        }
        rows = newRows
        columns = newColumns
        cursor.x = min(max(cursor.x, 0), columns - 1)
        cursor.y = min(max(cursor.y, 0), rows - 1)
        history.rowsBeforeStart = min(history.rowsBeforeStart, onAlternate ? cursor.savedBy1049?.y ?? 0 : cursor.y)
        if cursor.pendingWrap && cursor.x != rightEdge { cursor.pendingWrap = false }
        cursor.saved.clamp(rows: rows, columns: columns)
        cursor.savedBy1049?.clamp(rows: rows, columns: columns)
        margins.reset(rows: rows, columns: columns)
        tabStops.resize(columns: columns)
    }

    private static func resized(_ old: Grid, rows: Int, columns: Int, dropping: Int) -> Grid {
        let new = Grid(rows: rows, columns: columns)
        for y in 0..<rows {
            let source = y + dropping
            guard source < old.rows else { break }
            let count = min(old.writtenCount(source), columns)
            new.row(y).update(from: old.row(source), count: count)
            let storage = new.storage(y)
            new.written[storage] = Int32(count)
            new.fill[storage] = old.fillStyle(source)
            new.wrapped[storage] = old.isWrapped(source) && old.columns == columns
            new.setLineSize(y, old.lineSize(source))
            // A wide character cut in half at the new right edge becomes a blank.
            if count == columns, count > 0, Cell.isWide(new.row(y)[count - 1]) {
                new.row(y)[count - 1] = Cell.blank(Cell.style(new.row(y)[count - 1]))
            }
        }
        return new
    }
}

/// What DECSC saves and DECRC restores (xterm: one slot per screen).
struct SavedCursor: Equatable, Sendable {
    var x = 0
    var y = 0
    var pendingWrap = false
    var pen = Style.plain
    var g0 = TerminalCharacterSet.ascii
    var g1 = TerminalCharacterSet.ascii
    var shifted = false
    var originMode = false
}

/// The state of the terminal the stream draws on (libvterm's state and screen layers in
/// one): the two grids, cursor, pen, margins, modes, character sets, tab stops, titles.
/// It consumes the parser's events. Its memory is owned by ScreenModel.
struct ScreenState {
    private(set) var rows: Int
    private(set) var columns: Int
    /// The grid shown, and the other one (swapped when the alternate screen is switched).
    var grid: Grid
    var otherGrid: Grid
    private(set) var onAlternate = false

    var x = 0
    var y = 0
    /// The cursor is past the last column: the next character goes on the next row.
    var pendingWrap = false

    var pen = Style.plain
    /// The id of `pen` in `styles`, valid while `penIsCurrent`.
    private(set) var penId: UInt16 = 0
    private(set) var penIsCurrent = true
    var styles = StyleTable()
    /// The styles used lately, so that switching between a few (coloured `ls`, syntax
    /// colours) costs no dictionary look-up.
    let styleCache = StyleCache()
    var clusters = ClusterTable()
    var hyperlinks = HyperlinkTable()

    var top = 0
    var bottom: Int
    var left = 0
    var right: Int
    /// DECLRMM (mode 69): whether DECSLRM margins apply.
    var leftRightMarginMode = false

    var modes = ScreenModes.initial
    var originMode = false
    var autowrap = true
    var insertMode = false
    /// LNM (mode 20): a line feed also returns the carriage.
    var newlineMode = false
    /// DECSCNM (mode 5).
    var reverseVideo = false
    /// Mode 12.
    var cursorBlink = false
    /// DECSCUSR's parameter, 0 for the terminal's default.
    var cursorShape: UInt8 = 0

    var g0 = TerminalCharacterSet.ascii
    var g1 = TerminalCharacterSet.ascii
    /// SO selected G1 (SI selects G0).
    var shifted = false

    var tabStops: [Bool] {
        didSet { tabStopsChanged = true }
    }
    /// Whether anything changed the tab stops since the scrollback began to be held: until
    /// then the terminal got every byte, and has the model's (the unlock's repaint leaves
    /// them alone).
    var tabStopsChanged = false
    var savedMain = SavedCursor()
    var savedAlternate = SavedCursor()
    /// The last character printed, for REP; nil after anything else (as tmux).
    var lastPrinted: UInt8? = nil

    var title: [UInt8] = []
    var iconName: [UInt8]? = nil
    var titleStack: [[UInt8]] = []
    var windowName: [UInt8]? = nil
    var workingDirectory: [UInt8]? = nil
    var titleSets: UInt = 0

    var queries = QueryHold()
    /// What the rows that leave the top of the main screen go to (History.swift).
    var history = History()

    /// An ED 2 was followed since the redraw skip last looked: the program may redraw whole
    /// screens (FeedPlanner.feedSkippingRedraws).
    var erasedFully = false

    /// What runs of 4 characters or more are stored by, and text that may scroll away
    /// walked by, with the CPU's widest vectors.
    let storeASCII: CellVectors.Store
    let lineStops: CellVectors.LineStops

    static let titleStackLimit = 10

    init(rows: Int, columns: Int, vectors: CellVectors) {
        storeASCII = vectors.storeASCII
        lineStops = vectors.lineStops
        self.rows = rows
        self.columns = columns
        grid = Grid(rows: rows, columns: columns)
        otherGrid = Grid(rows: rows, columns: columns)
        bottom = rows - 1
        right = columns - 1
        tabStops = Self.defaultTabStops(columns)
    }

    func deallocate() {
        grid.deallocate()
        otherGrid.deallocate()
        styleCache.deallocate()
    }

    static func defaultTabStops(_ columns: Int) -> [Bool] {
        (0..<columns).map { $0 % 8 == 0 && $0 != 0 }
    }

    var mainGrid: Grid { onAlternate ? otherGrid : grid }
    var alternateGrid: Grid { onAlternate ? grid : otherGrid }

    // MARK: - Pen and styles

    /// The id of the current pen, interning it on first use after a change.
    @inline(__always)
    mutating func currentPenId() -> UInt16 {
        if !penIsCurrent {
            penId = styleId(pen)
            penIsCurrent = true
        }
        return penId
    }

    /// The pen becomes `style`; its id is looked up again at the next print, only if it
    /// changed.
    @inline(__always)
    mutating func setPen(_ style: Style) {
        guard style != pen else { return }
        pen = style
        penIsCurrent = false
    }

    /// The style cells erased with the current pen get: its background.
    @inline(__always)
    mutating func erasePenId() -> UInt16 {
        pen.background == .default ? 0 : styleId(pen.erased)
    }

    @inline(__always)
    mutating func styleId(_ style: Style) -> UInt16 {
        if style == .plain { return 0 }
        return styleCache.id(for: style) ?? internedId(style)
    }

    /// The id of a style the cache does not hold: from the table, which interns it if new.
    private mutating func internedId(_ style: Style) -> UInt16 {
        let id = idCollectingIfFull { $0.styles.id(for: style) } ?? 0
        styleCache.remember(style, id)
        return id
    }

    // MARK: - Margins

    /// The right edge text runs to from the cursor: the right margin when the cursor is
    /// left of it (text that reaches the margins stops at it), else the last column.
    @inline(__always) var rightEdge: Int {
        leftRightMarginMode && x <= right ? right : columns &- 1
    }

    @inline(__always) var leftEdge: Int {
        leftRightMarginMode && x >= left ? left : 0
    }

    var hasFullWidthMargins: Bool { !leftRightMarginMode || (left == 0 && right == columns - 1) }

    // MARK: - Switching screens

    mutating func switchScreen(toAlternate: Bool) {
        guard toAlternate != onAlternate else { return }
        swap(&grid, &otherGrid)
        onAlternate = toAlternate
    }

    var savedCursor: SavedCursor {
        get { onAlternate ? savedAlternate : savedMain }
        set {
            if onAlternate {
                savedAlternate = newValue
            } else {
                savedMain = newValue
            }
        }
    }

    mutating func saveCursor() {
        savedCursor = SavedCursor(
            x: x, y: y, pendingWrap: pendingWrap, pen: pen, g0: g0, g1: g1, shifted: shifted, originMode: originMode)
    }

    mutating func restoreCursor() {
        let saved = savedCursor
        x = min(saved.x, columns - 1)
        y = min(saved.y, rows - 1)
        // A wrap pending at a right margin that has moved since is not restored: no repaint
        // could leave a terminal's cursor waiting to wrap short of its margin.
        pendingWrap = saved.pendingWrap && x == saved.x && x == rightEdge
        setPen(saved.pen)
        g0 = saved.g0
        g1 = saved.g1
        shifted = saved.shifted
        originMode = saved.originMode
    }

    /// The left and right margins are gone: a wrap saved as pending at a right margin (not
    /// the last column) is no longer one any terminal can be brought back to; it is dropped.
    mutating func dropMarginWraps() {
        if savedMain.pendingWrap && savedMain.x != columns - 1 { savedMain.pendingWrap = false }
        if savedAlternate.pendingWrap && savedAlternate.x != columns - 1 { savedAlternate.pendingWrap = false }
        if pendingWrap && x != columns - 1 { pendingWrap = false }
    }

    // MARK: - Resets

    /// RIS: everything back to a terminal just started, both screens cleared. Titles stay
    /// (xterm keeps the window title).
    mutating func fullReset() {
        switchScreen(toAlternate: false)
        for grid in [grid, otherGrid] {
            for y in 0..<rows { grid.clearRow(y, style: 0) }
        }
        x = 0
        y = 0
        pendingWrap = false
        setPen(.plain)
        top = 0
        bottom = rows - 1
        left = 0
        right = columns - 1
        leftRightMarginMode = false
        originMode = false
        autowrap = true
        insertMode = false
        newlineMode = false
        reverseVideo = false
        cursorBlink = false
        cursorShape = 0
        g0 = .ascii
        g1 = .ascii
        shifted = false
        tabStops = Self.defaultTabStops(columns)
        savedMain = SavedCursor()
        savedAlternate = SavedCursor()
        lastPrinted = nil
        modes.fullReset()
    }

    /// DECSTR: modes and pen back to their defaults, without clearing the screen (VT510).
    mutating func softReset() {
        insertMode = false
        originMode = false
        top = 0
        bottom = rows - 1
        left = 0
        right = columns - 1
        leftRightMarginMode = false
        dropMarginWraps()
        setPen(Style(hyperlink: pen.hyperlink))
        g0 = .ascii
        g1 = .ascii
        shifted = false
        savedCursor = SavedCursor()
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
            let cursorRow = y
            let excess = rows - newRows
            let fromTop = max(0, min(excess, cursorRow - (newRows - 1)))
            if onAlternate {
                shiftAlternate = fromTop
                shiftMain = max(0, min(excess, savedMain.y - (newRows - 1)))
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
            y -= shiftAlternate
            savedMain.y -= shiftMain
        } else {
            grid = newMain
            otherGrid = newAlternate
            y -= shiftMain
        }
        rows = newRows
        columns = newColumns
        x = min(max(x, 0), columns - 1)
        y = min(max(y, 0), rows - 1)
        history.rowsBeforeStart = min(history.rowsBeforeStart, onAlternate ? savedMain.y : y)
        if pendingWrap && x != columns - 1 { pendingWrap = false }
        for index in [0, 1] {
            var saved = index == 0 ? savedMain : savedAlternate
            saved.x = min(saved.x, columns - 1)
            saved.y = min(max(saved.y, 0), rows - 1)
            // A saved wrap pends only at the edge, as the cursor's own (fuzz).
            if saved.pendingWrap && saved.x != columns - 1 { saved.pendingWrap = false }
            if index == 0 { savedMain = saved } else { savedAlternate = saved }
        }
        top = 0
        bottom = rows - 1
        left = 0
        right = columns - 1
        let oldStops = tabStops
        tabStops = Self.defaultTabStops(columns)
        for column in 0..<min(oldStops.count, columns) { tabStops[column] = oldStops[column] }
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
            // A wide character cut in half at the new right edge becomes a blank.
            if count == columns, count > 0, Cell.isWide(new.row(y)[count - 1]) {
                new.row(y)[count - 1] = Cell.blank(Cell.style(new.row(y)[count - 1]))
            }
        }
        return new
    }
}

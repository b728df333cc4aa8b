// Where a row goes that leaves the top of the main screen (a full-screen scroll up, or a
// resize that drops rows from the top): libvterm's sb_pushline. The state decides in one
// place (`mainTopRowsLeave`) that rows leave, and History takes them: into the scrollback hold
// while one is on, and out of the rows above the start (ScreenStartPosition.swift), which
// it counts while held so that the repaint pushes the terminal's own copies into its
// history. What nothing takes needs nothing done: `scrollsPlainly` is what the fast scroll
// and the walk assume.

/// What the rows that leave the top of the main screen go to.
struct History {
    /// Output kept for the terminal's scrollback while the screen is not shown; begun and
    /// ended by `startHolding` and `stopHolding` alone.
    var hold: ScrollbackHold? = nil
    /// Whether there is a hold: what the fast paths ask, where looking at the optional hold
    /// itself copies it (a memcpy a read).
    private(set) var isHolding = false
    /// Rows at the top of the main screen that hold what the terminal showed before the
    /// program started (ScreenStartPosition.swift): the repaint leaves them alone.
    var rowsBeforeStart = 0
    /// Of those, how many left the top while the scrollback was held.
    var rowsBeforeStartHeld = 0

    /// No row that leaves the top is kept or counted.
    var takesNothing: Bool { !isHolding && rowsBeforeStart == 0 }

    /// The top `count` rows of `grid`, the main screen, leave it: the program's go into the
    /// hold (while one is on), the terminal's are counted there.
    mutating func push(
        topRows count: Int, of grid: Grid, styles: StyleTable, clusters: ClusterTable, hyperlinks: HyperlinkTable
    ) {
        let count = min(count, grid.rows)
        if hold != nil {
            for row in rowsBeforeStart..<max(count, rowsBeforeStart) {
                hold?.append(row: row, of: grid, styles: styles, clusters: clusters, hyperlinks: hyperlinks)
            }
            rowsBeforeStartHeld += min(count, rowsBeforeStart)
        }
        rowsBeforeStart = max(0, rowsBeforeStart - count)
    }

    /// The top `count` rows of the hidden main screen are cut (a resize on the alternate
    /// screen): nothing keeps them.
    mutating func dropTopRows(_ count: Int) {
        rowsBeforeStart = max(0, rowsBeforeStart - count)
    }

    /// From now on, rows that leave go into a hold of at most `limit` bytes.
    mutating func startHolding(limit: Int) {
        hold?.deallocate()
        hold = ScrollbackHold(limit: limit)
        isHolding = true
        rowsBeforeStartHeld = 0
    }

    /// Stops holding and frees what was held.
    mutating func stopHolding() {
        hold?.deallocate()
        hold = nil
        isHolding = false
        rowsBeforeStartHeld = 0
    }

    func deallocate() {
        hold?.deallocate()
    }
}

extension ScreenState {
    /// The hold, with the rows it keeps waiting (ScrollbackHold) rendered and stored: how
    /// every reader of the hold reaches it. A row waiting for the row after it is written
    /// as the main screen's top row, the next to leave, has it.
    @discardableResult
    mutating func renderedHold() -> ScrollbackHold? {
        renderWaitingRows()
        let nextBeginsWide = Cell.isWide(mainGrid.cell(0, 0))
        history.hold?.endPendingRow(nextBeginsWide: nextBeginsWide)
        return history.hold
    }

    /// Renders the rows waiting in the hold with the ids their cells name: what a collection
    /// does first, before it frees them.
    mutating func renderWaitingRows() {
        history.hold?.renderWaitingRows(styles: pen.styles, clusters: pen.clusters, hyperlinks: pen.hyperlinks)
    }

    /// The top `count` rows of the main screen leave it: the one place that hands them to
    /// the history. Hidden (a resize on the alternate screen), they are cut: nothing keeps
    /// them.
    mutating func mainTopRowsLeave(_ count: Int) {
        if onAlternate {
            history.dropTopRows(count)
        } else {
            history.push(
                topRows: count, of: grid, styles: pen.styles, clusters: pen.clusters, hyperlinks: pen.hyperlinks)
        }
    }

    /// A line feed at the bottom scrolls the whole screen and nothing keeps what leaves it.
    var scrollsPlainly: Bool {
        margins.areWholeScreen(rows: rows) && history.takesNothing
    }
}

/// The state of a ScreenModel as a value, for tests and the fuzz target to compare two
/// models: the cells of both screens, the cursor, the pen, margins, modes, character sets,
/// tab stops, saved cursors and the character REP would repeat (not titles: they are not on
/// the screen). Erased cells and spaces compare equal when their styles do, as they look
/// the same; styles and hyperlinks compare by what they are, not by ids. A double-size row
/// has the cells it shows, its first half.
public struct ScreenSnapshot: Equatable, Sendable {
    struct SnapshotCell: Equatable, Sendable {
        var scalars: [UInt32]
        var width: UInt8
        var style: Style
        var link: [UInt8]
    }

    /// A cursor as DECSC saves it, its pen's hyperlink given by what it links to, not by id.
    struct Cursor: Equatable, Sendable {
        var state: SavedCursor
        var link: [UInt8]
    }

    /// The cursor 1049 saved. Where the program saved none it is the terminal's (the lock
    /// screen's, in tmux), which no repaint can take away: none matches any.
    struct SavedBy1049: Equatable, Sendable {
        var cursor: Cursor?

        static func == (a: Self, b: Self) -> Bool {
            a.cursor == nil || b.cursor == nil || a.cursor == b.cursor
        }
    }

    var rows: Int
    var columns: Int
    var main: [[SnapshotCell]]
    var alternate: [[SnapshotCell]]?
    var lineSizes: [LineSize]
    var alternateLineSizes: [LineSize]?
    var onAlternate: Bool
    var cursor: Cursor
    var saved: Cursor
    var savedBy1049: SavedBy1049
    var margins: [Int]
    var leftRightMarginMode: Bool
    var flags: [Bool]
    var cursorShape: UInt8
    var modes: ScreenModes
    var tabStops: [Bool]
    var lastPrinted: UInt8?

    init(_ state: ScreenState) {
        rows = state.rows
        columns = state.columns
        main = Self.cells(state.mainGrid, state)
        onAlternate = state.onAlternate
        alternate = state.onAlternate ? Self.cells(state.grid, state) : nil
        lineSizes = (0..<state.rows).map { state.mainGrid.lineSize($0) }
        alternateLineSizes = state.onAlternate ? (0..<state.rows).map { state.grid.lineSize($0) } : nil
        func cursor(_ saved: SavedCursor) -> Cursor {
            var cursor = saved
            cursor.pen.hyperlink = 0
            return Cursor(state: cursor, link: state.pen.hyperlinks[saved.pen.hyperlink])
        }
        self.cursor = cursor(state.cursorToSave)
        saved = cursor(state.cursor.saved)
        savedBy1049 = SavedBy1049(cursor: state.cursor.savedBy1049.map(cursor))
        margins = [state.margins.top, state.margins.bottom, state.margins.left, state.margins.right]
        leftRightMarginMode = state.margins.leftRightMode
        flags = [
            state.gridModes.autowrap, state.gridModes.insert, state.gridModes.newline, state.gridModes.reverseVideo,
            state.cursor.blinks,
        ]
        cursorShape = state.cursor.shape
        modes = state.modes.withoutTitles
        tabStops = state.tabStops.stops
        lastPrinted = state.lastPrinted
    }

    private static func cells(_ grid: Grid, _ state: ScreenState) -> [[SnapshotCell]] {
        (0..<grid.rows).map { y in
            (0..<grid.lineSize(y).usableColumns(of: grid.columns)).map { x in
                let cell = grid.cell(x, y)
                var style = state.pen.styles[Cell.style(cell)]
                let link = state.pen.hyperlinks[style.hyperlink]
                style.hyperlink = 0
                return SnapshotCell(
                    scalars: scalars(cell, state), width: Cell.isSpacer(cell) ? 0 : Cell.isWide(cell) ? 2 : 1,
                    style: style, link: link)
            }
        }
    }

    static func scalars(_ cell: UInt64, _ state: ScreenState) -> [UInt32] {
        let content = Cell.content(cell)
        if Cell.isSpacer(cell) { return [] }
        if cell & Cell.clusterFlag != 0 { return Array(state.pen.clusters[content]) }
        if cell & Cell.decGraphicsFlag != 0 { return [0x1B, content] }  // distinct from the Unicode form
        return [content == 0 ? 0x20 : content]
    }

    static func rowText(_ grid: Grid, row: Int, state: ScreenState) -> String {
        var text = ""
        for x in 0..<grid.lineSize(row).usableColumns(of: grid.columns) {
            let cell = grid.cell(x, row)
            if Cell.isSpacer(cell) { continue }
            var scalars = scalars(cell, state)
            if scalars.first == 0x1B { scalars = [Cell.decGraphicsScalar(scalars[1])] }
            for scalar in scalars { text.unicodeScalars.append(Unicode.Scalar(scalar) ?? "\u{FFFD}") }
        }
        return text
    }

    /// The same state with every input mode off (mouse, focus, paste, keys), as the repaint
    /// alone leaves a terminal: ScreenModes' on and off bytes switch those.
    public var withoutInputModes: ScreenSnapshot {
        var snapshot = self
        snapshot.modes = modes.withoutInputModes
        return snapshot
    }

    /// The size of visible row `row`.
    public func lineSize(row: Int) -> LineSize {
        (onAlternate ? alternateLineSizes ?? lineSizes : lineSizes)[row]
    }

    /// The text of visible row `row`.
    public func text(row: Int) -> String {
        let cells = (onAlternate ? alternate ?? main : main)[row]
        var text = ""
        for cell in cells where cell.width != 0 {
            var scalars = cell.scalars
            if scalars.first == 0x1B { scalars = [Cell.decGraphicsScalar(scalars[1])] }
            for scalar in scalars { text.unicodeScalars.append(Unicode.Scalar(scalar) ?? "\u{FFFD}") }
        }
        return text
    }
}

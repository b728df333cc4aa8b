/// One screen's cells: `rows` rows of `columns` cells in one allocation, owned by the model
/// (which calls `deallocate`). Rows are reached through `rowMap`, so scrolling a region
/// moves row numbers, not cells (Alacritty's ring, per region). Each row knows how far it is
/// written: cells at and beyond `written` are blanks in the row's `fill` style, so clearing a
/// row is two stores.
struct Grid {
    let rows: Int
    let columns: Int
    let cells: UnsafeMutablePointer<UInt64>
    /// Visible row -> storage row: a window of `rows` entries sliding over `mapStorage`, so
    /// that a full-screen scroll moves the window, not the entries (they move back to the
    /// start once every `mapWindows` screens).
    @inline(__always) var rowMap: UnsafeMutablePointer<Int32> { mapStorage + mapOffset.pointee }
    private let mapStorage: UnsafeMutablePointer<Int32>
    private let mapOffset: UnsafeMutablePointer<Int>
    private static let mapWindows = 16
    /// Per storage row.
    let written: UnsafeMutablePointer<Int32>
    let fill: UnsafeMutablePointer<UInt16>
    /// Per storage row: the line goes on in the next row (it wrapped at the margin).
    let wrapped: UnsafeMutablePointer<Bool>
    /// Per storage row: its line size (DECDWL, DECDHL), and how many rows are not single
    /// (while any is, the fast paths step aside and the right edge is looked up by row).
    let lineSizes: UnsafeMutablePointer<LineSize>
    let sizedRows: UnsafeMutablePointer<Int>

    init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        cells = .allocate(capacity: rows * columns)
        mapStorage = .allocate(capacity: rows * Self.mapWindows)
        mapOffset = .allocate(capacity: 1)
        mapOffset.initialize(to: 0)
        written = .allocate(capacity: rows)
        fill = .allocate(capacity: rows)
        wrapped = .allocate(capacity: rows)
        lineSizes = .allocate(capacity: rows)
        sizedRows = .allocate(capacity: 1)
        for row in 0..<rows {
            mapStorage[row] = Int32(row)
        }
        written.initialize(repeating: 0, count: rows)
        fill.initialize(repeating: 0, count: rows)
        wrapped.initialize(repeating: false, count: rows)
        lineSizes.initialize(repeating: .single, count: rows)
        sizedRows.initialize(to: 0)
    }

    func deallocate() {
        cells.deallocate()
        mapStorage.deallocate()
        mapOffset.deallocate()
        written.deallocate()
        fill.deallocate()
        wrapped.deallocate()
        lineSizes.deallocate()
        sizedRows.deallocate()
    }

    @inline(__always) func storage(_ y: Int) -> Int { Int(rowMap[y]) }

    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt64> {
        cells + Int(rowMap[y]) &* columns
    }

    @inline(__always) func cell(_ x: Int, _ y: Int) -> UInt64 {
        let row = Int(rowMap[y])
        return x < Int(written[row]) ? cells[row &* columns &+ x] : Cell.blank(fill[row])
    }

    @inline(__always) func writtenCount(_ y: Int) -> Int { Int(written[Int(rowMap[y])]) }
    @inline(__always) func fillStyle(_ y: Int) -> UInt16 { fill[Int(rowMap[y])] }
    @inline(__always) func isWrapped(_ y: Int) -> Bool { wrapped[Int(rowMap[y])] }
    @inline(__always) func setWrapped(_ y: Int, _ value: Bool) { wrapped[Int(rowMap[y])] = value }

    @inline(__always) func lineSize(_ y: Int) -> LineSize { lineSizes[Int(rowMap[y])] }

    /// The last column text reaches on row `y`: the last of the first half on a double-size
    /// row.
    @inline(__always) func lastColumn(_ y: Int) -> Int {
        sizedRows.pointee == 0 ? columns &- 1 : lineSize(y).usableColumns(of: columns) &- 1
    }

    func setLineSize(_ y: Int, _ size: LineSize) {
        let row = Int(rowMap[y])
        sizedRows.pointee += (size == .single ? 0 : 1) - (lineSizes[row] == .single ? 0 : 1)
        lineSizes[row] = size
    }

    /// Makes cells up to (not including) `x` real, so they can be read and written directly.
    @inline(__always) func materialize(_ y: Int, upTo x: Int) {
        let row = Int(rowMap[y])
        let count = Int(written[row])
        guard count < x else { return }
        (cells + row &* columns + count).update(repeating: Cell.blank(fill[row]), count: x &- count)
        written[row] = Int32(x)
    }

    /// Readies cells `x..<x+count` of row `y` to be overwritten by text and returns the
    /// row: the cells before them made real, the wide characters they cut in half blanked,
    /// and the row marked written past them. One look-up of the row for all of it.
    @inline(__always)
    func prepareWrite(_ y: Int, at x: Int, count: Int) -> UnsafeMutablePointer<UInt64> {
        let storage = Int(rowMap[y])
        let cells = self.cells + storage &* columns
        let count0 = Int(written[storage])
        let last = x &+ count &- 1
        if count0 < x {
            (cells + count0).update(repeating: Cell.blank(fill[storage]), count: x &- count0)
        } else {
            Self.cutWideCharacter(before: x, in: cells, written: count0)
            Self.cutWideCharacter(after: last, in: cells, written: count0)
        }
        if count0 <= last { written[storage] = Int32(truncatingIfNeeded: last &+ 1) }
        return cells
    }

    /// Cells from `x` on are about to change: a wide character whose second half is there
    /// loses its first half too (as terminals do).
    @inline(__always)
    func cutWideCharacter(before x: Int, row y: Int) {
        Self.cutWideCharacter(before: x, in: row(y), written: writtenCount(y))
    }

    /// Cells up to `x` are about to change: a wide character whose first half is there
    /// loses its second half too.
    @inline(__always)
    func cutWideCharacter(after x: Int, row y: Int) {
        Self.cutWideCharacter(after: x, in: row(y), written: writtenCount(y))
    }

    @inline(__always)
    private static func cutWideCharacter(before x: Int, in cells: UnsafeMutablePointer<UInt64>, written: Int) {
        if x > 0 && x < written && Cell.isSpacer(cells[x]) { cells[x &- 1] = Cell.blank(Cell.style(cells[x &- 1])) }
    }

    @inline(__always)
    private static func cutWideCharacter(after x: Int, in cells: UnsafeMutablePointer<UInt64>, written: Int) {
        if x &+ 1 < written && Cell.isWide(cells[x]) { cells[x &+ 1] = Cell.blank(Cell.style(cells[x &+ 1])) }
    }

    @inline(__always) func noteWritten(_ y: Int, upTo x: Int) {
        let row = Int(rowMap[y])
        if Int(written[row]) < x { written[row] = Int32(x) }
    }

    /// Blanks the whole row in `style`, single-size again (xterm's and libvterm's rows that
    /// ED erases whole or scrolling brings in).
    @inline(__always) func clearRow(_ y: Int, style: UInt16) {
        if lineSizes[Int(rowMap[y])] != .single { setLineSize(y, .single) }
        blankRow(y, style: style)
    }

    /// Blanks rows `range` whole in `style`, single-size again: the sizes looked at only when
    /// a row has one (ED erases whole screens often).
    func clearRows(_ range: Range<Int>, style: UInt16) {
        if sizedRows.pointee == 0 {
            for y in range { blankRow(y, style: style) }
        } else {
            for y in range { clearRow(y, style: style) }
        }
    }

    /// Blanks the whole row in `style`, keeping its size (EL and ECH: xterm and libvterm).
    @inline(__always) private func blankRow(_ y: Int, style: UInt16) {
        let row = Int(rowMap[y])
        written[row] = 0
        fill[row] = style
        wrapped[row] = false
    }

    /// Blanks cells `from..<to` of row `y` in `style`.
    func clear(_ y: Int, from: Int, to: Int, style: UInt16) {
        guard from < to else { return }
        let row = Int(rowMap[y])
        if to >= columns {
            if from == 0 {
                blankRow(y, style: style)
                return
            }
            if Int(written[row]) >= from && fill[row] == style {
                written[row] = Int32(from)
                return
            }
        }
        materialize(y, upTo: to)
        (cells + row &* columns + from).update(repeating: Cell.blank(style), count: to &- from)
    }

    /// Rows `top...bottom` move up by `count` (at most the region's height); the rows that
    /// come in at the bottom are blank in `style`.
    func scrollUp(top: Int, bottom: Int, count: Int, style: UInt16) {
        let height = bottom &- top &+ 1
        let count = min(count, height)
        guard count > 0 else { return }
        if count < height {
            if height == rows {
                slide(by: count)
            } else {
                rotate(top: top, bottom: bottom, by: count)
            }
        }
        for y in (bottom &- count &+ 1)...bottom {
            clearRow(y, style: style)
        }
    }

    /// The whole screen moves up a row; a blank row in `style` comes in at the bottom.
    @inline(__always)
    func scrollScreenUp(style: UInt16) {
        guard rows > 1 else { return clearRow(0, style: style) }
        slide(by: 1)
        clearRow(rows &- 1, style: style)
    }

    /// `scrollScreenUp(style: 0)` where that needs no call (the row map's window has room,
    /// the row leaving is single-size, more than one row): whether it did. A line feed at
    /// the bottom of random bytes' screens, with no call there the caller saves fewer
    /// registers.
    @inline(__always)
    func slidesUpBlank() -> Bool {
        let map = rowMap
        let leaving = Int(map[0])
        guard rows > 1 && mapOffset.pointee &+ rows &+ 1 <= rows &* Self.mapWindows && lineSizes[leaving] == .single
        else { return false }
        map[rows] = Int32(truncatingIfNeeded: leaving)
        mapOffset.pointee &+= 1
        written[leaving] = 0
        fill[leaving] = 0
        wrapped[leaving] = false
        return true
    }

    /// Rows `top...bottom` move down by `count`; blank rows come in at the top.
    func scrollDown(top: Int, bottom: Int, count: Int, style: UInt16) {
        let height = bottom &- top &+ 1
        let count = min(count, height)
        guard count > 0 else { return }
        if count < height {
            rotate(top: top, bottom: bottom, by: height &- count)
        }
        for y in top..<(top &+ count) {
            clearRow(y, style: style)
        }
    }

    /// Rotates all row numbers left by `count` by sliding the window: the rows that leave
    /// the top come back at the bottom.
    @inline(__always)
    private func slide(by count: Int) {
        if mapOffset.pointee &+ rows &+ count > rows &* Self.mapWindows {
            mapStorage.update(from: rowMap, count: rows)
            mapOffset.pointee = 0
        }
        let map = rowMap
        for index in 0..<count { map[rows &+ index] = map[index] }
        mapOffset.pointee &+= count
    }

    /// Rotates the row numbers of `top...bottom` left by `count`.
    private func rotate(top: Int, bottom: Int, by count: Int) {
        let height = bottom &- top &+ 1
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { saved in
            let region = rowMap + top
            saved.baseAddress!.update(from: region, count: count)
            region.update(from: region + count, count: height &- count)
            (region + (height &- count)).update(from: saved.baseAddress!, count: count)
        }
    }

    /// Moves cells `left...right` of rows `top...bottom` up by `count` (left and right
    /// margins: cells move, not rows).
    func scrollColumnsUp(top: Int, bottom: Int, left: Int, right: Int, count: Int, style: UInt16) {
        let width = right &- left &+ 1
        splitWideCharacters(top: top, bottom: bottom, left: left, right: right)
        for y in top...bottom {
            materialize(y, upTo: right &+ 1)
            let source = y &+ count
            if source <= bottom {
                materialize(source, upTo: right &+ 1)
                (row(y) + left).update(from: row(source) + left, count: width)
            } else {
                (row(y) + left).update(repeating: Cell.blank(style), count: width)
            }
        }
    }

    func scrollColumnsDown(top: Int, bottom: Int, left: Int, right: Int, count: Int, style: UInt16) {
        let width = right &- left &+ 1
        splitWideCharacters(top: top, bottom: bottom, left: left, right: right)
        for y in stride(from: bottom, through: top, by: -1) {
            materialize(y, upTo: right &+ 1)
            let source = y &- count
            if source >= top {
                materialize(source, upTo: right &+ 1)
                (row(y) + left).update(from: row(source) + left, count: width)
            } else {
                (row(y) + left).update(repeating: Cell.blank(style), count: width)
            }
        }
    }

    /// Wide characters that straddle the left or right margin of rows `top...bottom` become
    /// blanks, both halves: cells moving between the margins would take one half away from
    /// the other.
    func splitWideCharacters(top: Int, bottom: Int, left: Int, right: Int) {
        for y in top...bottom {
            materialize(y, upTo: min(right &+ 2, columns))
            let cells = row(y)
            if left > 0 && Cell.isSpacer(cells[left]) {
                cells[left &- 1] = Cell.blank(Cell.style(cells[left &- 1]))
                cells[left] = Cell.blank(Cell.style(cells[left]))
            }
            if right &+ 1 < columns && Cell.isWide(cells[right]) {
                cells[right] = Cell.blank(Cell.style(cells[right]))
                cells[right &+ 1] = Cell.blank(Cell.style(cells[right &+ 1]))
            }
        }
    }

    /// Copies every row of `other` (same or other size) that fits, cut to width.
    func copyVisible(from other: Grid) {
        for y in 0..<min(rows, other.rows) { copyRow(y, of: other, to: y) }
    }

    /// Copies visible row `source` of `other` into visible row `y`, cut to width.
    func copyRow(_ source: Int, of other: Grid, to y: Int) {
        let count = min(other.writtenCount(source), columns)
        (row(y)).update(from: other.row(source), count: count)
        let storage = Int(rowMap[y])
        written[storage] = Int32(count)
        fill[storage] = other.fillStyle(source)
        wrapped[storage] = other.isWrapped(source)
    }
}

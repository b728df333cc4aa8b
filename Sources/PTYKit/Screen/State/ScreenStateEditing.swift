import CScreenKernels

// What text, controls and editing sequences do to the grid, as xterm does them (VT510
// where xterm follows it). Where tmux departs and the model follows it, the comment says so.

extension ScreenState {
    // MARK: - Printing

    /// A run of printable ASCII: written in bulk, as far as the row has room.
    @inline(__always)
    mutating func printASCII(_ bytes: UnsafePointer<UInt8>, count: Int) {
        lastPrinted = bytes[count &- 1]
        let charset = charsets.current
        if charset != .ascii || gridModes.insert {
            for index in 0..<count { printCharacter(translate(bytes[index], charset), width: 1) }
            lastPrinted = bytes[count &- 1]
            return
        }
        storeRun(bytes, count: count, wide: false)
    }

    /// Characters of one column gathered from among binary bytes (ScreenParser's
    /// gathering): ASCII, translated by the character set, and two-byte characters, which
    /// are not; the same as printing each. REP repeats the last one if it is ASCII.
    @inline(__always)
    mutating func printText(_ text: UnsafePointer<UInt16>, count: Int) {
        if charsets.current != .ascii || gridModes.insert {
            printEach(text, count: count)
        } else {
            storeRun(text, count: count, wide: true)
        }
        let last = text[count &- 1]
        lastPrinted = last < 0x80 ? UInt8(truncatingIfNeeded: last) : nil
    }

    /// Gathered text in insert mode or another character set than ASCII: a character at a
    /// time, the ASCII ones translated.
    @inline(never)
    private mutating func printEach(_ text: UnsafePointer<UInt16>, count: Int) {
        let charset = charsets.current
        for index in 0..<count {
            let content = text[index]
            printCharacter(
                content < 0x80 ? translate(UInt8(truncatingIfNeeded: content), charset) : UInt64(content), width: 1)
        }
    }

    /// Characters of one column in the pen's style: bytes, or 16-bit contents when `wide`
    /// (gathered text), a cell's content each. Not generic over the contents: the ground
    /// loop left a generic function a call (the inlining budget, docs/screen-model.md).
    @inline(__always)
    private mutating func storeRun(_ contents: UnsafeRawPointer, count: Int, wide: Bool) {
        let style = UInt64(currentPenId()) &<< 32
        // Most runs end before the edge of the row they start in: written without the loop.
        if !cursor.pendingWrap && cursor.x &+ count <= rightEdge {
            let row = grid.prepareWrite(cursor.y, at: cursor.x, count: count)
            storeCells(contents, count: count, wide: wide, style: style, to: row + cursor.x)
            cursor.x &+= count
        } else {
            printAcrossEdges(contents, count: count, style: style, wide: wide)
        }
    }

    /// A run that reaches the edge of its row: wrapped as often as it takes, or, without
    /// autowrap, its last character left in the last column.
    @inline(never)
    private mutating func printAcrossEdges(_ contents: UnsafeRawPointer, count: Int, style: UInt64, wide: Bool) {
        var index = 0
        while index < count {
            if cursor.pendingWrap { wrap() }
            let edge = rightEdge
            let room = edge &- cursor.x &+ 1
            let length = min(count &- index, room)
            let row = grid.prepareWrite(cursor.y, at: cursor.x, count: length)
            storeCells(
                contents + (wide ? index &* 2 : index), count: length, wide: wide, style: style, to: row + cursor.x)
            index &+= length
            if cursor.x &+ length > edge {
                cursor.x = edge
                if gridModes.autowrap {
                    cursor.pendingWrap = true
                } else if index < count {
                    // Without autowrap the rest overwrites the last column: the last one stays.
                    row[edge] = style | Self.content(contents, count &- 1, wide: wide)
                    index = count
                }
            } else {
                cursor.x &+= length
            }
        }
    }

    /// Cells for `count` contents in one style: 1 to 3 here, more in a call (CScreenKernels),
    /// ASCII with AVX2 where the CPU has it.
    @inline(__always)
    private func storeCells(
        _ contents: UnsafeRawPointer, count: Int, wide: Bool, style: UInt64, to target: UnsafeMutablePointer<UInt64>
    ) {
        if count < 4 {
            // Without a loop whose end the CPU must guess: the cells at 0, count / 2 and
            // count - 1 are all of them.
            target[0] = style | Self.content(contents, 0, wide: wide)
            target[count &>> 1] = style | Self.content(contents, count &>> 1, wide: wide)
            target[count &- 1] = style | Self.content(contents, count &- 1, wide: wide)
        } else if wide {
            ccell_store_text(contents.assumingMemoryBound(to: UInt16.self), count, style, target)
        } else {
            storeASCII(contents.assumingMemoryBound(to: UInt8.self), count, style, target)
        }
    }

    /// The content at `index` of a run of bytes or, when `wide`, 16-bit contents.
    @inline(__always)
    private static func content(_ contents: UnsafeRawPointer, _ index: Int, wide: Bool) -> UInt64 {
        wide
            ? UInt64(contents.load(fromByteOffset: index &* 2, as: UInt16.self))
            : UInt64(contents.load(fromByteOffset: index, as: UInt8.self))
    }

    @inline(__always)
    func translate(_ byte: UInt8, _ charset: TerminalCharacterSet) -> UInt64 {
        switch charset {
        case .ascii:
            return UInt64(byte)
        case .decGraphics:
            // Every printable byte keeps the set, not only the VT100's `_` to `~`: st, urxvt
            // and mlterm map more (letters to arrows and blocks), and the repaint must
            // print them in the set they were printed in.
            return byte >= 0x20 && byte <= 0x7E ? UInt64(byte) | Cell.decGraphicsFlag : UInt64(byte)
        case .unitedKingdom:
            return byte == UInt8(ascii: "#") ? 0xA3 : UInt64(byte)
        }
    }

    /// A decoded non-ASCII character. A call of its own, as the other rarer paths are, to
    /// keep the parser's loop small enough that the optimizer inlines its hot helpers.
    @inline(never)
    mutating func printScalar(_ scalar: UInt32) {
        lastPrinted = nil
        let value = CharacterWidth.value(scalar)
        let width = Int(value & 3)
        switch width {
        case 0:
            combine(scalar)
        case 1, 2:
            printCharacter(UInt64(scalar), width: width)
        default:
            break  // not printable: no cell, as tmux and wcwidth
        }
    }

    /// One character of `width` columns (content bits of a cell).
    @inline(never)
    mutating func printCharacter(_ content: UInt64, width: Int) {
        if cursor.pendingWrap { wrap() }
        var edge = rightEdge
        if width == 2 && cursor.x == edge {
            // No room for both halves: the character goes on the next row (tmux); without
            // autowrap it is not shown.
            guard gridModes.autowrap, edge > leftEdge else { return }
            grid.setWrapped(cursor.y, true)
            cursor.x = leftEdge
            lineFeed()
            edge = rightEdge
        }
        if gridModes.insert { insertBlanks(width) }
        let style = UInt64(currentPenId()) &<< 32
        let row = grid.prepareWrite(cursor.y, at: cursor.x, count: width)
        if width == 2 {
            row[cursor.x] = style | content | Cell.wideFlag
            row[cursor.x &+ 1] = style | Cell.spacerFlag
        } else {
            row[cursor.x] = style | content
        }
        if cursor.x &+ width > edge {
            cursor.x = edge
            cursor.pendingWrap = gridModes.autowrap
        } else {
            cursor.x &+= width
        }
    }

    /// A zero-width character joins the cell before the cursor (the cursor's own cell when
    /// a wrap is pending), a blank one as the space it shows, as tmux does (and a repaint
    /// writes blanks as spaces); at the start of a row it is dropped.
    private mutating func combine(_ scalar: UInt32) {
        var target = cursor.pendingWrap ? cursor.x : cursor.x &- 1
        guard target >= 0 else { return }
        grid.materialize(cursor.y, upTo: target &+ 1)
        let row = grid.row(cursor.y)
        if Cell.isSpacer(row[target]) && target > 0 { target &-= 1 }
        var cell = row[target]
        if Cell.isBlank(cell) || Cell.isSpacer(cell) { cell = Cell.blank(Cell.style(cell)) | 0x20 }
        var cluster: Cluster
        if cell & Cell.clusterFlag != 0 {
            cluster = pen.clusters[Cell.content(cell)]
        } else if cell & Cell.decGraphicsFlag != 0 {
            cluster = Cluster(Cell.decGraphicsScalar(Cell.content(cell)))
        } else {
            cluster = Cluster(Cell.content(cell))
        }
        guard !cluster.isFull else { return }
        cluster.append(scalar)
        guard let id = idCollectingIfFull({ $0.pen.clusters.id(for: cluster) }) else { return }
        let flags = cell & (Cell.wideFlag | 0xFFFF_0000_0000)
        row[target] = flags | Cell.clusterFlag | UInt64(id)
    }

    /// The pending wrap taken: the row is marked as going on, and the cursor moves to the
    /// start of the next row (scrolling at the bottom margin).
    mutating func wrap() {
        cursor.pendingWrap = false
        grid.setWrapped(cursor.y, true)
        cursor.x = leftEdge
        lineFeed()
    }

    /// REP: the last printed ASCII character again, at most to the end of the row (tmux).
    mutating func repeatLast(_ count: Int) {
        guard let byte = lastPrinted else { return }
        let times = min(count, max(columns - cursor.x, 0))
        for _ in 0..<times {
            withUnsafePointer(to: byte) { printASCII($0, count: 1) }
        }
    }

    // MARK: - Controls

    @inline(__always)
    mutating func execute(_ control: UInt8) {
        lastPrinted = nil
        switch control {
        case 0x0A:
            lineFeed()
            if gridModes.newline { carriageReturn() }
        case 0x0D: carriageReturn()
        default: executeOther(control)
        }
    }

    /// The rarer controls, in a call (see printScalar).
    @inline(never)
    private mutating func executeOther(_ control: UInt8) {
        switch control {
        case 0x08: backspace()
        case 0x09: tab(forward: 1)
        case 0x0B, 0x0C: execute(0x0A)
        case 0x0E: charsets.shifted = true
        case 0x0F: charsets.shifted = false
        default: break
        }
    }

    mutating func carriageReturn() {
        cursor.x = leftEdge
        cursor.pendingWrap = false
    }

    /// BS clears a pending wrap and otherwise moves left, stopping at the margin.
    mutating func backspace() {
        if cursor.pendingWrap {
            cursor.pendingWrap = false
            return
        }
        if cursor.x > leftEdge || (cursor.x > 0 && !margins.leftRightMode) { cursor.x &-= 1 }
    }

    /// HT moves to the next tab stop, or the right edge; CBT (negative) backwards.
    mutating func tab(forward count: Int) {
        if count > 0 {
            guard !cursor.pendingWrap else { return }
            let edge = rightEdge
            // The stops read from their buffer: a subscript of the array checked its bounds
            // and reloaded it a column (random bytes have an HT in 256 bytes).
            var x = cursor.x
            tabStops.stops.withUnsafeBufferPointer { stops in
                for _ in 0..<count {
                    guard x < edge else { break }
                    repeat { x &+= 1 } while x < edge && !stops[x]
                }
            }
            cursor.x = x
        } else {
            cursor.pendingWrap = false
            let edge = leftEdge
            for _ in 0..<(-count) {
                guard cursor.x > edge else { break }
                repeat { cursor.x &-= 1 } while cursor.x > edge && !tabStops[cursor.x]
            }
        }
    }

    /// LF, IND: down a row, scrolling the region at its bottom margin.
    @inline(__always)
    mutating func lineFeed() {
        cursor.pendingWrap = false
        if cursor.y < margins.bottom {
            cursor.y &+= 1
        } else {
            lineFeedAtOrBelowBottom()
        }
    }

    @inline(never)
    private mutating func lineFeedAtOrBelowBottom() {
        if cursor.y == margins.bottom {
            // Outside the left and right margins the cursor stays at the bottom margin.
            guard !margins.excludes(column: cursor.x) else { return }
            if cursor.y == rows &- 1 && scrollsPlainly {
                // Text scrolling up a whole screen whose lines go nowhere and whose rows are
                // all the program's: most of what scrolls.
                if pen.style.background == .default && grid.slidesUpBlank() { return }
                grid.scrollScreenUp(style: erasePenId())
            } else {
                scrollUp(1)
            }
        } else if cursor.y < rows &- 1 {
            cursor.y &+= 1
        }
    }

    /// RI: up a row, scrolling the region down at its top margin.
    mutating func reverseIndex() {
        cursor.pendingWrap = false
        if cursor.y == margins.top {
            if !margins.excludes(column: cursor.x) { scrollDown(1) }
        } else if cursor.y > 0 {
            cursor.y &-= 1
        }
    }

    /// The scroll region moves up `count` rows; rows that leave the top of a full-screen
    /// region of the main screen go to the terminal's history (kept while capturing).
    mutating func scrollUp(_ count: Int) {
        let style = erasePenId()
        if !onAlternate {
            if margins.top == 0 && margins.bottom == rows &- 1 && hasFullWidthMargins {
                mainTopRowsLeave(count)
            } else if history.rowsBeforeStart > margins.top {
                rowsBeforeStartScrolled(count)
            }
        }
        scrollRegion(count, up: true, style: style)
        // tmux's main screen scrolls into its history, every wrap flag kept; its alternate
        // screen moves the rows (grid_move_lines): the row above a region no longer goes on
        // into it, nor, in a region of two rows, the row moved up onto the blank one. tmux
        // does that on a whole alternate screen of two rows too; the model does not, as its
        // fast paths take a whole screen to scroll as the main screen does.
        if onAlternate && hasFullWidthMargins && (margins.top > 0 || margins.bottom < rows &- 1) {
            unwrapRow(above: margins.top)
            if margins.bottom &- margins.top == 1 { grid.setWrapped(margins.top, false) }
        }
    }

    mutating func scrollDown(_ count: Int) {
        let style = erasePenId()
        if history.rowsBeforeStart > margins.top && !onAlternate { history.rowsBeforeStart = margins.top }
        if hasFullWidthMargins {
            // As tmux's grid_move_lines: the row above the region no longer goes on into
            // it, and the flag of its top row is cleared as it moves down.
            unwrapRow(above: margins.top)
            grid.setWrapped(margins.top, false)
        }
        scrollRegion(count, up: false, style: style)
    }

    /// Row `y` is replaced or blanked: the row above no longer goes on into it (tmux's
    /// grid_move_lines and grid_clear_lines; the model keeps no row above the top one).
    @inline(__always)
    func unwrapRow(above y: Int) {
        if y > 0 { grid.setWrapped(y &- 1, false) }
    }

    /// The rows of the scroll region move `count` up or down, the rows they leave erased
    /// with `style`; with left and right margins, only the columns between them, a row at
    /// a time.
    @inline(__always)
    private func scrollRegion(_ count: Int, up: Bool, style: UInt16) {
        let (top, bottom) = (margins.top, margins.bottom)
        guard !hasFullWidthMargins else {
            return up
                ? grid.scrollUp(top: top, bottom: bottom, count: count, style: style)
                : grid.scrollDown(top: top, bottom: bottom, count: count, style: style)
        }
        for _ in 0..<min(count, bottom - top + 1) {
            let (left, right) = (margins.left, margins.right)
            if up {
                grid.scrollColumnsUp(top: top, bottom: bottom, left: left, right: right, count: 1, style: style)
            } else {
                grid.scrollColumnsDown(top: top, bottom: bottom, left: left, right: right, count: 1, style: style)
            }
        }
    }

    // MARK: - Cursor movement

    /// CUP, HVP: to `row`, `column` (1-based), relative to the margins in origin mode.
    mutating func moveTo(row: Int, column: Int) {
        cursor.pendingWrap = false
        if gridModes.origin {
            cursor.y = min(margins.top &+ row &- 1, margins.bottom)
            cursor.x = min(
                margins.leftRightMode ? margins.left &+ column &- 1 : column &- 1,
                margins.leftRightMode ? margins.right : columns &- 1)
        } else {
            cursor.y = min(row &- 1, rows &- 1)
            cursor.x = min(column &- 1, columns &- 1)
        }
    }

    mutating func moveToColumn(_ column: Int) {
        cursor.pendingWrap = false
        if gridModes.origin && margins.leftRightMode {
            cursor.x = min(margins.left &+ column &- 1, margins.right)
        } else {
            cursor.x = min(column &- 1, columns &- 1)
        }
    }

    /// HPR: as CHA from the column the cursor is in, as xterm does (to the screen's edge,
    /// or in origin mode the right margin; CUF stops at the right margin inside it).
    mutating func moveRightAsPosition(_ count: Int) {
        let origin = gridModes.origin && margins.leftRightMode ? margins.left : 0
        moveToColumn(max(cursor.x &- origin, 0) &+ 1 &+ count)
    }

    /// VPR: as VPA from the row the cursor is in, as xterm does (to the screen's edge, or
    /// in origin mode the bottom margin; CUD stops at the bottom margin inside the region).
    mutating func moveDownAsPosition(_ count: Int) {
        let origin = gridModes.origin ? margins.top : 0
        moveToRow(max(cursor.y &- origin, 0) &+ 1 &+ count)
    }

    mutating func moveToRow(_ row: Int) {
        cursor.pendingWrap = false
        cursor.y = gridModes.origin ? min(margins.top &+ row &- 1, margins.bottom) : min(row &- 1, rows &- 1)
    }

    /// CUU/CUD: stop at the margin when the cursor is inside the region, else at the edge.
    mutating func moveVertically(_ count: Int) {
        cursor.pendingWrap = false
        if count < 0 {
            let limit = cursor.y >= margins.top ? margins.top : 0
            cursor.y = max(cursor.y &+ count, limit)
        } else {
            let limit = cursor.y <= margins.bottom ? margins.bottom : rows &- 1
            cursor.y = min(cursor.y &+ count, limit)
        }
    }

    mutating func moveHorizontally(_ count: Int) {
        cursor.pendingWrap = false
        if count < 0 {
            cursor.x = max(cursor.x &+ count, leftEdge)
        } else {
            cursor.x = min(cursor.x &+ count, rightEdge)
        }
    }

    // MARK: - Erasing

    /// ED: 0 below, 1 above, 2 all (3, the history, is the terminal's own).
    ///
    /// Erasing keeps a pending wrap, and with one the cursor's cell counts as past the edge:
    /// as tmux does (xterm erases the last column and forgets the wrap), so that a screen
    /// inside tmux, the terminal idlewrap most often runs in, comes back cell for cell.
    mutating func eraseInDisplay(_ mode: UInt32) {
        let style = erasePenId()
        switch mode {
        case 0:
            eraseInLine(0, style: style)
            grid.clearRows((cursor.y &+ 1)..<rows, style: style)
            // The rows below blanked (tmux's grid_clear_lines), a wrap pending or not; a
            // whole row from the first column, the row above too.
            if cursor.y < rows &- 1 { grid.setWrapped(cursor.y, false) }
            if cursor.x == 0 && !cursor.pendingWrap { unwrapRow(above: cursor.y) }
        case 1:
            grid.clearRows(0..<cursor.y, style: style)
            eraseInLine(1, style: style)
        case 2:
            grid.clearRows(0..<rows, style: style)
            fullErases &+= 1
        default:
            break
        }
    }

    /// EL: 0 to the right, 1 to the left (including the cursor), 2 the whole row.
    mutating func eraseInLine(_ mode: UInt32, style: UInt16? = nil) {
        let style = style ?? erasePenId()
        switch mode {
        case 0:
            guard !cursor.pendingWrap else { return }
            if cursor.x == 0 { unwrapRowAboveClearedLine(style: style) }
            grid.cutWideCharacter(before: cursor.x, row: cursor.y)
            grid.clear(cursor.y, from: cursor.x, to: columns, style: style)
            grid.setWrapped(cursor.y, false)
        case 1:
            if cursor.x == columns &- 1 { unwrapRowAboveClearedLine(style: style) }
            grid.cutWideCharacter(after: cursor.x, row: cursor.y)
            grid.clear(cursor.y, from: 0, to: cursor.x &+ 1, style: style)
        case 2:
            unwrapRowAboveClearedLine(style: style)
            grid.clear(cursor.y, from: 0, to: columns, style: style)
        default:
            break
        }
    }

    /// EL of the cursor's whole row: the row above no longer goes on into it, unless the row
    /// was blank and stays so (tmux's screen_write_clearline then does nothing).
    private func unwrapRowAboveClearedLine(style: UInt16) {
        guard grid.writtenCount(cursor.y) != 0 || grid.fillStyle(cursor.y) != 0 || style != 0 else { return }
        unwrapRow(above: cursor.y)
    }

    /// ECH: `count` cells from the cursor, not moving it.
    mutating func eraseCharacters(_ count: Int) {
        guard !cursor.pendingWrap else { return }
        let style = erasePenId()
        let end = min(cursor.x &+ count, columns)
        if cursor.x == 0 && end == columns { unwrapRow(above: cursor.y) }
        grid.cutWideCharacter(before: cursor.x, row: cursor.y)
        grid.cutWideCharacter(after: end &- 1, row: cursor.y)
        grid.clear(cursor.y, from: cursor.x, to: end, style: style)
    }

    // MARK: - Inserting and deleting

    /// ICH: blanks at the cursor, the rest of the row (to the right margin) moving right.
    mutating func insertBlanks(_ count: Int) {
        let edge = rightEdge
        guard cursor.x <= edge else { return }
        // As DCH and xterm's ICH: the blanks go in at the last column a wrap waited at.
        cursor.pendingWrap = false
        grid.splitWideCharacters(top: cursor.y, bottom: cursor.y, left: cursor.x, right: edge)
        let style = erasePenId()
        let row = grid.row(cursor.y)
        grid.materialize(cursor.y, upTo: edge &+ 1)
        grid.cutWideCharacter(before: cursor.x, row: cursor.y)
        // A second half moved away from its first half would be an orphan.
        if Cell.isSpacer(row[cursor.x]) { row[cursor.x] = Cell.blank(Cell.style(row[cursor.x])) }
        let count = min(count, edge &- cursor.x &+ 1)
        let moving = edge &+ 1 &- cursor.x &- count
        if moving > 0 { (row + (cursor.x &+ count)).update(from: row + cursor.x, count: moving) }
        (row + cursor.x).update(repeating: Cell.blank(style), count: count)
        if Cell.isWide(row[edge]) { row[edge] = Cell.blank(Cell.style(row[edge])) }
    }

    /// DCH: cells at the cursor go, the rest of the row moving left; blanks come in.
    mutating func deleteCharacters(_ count: Int) {
        let edge = rightEdge
        guard cursor.x <= edge else { return }
        grid.splitWideCharacters(top: cursor.y, bottom: cursor.y, left: cursor.x, right: edge)
        cursor.pendingWrap = false
        let style = erasePenId()
        let row = grid.row(cursor.y)
        grid.materialize(cursor.y, upTo: edge &+ 1)
        let count = min(count, edge &- cursor.x &+ 1)
        grid.cutWideCharacter(before: cursor.x, row: cursor.y)
        grid.cutWideCharacter(after: cursor.x &+ count &- 1, row: cursor.y)
        let moving = edge &+ 1 &- cursor.x &- count
        if moving > 0 { (row + cursor.x).update(from: row + (cursor.x &+ count), count: moving) }
        (row + (edge &+ 1 &- count)).update(repeating: Cell.blank(style), count: count)
    }

    /// IL (`insert`) and DL: rows at the cursor row, inside the scroll region only; the
    /// cursor goes to the left margin.
    mutating func insertOrDeleteLines(_ count: Int, insert: Bool) {
        guard cursor.y >= margins.top, cursor.y <= margins.bottom,
            !margins.leftRightMode || (cursor.x >= margins.left && cursor.x <= margins.right)
        else { return }
        cursor.pendingWrap = false
        let style = erasePenId()
        if hasFullWidthMargins {
            // As tmux's grid_move_lines and grid_clear_lines: the row above the cursor no
            // longer goes on into it; IL clears the flag of the row `count - 1` below the
            // cursor as it moves, DL that of the last row moved up when no more rows move
            // up than are deleted.
            let lines = min(count, margins.bottom &- cursor.y &+ 1)
            let moving = margins.bottom &+ 1 &- cursor.y &- lines
            unwrapRow(above: cursor.y)
            if insert {
                grid.setWrapped(cursor.y &+ lines &- 1, false)
                grid.scrollDown(top: cursor.y, bottom: margins.bottom, count: count, style: style)
            } else {
                grid.scrollUp(top: cursor.y, bottom: margins.bottom, count: count, style: style)
                if moving > 0 && lines >= moving { grid.setWrapped(cursor.y &+ moving &- 1, false) }
            }
        } else {
            for _ in 0..<min(count, margins.bottom - cursor.y + 1) {
                if insert {
                    grid.scrollColumnsDown(
                        top: cursor.y, bottom: margins.bottom, left: margins.left, right: margins.right, count: 1,
                        style: style)
                } else {
                    grid.scrollColumnsUp(
                        top: cursor.y, bottom: margins.bottom, left: margins.left, right: margins.right, count: 1,
                        style: style)
                }
            }
        }
        cursor.x = leftEdge
    }

    /// DECALN: every cell an `E`, margins reset, cursor home.
    mutating func screenAlignment() {
        margins.reset(rows: rows, columns: columns)
        gridModes.origin = false
        cursor.x = 0
        cursor.y = 0
        cursor.pendingWrap = false
        for row in 0..<rows {
            grid.clearRow(row, style: 0)
            grid.row(row).update(repeating: UInt64(UInt8(ascii: "E")), count: columns)
            grid.noteWritten(row, upTo: columns)
        }
    }
}

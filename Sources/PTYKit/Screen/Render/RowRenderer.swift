/// Writes cells as the bytes that draw them, tracking what the terminal's pen, G0 set and
/// origin mode are as it goes, so that an SGR is written only where the style changes (tmux's
/// tty_draw_line: runs of one style). Each change writes the whole pen from `0`, so what
/// came before never leaks into it.
struct RowRenderer {
    let styles: StyleTable
    let clusters: ClusterTable
    let hyperlinks: HyperlinkTable
    /// The terminal's pen, G0 set and origin mode as the bytes written so far leave them.
    private(set) var pen = Style.plain
    private(set) var decGraphics = false
    private(set) var originMode = false

    init(styles: StyleTable, clusters: ClusterTable, hyperlinks: HyperlinkTable) {
        self.styles = styles
        self.clusters = clusters
        self.hyperlinks = hyperlinks
    }

    /// After the known state the terminal's pen is plain, G0 is ASCII and origin mode off.
    mutating func assumeReset() {
        pen = .plain
        decGraphics = false
        originMode = false
    }

    /// Cells `from..<to` of visible row `y` of `grid`, from column `from` where the cursor
    /// is. Characters of uncertain width, and characters with combining marks, are followed
    /// by a CHA to the next cell, so a terminal that draws them otherwise shifts nothing.
    mutating func cells(of grid: Grid, row y: Int, from: Int, to: Int, into buffer: OutputBuffer) {
        var x = from
        let written = grid.writtenCount(y)
        let row = grid.row(y)
        let fill = Cell.blank(grid.fillStyle(y))
        // The style is looked up only where the id changes: runs of one style cost nothing.
        var styleId = UInt32.max
        while x < to {
            let cell = x < written ? row[x] : fill
            let id = UInt32(Cell.style(cell))
            if Cell.isSpacer(cell) {
                // The wide character before it drew it; one without its first half is a blank.
                if x == from || !Cell.isWide(x - 1 < written ? row[x - 1] : fill) {
                    setStyle(styles[Cell.style(cell)], into: buffer)
                    styleId = id
                    setGraphics(false, into: buffer)
                    buffer.appendByte(0x20)
                }
                x &+= 1
                continue
            }
            if id != styleId {
                setStyle(styles[Cell.style(cell)], into: buffer)
                styleId = id
            }
            // A run of plain ASCII in this style, the common case, copied in one go.
            if x < written, !decGraphics, Self.isPlainASCII(cell) {
                // The same style and no flags: the bits above the character's 7 are the
                // style's alone (a cell with any other bit set only ends the run early).
                x &+= buffer.appendASCIIRun(row + x, count: min(to, written) &- x, style: cell & 0xFFFF_0000_0000)
                continue
            }
            let uncertain = character(cell, into: buffer)
            x &+= Cell.isWide(cell) ? 2 : 1
            if uncertain && x < to {
                TerminalControl.cursorColumn(x + 1).write(to: buffer)
            }
        }
    }

    /// Row `y` of `grid` from its first column, where the cursor is: runs of one style, EL
    /// for a plain blank tail (first, for a full row). `wrapping`: the row is left for the
    /// next character printed to wrap (`wrappedRow`), the next row of `grid` being the
    /// line's next. `continuing`: the row is the next one of such a row, the cursor at the
    /// edge before it; it writes at least one cell, which wraps. Returns `wrapping`.
    mutating func row(of grid: Grid, row y: Int, wrapping: Bool, continuing: Bool, into buffer: OutputBuffer) -> Bool {
        if wrapping {
            wrappedRow(of: grid, row: y, nextBeginsWide: Cell.isWide(grid.cell(0, y + 1)), into: buffer)
            return true
        }
        let columns = grid.lineSize(y).usableColumns(of: grid.columns)
        let end = max(Self.contentEnd(of: grid, row: y), continuing ? 1 : 0)
        // A full row ends with no EL, which would forget a wrap flag the terminal's row had
        // from before (xterm's and Ghostty's EL clear it): one first.
        if end == columns && !continuing {
            setStyle(.plain, into: buffer)
            TerminalControl.eraseToEndOfLine.write(to: buffer)
        }
        cells(of: grid, row: y, from: 0, to: end, into: buffer)
        if end < columns {
            setStyle(.plain, into: buffer)
            TerminalControl.eraseToEndOfLine.write(to: buffer)
        }
        return false
    }

    /// Row `y`, which the line goes on from, left so that the next character printed wraps
    /// to the next row, as the program's did (the terminal sets the row's wrap flag then):
    /// written through its last column, with nothing after it that ends a pending wrap
    /// (SGR and character set designations do not). A wide character that did not fit in
    /// the last column went on to the next row by itself and left that cell blank
    /// (Ghostty's spacer head, a cell tmux never wrote): when `nextBeginsWide`, such a row
    /// is written short of its last cell, the cell erased, and the character wraps by
    /// itself again. EL erases with the background alone: a blank with more in its style
    /// (underline, its colour, a link: the half of a wide character cut there) is printed
    /// as a space, and the character wraps from it.
    mutating func wrappedRow(of grid: Grid, row y: Int, nextBeginsWide: Bool, into buffer: OutputBuffer) {
        let columns = grid.lineSize(y).usableColumns(of: grid.columns)
        guard nextBeginsWide && lastCellIsErased(of: grid, row: y) else {
            cells(of: grid, row: y, from: 0, to: columns, into: buffer)
            return
        }
        cells(of: grid, row: y, from: 0, to: columns - 1, into: buffer)
        setStyle(styles[Cell.style(grid.cell(columns - 1, y))], into: buffer)
        TerminalControl.eraseToEndOfLine.write(to: buffer)
    }

    /// Whether how row `y` is written depends on the row after it: it wrapped, its last
    /// cell a blank EL makes (`wrappedRow`).
    func endDependsOnTheNextRow(of grid: Grid, row y: Int) -> Bool {
        grid.isWrapped(y) && lastCellIsErased(of: grid, row: y)
    }

    /// Whether the last cell of row `y` is a blank EL makes: its style a background alone.
    private func lastCellIsErased(of grid: Grid, row y: Int) -> Bool {
        let last = grid.cell(grid.lineSize(y).usableColumns(of: grid.columns) - 1, y)
        let style = styles[Cell.style(last)]
        return Cell.isBlank(last) && style == style.erased
    }

    /// A printable ASCII character and nothing else in the cell.
    @inline(__always)
    private static func isPlainASCII(_ cell: UInt64) -> Bool {
        cell & (Cell.clusterFlag | Cell.wideFlag | Cell.spacerFlag | Cell.decGraphicsFlag) == 0
            && Cell.content(cell) &- 0x20 < 0x5F
    }

    /// The bytes of one cell's character; whether its width is uncertain.
    @inline(__always)
    private mutating func character(_ cell: UInt64, into buffer: OutputBuffer) -> Bool {
        let content = Cell.content(cell)
        if cell & Cell.decGraphicsFlag != 0 {
            setGraphics(true, into: buffer)
            buffer.appendByte(UInt8(truncatingIfNeeded: content))
            return false
        }
        setGraphics(false, into: buffer)
        if cell & Cell.clusterFlag != 0 {
            for scalar in clusters[content] { buffer.appendScalar(scalar) }
            return true
        }
        if content == 0 {
            buffer.appendByte(0x20)
            return false
        }
        buffer.appendScalar(content)
        return content >= 0x80 && CharacterWidth.isUncertain(content)
    }

    mutating func setOriginMode(_ on: Bool, into buffer: OutputBuffer) {
        guard on != originMode else { return }
        originMode = on
        TerminalControl.mode(.origin, on: on).write(to: buffer)
    }

    mutating func setGraphics(_ on: Bool, into buffer: OutputBuffer) {
        guard on != decGraphics else { return }
        decGraphics = on
        TerminalControl.designateG0(on ? .decGraphics : .ascii).write(to: buffer)
    }

    /// Brings the terminal's pen to `style`.
    mutating func setStyle(_ style: Style, into buffer: OutputBuffer) {
        guard style != pen else { return }
        if style.hyperlink != pen.hyperlink {
            TerminalControl.hyperlink(hyperlinks[style.hyperlink]).write(to: buffer)
        }
        if style.foreground != pen.foreground || style.background != pen.background
            || style.underlineColour != pen.underlineColour || style.attributes != pen.attributes
        {
            Self.writeAttributes(style, into: buffer)
        }
        pen = style
    }

    /// The whole SGR for `style`, from `0`, each attribute and colour spelled as the stream
    /// spelled it (terminals read `21` and `4:2`, `38;2;...` and `38:2::...` differently),
    /// in sequences of at most `SGRWriter.limit` parameters.
    static func writeAttributes(_ style: Style, into buffer: OutputBuffer) {
        var sgr = SGRWriter(buffer)
        for (flag, code) in Attributes.codes where style.attributes.contains(flag) {
            sgr.parameter(1) { buffer.appendNumber(Int(code)) }
        }
        let attributes = style.attributes
        switch attributes.underline {
        case 0: break
        case 1 where !attributes.underlineSpelledWithColon: sgr.parameter(1) { buffer.append("4") }
        case 2 where !attributes.underlineSpelledWithColon: sgr.parameter(1) { buffer.append("21") }
        case let underline:
            sgr.parameter(2) {
                buffer.append("4:")
                buffer.appendNumber(Int(underline))
            }
        }
        writeColour(style.foreground, base: 30, into: &sgr)
        writeColour(style.background, base: 40, into: &sgr)
        writeColour(style.underlineColour, base: 50, into: &sgr)
        sgr.end()
    }

    /// `base` 30 (foreground), 40 (background) or 50 (underline: only 58 forms).
    private static func writeColour(_ colour: Colour, base: Int, into sgr: inout SGRWriter) {
        let buffer = sgr.buffer
        let spelling = colour.spelling
        let separator = UInt8(ascii: spelling == .semicolons ? ";" : ":")
        switch colour.form {
        case .default:
            return
        case .ansi(let number) where base != 50:
            sgr.parameter(1) { buffer.appendNumber(number < 8 ? base + Int(number) : base + 60 + Int(number) - 8) }
        case .ansi(let number), .indexed(let number):
            sgr.parameter(3) {
                buffer.appendNumber(base + 8)
                buffer.appendByte(separator)
                buffer.appendByte(UInt8(ascii: "5"))
                buffer.appendByte(separator)
                buffer.appendNumber(Int(number))
            }
        case .direct(let red, let green, let blue):
            // `38:2::R:G:B` has an empty colour space before the values.
            let withColourSpace = spelling == .colons
            sgr.parameter(withColourSpace ? 6 : 5) {
                buffer.appendNumber(base + 8)
                buffer.appendByte(separator)
                buffer.appendByte(UInt8(ascii: "2"))
                buffer.appendByte(separator)
                if withColourSpace { buffer.appendByte(separator) }
                buffer.appendNumber(Int(red))
                buffer.appendByte(separator)
                buffer.appendNumber(Int(green))
                buffer.appendByte(separator)
                buffer.appendNumber(Int(blue))
            }
        }
    }

    /// SGR parameters written in groups that stay together, a new sequence begun where the
    /// next group would pass `limit` parameters (sub-parameters counted); the first
    /// sequence starts with `0`. Short sequences, because terminals drop longer ones whole:
    /// mlterm any of more than 10 parameters (true-colour text and background in one SGR
    /// take 11), others past 16 or 24.
    private struct SGRWriter {
        static let limit = 10
        let buffer: OutputBuffer
        private var count = 1

        init(_ buffer: OutputBuffer) {
            self.buffer = buffer
            buffer.append("\u{1b}[0")
        }

        /// A group of `count` parameters, written by `write`.
        mutating func parameter(_ count: Int, _ write: () -> Void) {
            if self.count + count > Self.limit {
                buffer.append("m\u{1b}[")
                self.count = 0
            } else {
                buffer.appendByte(UInt8(ascii: ";"))
            }
            self.count += count
            write()
        }

        func end() {
            buffer.appendByte(UInt8(ascii: "m"))
        }
    }

    /// How far row `y` has anything to draw: past it, only blanks in the plain style
    /// (which EL draws).
    static func contentEnd(of grid: Grid, row y: Int) -> Int {
        let columns = grid.lineSize(y).usableColumns(of: grid.columns)
        guard grid.fillStyle(y) == 0 else { return columns }
        let row = grid.row(y)
        var end = min(grid.writtenCount(y), columns)
        while end > 0 && row[end - 1] == 0 { end -= 1 }
        return end
    }
}

/// Writes cells as the bytes that draw them, tracking what the terminal's pen and G0 set
/// are as it goes, so that an SGR is written only where the style changes (tmux's
/// tty_draw_line: runs of one style). Each change writes the whole pen from `0`, so what
/// came before never leaks into it.
struct RowRenderer {
    let styles: StyleTable
    let clusters: ClusterTable
    let hyperlinks: HyperlinkTable
    /// The terminal's pen and G0 set as the bytes written so far leave them.
    private(set) var pen = Style.plain
    private(set) var decGraphics = false

    init(styles: StyleTable, clusters: ClusterTable, hyperlinks: HyperlinkTable) {
        self.styles = styles
        self.clusters = clusters
        self.hyperlinks = hyperlinks
    }

    /// After a reset the terminal's pen is plain and G0 is ASCII.
    mutating func assumeReset() {
        pen = .plain
        decGraphics = false
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
                var end = x &+ 1
                let limit = min(to, written)
                // The same style and no flags: the bits above the character's 7 are the
                // style's alone (a cell with any other bit set only ends the run early).
                let key = cell & 0xFFFF_0000_0000
                while end < limit {
                    let next = row[end]
                    guard next & ~0x7F == key, (next & 0x7F) &- 0x20 < 0x5F else { break }
                    end &+= 1
                }
                buffer.appendASCII(row + x, count: end &- x)
                x = end
                continue
            }
            let uncertain = character(cell, into: buffer)
            x &+= Cell.isWide(cell) ? 2 : 1
            if uncertain && x < to {
                TerminalControl.cursorColumn(x + 1).write(to: buffer)
            }
        }
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

    /// The whole SGR for `style`, from `0`, in as many sequences as keep each within the 16
    /// parameters every parser takes (the model's limit; tmux takes 24):
    /// all eight attributes, an underline and three direct colours make 25.
    static func writeAttributes(_ style: Style, into buffer: OutputBuffer) {
        var sgr = SGRWriter(buffer)
        for (flag, code) in Attributes.codes where style.attributes.contains(flag) {
            sgr.parameter(1) { buffer.appendNumber(Int(code)) }
        }
        switch style.attributes.underline {
        case 0: break
        case 1: sgr.parameter(1) { buffer.append("4") }
        case let underline:
            sgr.parameter(1) {
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
        switch colour.form {
        case .default:
            return
        case .ansi(let number) where base != 50:
            sgr.parameter(1) { buffer.appendNumber(number < 8 ? base + Int(number) : base + 60 + Int(number) - 8) }
        case .ansi(let number), .indexed(let number):
            sgr.parameter(3) {
                buffer.appendNumber(base + 8)
                buffer.append(";5;")
                buffer.appendNumber(Int(number))
            }
        case .direct(let red, let green, let blue):
            sgr.parameter(5) {
                buffer.appendNumber(base + 8)
                buffer.append(";2;")
                buffer.appendNumber(Int(red))
                buffer.appendByte(UInt8(ascii: ";"))
                buffer.appendNumber(Int(green))
                buffer.appendByte(UInt8(ascii: ";"))
                buffer.appendNumber(Int(blue))
            }
        }
    }

    /// SGR parameters written in groups that stay together, a new sequence begun where the
    /// next group would pass 16 parameters; the first sequence starts with `0`.
    private struct SGRWriter {
        static let limit = SequenceParameters.maximumParameterCount
        let buffer: OutputBuffer
        private var count = 1

        init(_ buffer: OutputBuffer) {
            self.buffer = buffer
            buffer.append("\u{1b}[0")
        }

        /// A group of `count` `;`-separated parameters, written by `write`.
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
        guard grid.fillStyle(y) == 0 else { return grid.columns }
        let row = grid.row(y)
        var end = grid.writtenCount(y)
        while end > 0 && row[end - 1] == 0 { end -= 1 }
        return end
    }
}

/// Output kept for the terminal's scrollback while the screen is not shown: each line that
/// scrolls off the top of the main screen, rendered at once into a ring of at most `limit`
/// bytes. When a line does not fit, the oldest ones go, and are counted.
struct ScrollbackHold {
    let limit: Int
    private var storage: UnsafeMutablePointer<UInt8>? = nil
    private var head = 0
    private(set) var usedBytes = 0
    private(set) var lineCount = 0
    private(set) var droppedLines = 0
    private let scratch: OutputBuffer

    init(limit: Int) {
        self.limit = max(limit, 0)
        scratch = OutputBuffer(capacity: 1024)
    }

    func deallocate() {
        storage?.deallocate()
    }

    /// Renders visible row `y` of `grid` as one line: its cells from the default pen, then
    /// back to the default pen and, unless the line wrapped (then it is full and the next
    /// character wraps it, as the program's output did), EL and CR LF.
    mutating func append(
        row y: Int, of grid: Grid, styles: StyleTable, clusters: ClusterTable, hyperlinks: HyperlinkTable
    ) {
        scratch.removeAll()
        var renderer = RowRenderer(styles: styles, clusters: clusters, hyperlinks: hyperlinks)
        Self.line(y, of: grid, renderer: &renderer, into: scratch)
        store(scratch)
    }

    /// `newline`: the line ends with CR LF (unless it wrapped).
    static func line(
        _ y: Int, of grid: Grid, renderer: inout RowRenderer, newline: Bool = true, into buffer: OutputBuffer
    ) {
        let wrapped = grid.isWrapped(y)
        let end = wrapped ? grid.columns : RowRenderer.contentEnd(of: grid, row: y)
        renderer.assumeReset()
        renderer.cells(of: grid, row: y, from: 0, to: end, into: buffer)
        renderer.setStyle(.plain, into: buffer)
        renderer.setGraphics(false, into: buffer)
        guard !wrapped else { return }
        if end < grid.columns { TerminalControl.eraseToEndOfLine.write(to: buffer) }
        if newline { buffer.append("\r\n") }
    }

    private mutating func store(_ line: OutputBuffer) {
        let length = line.count
        let record = length + 4
        guard record <= limit else {
            droppedLines += 1
            return
        }
        if storage == nil { storage = .allocate(capacity: limit) }
        guard let storage else { return }
        while usedBytes + record > limit { dropOldest(storage) }
        var tail = head + usedBytes
        if tail >= limit { tail -= limit }
        if tail + 4 <= limit {
            UnsafeMutableRawPointer(storage + tail).storeBytes(of: UInt32(length).littleEndian, as: UInt32.self)
            tail = tail + 4 == limit ? 0 : tail + 4
        } else {
            withUnsafeBytes(of: UInt32(length).littleEndian) { header in
                for byte in header {
                    storage[tail] = byte
                    tail = tail + 1 == limit ? 0 : tail + 1
                }
            }
        }
        line.withUnsafeBytes { bytes in
            let first = min(length, limit - tail)
            (storage + tail).update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: first)
            if first < length {
                storage.update(
                    from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + first, count: length - first)
            }
        }
        usedBytes += record
        lineCount += 1
    }

    private mutating func dropOldest(_ storage: UnsafeMutablePointer<UInt8>) {
        let length = readLength(storage, at: head)
        head += 4 + length
        if head >= limit { head -= limit }
        usedBytes -= 4 + length
        lineCount -= 1
        droppedLines += 1
    }

    private func readLength(_ storage: UnsafeMutablePointer<UInt8>, at offset: Int) -> Int {
        if offset + 4 <= limit {
            return Int(UInt32(littleEndian: UnsafeRawPointer(storage + offset).loadUnaligned(as: UInt32.self)))
        }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(storage[(offset + index) % limit]) << (8 * index) }
        return Int(value)
    }

    /// Appends every held line, oldest first.
    func write(into buffer: OutputBuffer) {
        guard let storage else { return }
        var offset = head
        for _ in 0..<lineCount {
            let length = readLength(storage, at: offset)
            offset = (offset + 4) % limit
            buffer.reserve(length)
            let first = min(length, limit - offset)
            buffer.append(UnsafeRawBufferPointer(start: storage + offset, count: first))
            if first < length { buffer.append(UnsafeRawBufferPointer(start: storage, count: length - first)) }
            offset = (offset + length) % limit
        }
    }
}

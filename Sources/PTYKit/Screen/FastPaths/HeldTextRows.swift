import CScreenKernels

/// The rows that plain text the scroll-ahead skipped (ScreenStateScrollAhead.swift) scrolled
/// away, for the scrollback hold: a locked flood keeps every line for the terminal's history,
/// and writing each to the grid only to render it back cost more than the rest of the flood.
///
/// While the scrollback is held the walk goes over plain text only from a plain pen in ASCII
/// (no SGR walked over) and where the rows from the cursor down hold plain ASCII alone
/// (`rowsFromCursorArePlainText`): then each row that leaves is its characters, blanks as
/// spaces, up to its last one, and what the hold ends every line with (ScrollbackHold.line),
/// which can be made from the bytes without a grid. The rows above the cursor leave as the
/// grid has them.
struct HeldTextRows {
    /// One row's characters, blanks as spaces, and room for the EL and CR LF after them.
    private var line: UnsafeMutablePointer<UInt8>
    private var capacity = 0
    private var columns = 0
    /// The column after the row's last character (where its line ends), the cursor's
    /// column and pending wrap, and the row it is in, numbered as the walk numbers them.
    private var end = 0
    private var x = 0
    private var pendingWrap = false
    private(set) var row = 0
    /// The screen the text is written on: its top row is row `topRow`; rows below it are
    /// scrolled in blank.
    private var screen: Grid? = nil
    private var topRow = 0
    private var newlineMode = false
    /// Where the returns and line feeds found in a batch go (CellVectors.lineStops).
    private let stops: UnsafeMutablePointer<Int>
    private static let stopsABatch = 128
    private var lineStops: CellVectors.LineStops = ccell_line_stops_sse2

    /// The most a line ends with: EL, CR and LF.
    private static let lineEndLength = 5

    init() {
        line = .allocate(capacity: 1)
        stops = .allocate(capacity: Self.stopsABatch)
    }

    func deallocate() {
        line.deallocate()
        stops.deallocate()
    }

    /// Begins at the cursor `start` walks from, on `screen` (its top row numbered `topRow`).
    mutating func begin(
        on screen: Grid, topRow: Int, at start: ScreenState.PlainTextWalk, newlineMode: Bool,
        lineStops: CellVectors.LineStops
    ) {
        self.lineStops = lineStops
        let columns = screen.columns
        if columns &+ Self.lineEndLength > capacity {
            line.deallocate()
            capacity = columns &+ Self.lineEndLength
            line = .allocate(capacity: capacity)
        }
        self.columns = columns
        self.screen = screen
        self.topRow = topRow
        self.newlineMode = newlineMode
        line.update(repeating: 0x20, count: columns)
        end = 0
        x = start.x
        pendingWrap = start.pendingWrap
        row = start.row
        enterRow()
    }

    /// Takes the row's cells until now, where it is a row of the screen: plain ASCII or
    /// blank (ScreenState.rowsFromCursorArePlainText).
    private mutating func enterRow() {
        guard let screen, row &- topRow < screen.rows else { return }
        let y = row &- topRow
        let cells = screen.row(y)
        for index in 0..<screen.writtenCount(y) where cells[index] != 0 {
            line[index] = UInt8(truncatingIfNeeded: cells[index])
            end = index &+ 1
        }
    }

    /// Follows plain text (printable ASCII, CR and LF), storing each row the cursor leaves
    /// in `hold`. The returns and line feeds are found with the walk's vectors, a batch at
    /// a time.
    mutating func follow(_ text: UnsafeBufferPointer<UInt8>, into hold: inout ScrollbackHold) {
        guard let base = text.baseAddress else { return }
        let end = text.count
        var runStart = 0
        var found = Self.stopsABatch
        while found == Self.stopsABatch {
            found = lineStops(base, runStart, end, stops, Self.stopsABatch)
            for index in 0..<found {
                let stop = stops[index]
                if stop > runStart { printRun(base + runStart, count: stop &- runStart, into: &hold) }
                pendingWrap = false
                if base[stop] == 0x0D {
                    x = 0
                } else {
                    if newlineMode { x = 0 }
                    leaveRow(wrapped: false, into: &hold)
                }
                runStart = stop &+ 1
            }
        }
        if end > runStart { printRun(base + runStart, count: end &- runStart, into: &hold) }
    }

    /// Leaves the row for the next, which its last character wraps to.
    mutating func wrap(into hold: inout ScrollbackHold) {
        pendingWrap = false
        x = 0
        leaveRow(wrapped: true, into: &hold)
    }

    /// As ScreenState.printASCII: from the cursor, wrapping at the last column.
    private mutating func printRun(_ base: UnsafePointer<UInt8>, count: Int, into hold: inout ScrollbackHold) {
        var index = 0
        while index < count {
            if pendingWrap { wrap(into: &hold) }
            let length = min(count &- index, columns &- x)
            (line + x).update(from: base + index, count: length)
            index &+= length
            x &+= length
            end = max(end, x)
            if x == columns {
                x = columns &- 1
                pendingWrap = true
            }
        }
    }

    /// Stores the row as the hold renders it (ScrollbackHold.line), and enters the next.
    private mutating func leaveRow(wrapped: Bool, into hold: inout ScrollbackHold) {
        // A row that wrapped is drawn whole (ScrollbackHold.line).
        var length = wrapped ? columns : end
        if !wrapped {
            if end < columns {
                // EL
                (line[length], line[length &+ 1], line[length &+ 2]) = (0x1B, 0x5B, 0x4B)
                length &+= 3
            }
            (line[length], line[length &+ 1]) = (0x0D, 0x0A)
            length &+= 2
        }
        hold.store(UnsafeRawBufferPointer(start: line, count: length))
        line.update(repeating: 0x20, count: min(length, columns))
        end = 0
        row &+= 1
        enterRow()
    }
}

extension ScreenState {
    /// Plain text (one piece, or two: the kept text and the read) that the scroll-ahead
    /// walked from `start`, the screen's top row numbered `topRow`, up to `first`, where
    /// the first row shown now begins, scrolled the screen away: the screen is blanked for
    /// the text from `first` on, and, while the scrollback is held, the rows that left go
    /// into the hold as the plain feed would have put them there.
    @inline(__always)
    mutating func scrollAway(
        _ text: UnsafeBufferPointer<UInt8>, then more: UnsafeBufferPointer<UInt8>? = nil,
        from start: PlainTextWalk, topRow: Int, to first: PlainTextWalk, _ rows: inout HeldTextRows
    ) {
        if !onAlternate && history.isHolding {
            holdRows(text, then: more, from: start, topRow: topRow, to: first, &rows)
        }
        blankScreen(to: first)
    }

    /// Puts the rows that `text` scrolled away into the hold (see `scrollAway`). Apart, so
    /// that a flood not held carries none of it.
    @inline(never)
    private mutating func holdRows(
        _ text: UnsafeBufferPointer<UInt8>, then more: UnsafeBufferPointer<UInt8>?, from start: PlainTextWalk,
        topRow: Int, to first: PlainTextWalk, _ rows: inout HeldTextRows
    ) {
        // The rows above the cursor leave as they are; the hold renders them before the
        // rows made from the text.
        mainTopRowsLeave(start.row &- topRow)
        renderedHold()
        rows.begin(on: grid, topRow: topRow, at: start, newlineMode: gridModes.newline, lineStops: lineStops)
        rows.follow(text, into: &history.hold!)
        if let more { rows.follow(more, into: &history.hold!) }
        // The first row shown begins with a character that wraps the row before it.
        if rows.row < first.row { rows.wrap(into: &history.hold!) }
    }

    /// Whether the rows from the cursor down hold plain ASCII in the plain style or blanks
    /// alone, and none wrapped: what HeldTextRows can make the held lines of from the
    /// bytes. The cursor's row and those below it are blank in a flood (it blanks the
    /// screen), but for the first read.
    var rowsFromCursorArePlainText: Bool {
        for y in cursor.y..<rows {
            guard grid.fillStyle(y) == 0 && !grid.isWrapped(y) else { return false }
            let cells = grid.row(y)
            for index in 0..<grid.writtenCount(y) where cells[index] != 0 && cells[index] &- 0x20 >= 0x5F {
                return false
            }
        }
        return true
    }
}

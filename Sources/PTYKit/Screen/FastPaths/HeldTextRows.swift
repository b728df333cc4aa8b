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
    /// The first row (numbered as `row`) from which every row is blank: a line of text
    /// that begins at its first column there is its own bytes (`storeLine`).
    private var blankFrom = 0
    /// Where the returns and line feeds found in a batch go (CellVectors.lineStops).
    private let stops: UnsafeMutablePointer<Int>
    private static let stopsABatch = 128
    private var lineStops: CellVectors.LineStops = ccell_line_stops_sse2
    /// The rows made, laid out as the hold's ring keeps them (ScrollbackHold.store(records:)),
    /// stored a batch at a time: one at a time, storing a `yes` line cost more than making it.
    private var records: UnsafeMutablePointer<UInt8>
    private var recordsCapacity = 0
    private var recordsUsed = 0
    private var recordCount = 0

    /// The most a line ends with: EL, CR and LF.
    private static let lineEndLength = 5
    /// EL, CR and LF, as the little-endian word `storeLine` writes them with.
    private static let lineEnd: UInt64 = 0x0A_0D_4B_5B_1B

    init() {
        line = .allocate(capacity: 1)
        stops = .allocate(capacity: Self.stopsABatch)
        records = .allocate(capacity: 1)
    }

    func deallocate() {
        line.deallocate()
        stops.deallocate()
        records.deallocate()
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
        // A batch of 16 KiB, or room for a few rows of a very wide screen.
        let recordsCapacity = max(16 << 10, 4 &* (columns &+ 16))
        if recordsCapacity > self.recordsCapacity {
            records.deallocate()
            self.recordsCapacity = recordsCapacity
            records = .allocate(capacity: recordsCapacity)
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
        blankFrom = topRow &+ screen.rows
        while blankFrom > row && rowIsBlank(blankFrom &- 1 &- topRow) { blankFrom &-= 1 }
        enterRow()
    }

    private func rowIsBlank(_ y: Int) -> Bool {
        guard let screen else { return true }
        let cells = screen.row(y)
        for index in 0..<screen.writtenCount(y) where cells[index] != 0 { return false }
        return true
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
    /// in `hold` (a batch at a time: `finish` stores the last). The returns and line feeds
    /// are found with the walk's vectors, a batch at a time.
    mutating func follow(_ text: UnsafeBufferPointer<UInt8>, into hold: inout ScrollbackHold) {
        guard let base = text.baseAddress else { return }
        let end = text.count
        var runStart = 0
        var found = Self.stopsABatch
        while found == Self.stopsABatch {
            found = lineStops(base, runStart, end, stops, Self.stopsABatch)
            var index = 0
            while index < found {
                let stop = stops[index]
                index &+= 1
                // Lines ended by CR LF from the first column of a blank row (a command's
                // output through a pty): their rows are their own bytes.
                if base[stop] == 0x0D && row >= blankFrom && x == 0 && !pendingWrap && self.end == 0 {
                    let lines = storeLines(base, from: runStart, stop: index &- 1, of: found, into: &hold)
                    if lines.stop >= index {
                        (index, runStart) = lines
                        continue
                    }
                }
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
        let record = newRecord(length: length, into: &hold)
        record.update(from: line, count: length)
        line.update(repeating: 0x20, count: min(length, columns))
        end = 0
        row &+= 1
        enterRow()
    }

    /// Stores the lines from `runStart` that CR LF end, the first ended by the return at
    /// `stops[stop]`, as `storeLine` does, up to the first stop among the `found` that does
    /// not end such a line; returns that stop and where its run begins. The cursor is at
    /// the first column of a blank row. A line shorter than a row is copied here: a call
    /// of memcpy a `yes` line cost more than the rest of it.
    private mutating func storeLines(
        _ base: UnsafePointer<UInt8>, from runStart: Int, stop: Int, of found: Int, into hold: inout ScrollbackHold
    ) -> (stop: Int, runStart: Int) {
        var (index, runStart) = (stop, runStart)
        let columns = self.columns
        while index &+ 1 < found {
            let stop = stops[index]
            guard base[stop] == 0x0D && stops[index &+ 1] == stop &+ 1 && base[stop &+ 1] == 0x0A else { break }
            let count = stop &- runStart
            if count < columns && recordsUsed &+ count &+ 12 <= recordsCapacity {
                let record = records + recordsUsed
                UnsafeMutableRawPointer(record).storeBytes(
                    of: UInt32(truncatingIfNeeded: count &+ Self.lineEndLength).littleEndian, as: UInt32.self)
                // The characters, CR and LF; EL goes before those two.
                Self.copy(base + runStart, to: record + 4, count: count &+ 2)
                UnsafeMutableRawPointer(record + (4 &+ count)).storeBytes(
                    of: Self.lineEnd.littleEndian, as: UInt64.self)
                recordsUsed &+= 4 &+ count &+ Self.lineEndLength
                recordCount &+= 1
                row &+= 1
            } else {
                storeLine(base + runStart, count: count, into: &hold)
            }
            index &+= 2
            runStart = stop &+ 2
        }
        return (index, runStart)
    }

    /// Copies `count` bytes, at least 2: a short line in two overlapping words, not a call.
    @inline(__always)
    private static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        let (from, to) = (UnsafeRawPointer(source), UnsafeMutableRawPointer(target))
        if count >= 8 {
            guard count <= 32 else { return target.update(from: source, count: count) }
            var offset = 0
            while offset &+ 8 < count {
                to.storeBytes(
                    of: from.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset,
                    as: UInt64.self)
                offset &+= 8
            }
            to.storeBytes(
                of: from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self), toByteOffset: count &- 8,
                as: UInt64.self)
        } else if count >= 4 {
            let (first, last) = (
                from.loadUnaligned(as: UInt32.self), from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            )
            to.storeBytes(of: first, as: UInt32.self)
            to.storeBytes(of: last, toByteOffset: count &- 4, as: UInt32.self)
        } else {
            let (first, last) = (
                from.loadUnaligned(as: UInt16.self), from.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
            )
            to.storeBytes(of: first, as: UInt16.self)
            to.storeBytes(of: last, toByteOffset: count &- 2, as: UInt16.self)
        }
    }

    /// Stores the rows of the `count` characters at `base`, a line that begins at the first
    /// column of a blank row and that CR LF ends: as `printRun` and `leaveRow` would, but
    /// from the bytes, the rows after it blank too. Each row but the last wrapped.
    private mutating func storeLine(_ base: UnsafePointer<UInt8>, count: Int, into hold: inout ScrollbackHold) {
        var text = base
        var left = count
        while left > columns {
            newRecord(length: columns, into: &hold).update(from: text, count: columns)
            text += columns
            left &-= columns
            row &+= 1
        }
        // Without EL when the characters reach the last column.
        let erases = left < columns
        let length = left &+ (erases ? Self.lineEndLength : 2)
        let record = newRecord(length: length, into: &hold)
        record.update(from: text, count: left)
        // The 8-byte store fits: a record has room for `lineEndLength` after `columns`.
        UnsafeMutableRawPointer(record + left).storeBytes(
            of: (erases ? Self.lineEnd : Self.lineEnd >> 24).littleEndian, as: UInt64.self)
        row &+= 1
    }

    /// Room for a record of `length` bytes (at most `columns` and a line's end) in the batch,
    /// the batch stored first when it is full.
    private mutating func newRecord(length: Int, into hold: inout ScrollbackHold) -> UnsafeMutablePointer<UInt8> {
        if recordsUsed &+ 4 &+ columns &+ 8 > recordsCapacity { finish(into: &hold) }
        UnsafeMutableRawPointer(records + recordsUsed).storeBytes(of: UInt32(length).littleEndian, as: UInt32.self)
        let record = records + (recordsUsed &+ 4)
        recordsUsed &+= 4 &+ length
        recordCount &+= 1
        return record
    }

    /// Stores the rows made and not stored yet: what must come before anything else reaches
    /// the hold.
    mutating func finish(into hold: inout ScrollbackHold) {
        guard recordCount > 0 else { return }
        hold.store(
            records: UnsafeRawBufferPointer(start: records, count: recordsUsed), count: recordCount,
            longest: columns &+ Self.lineEndLength)
        recordsUsed = 0
        recordCount = 0
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
        renderWaitingRows()
        rows.begin(on: grid, topRow: topRow, at: start, newlineMode: gridModes.newline, lineStops: lineStops)
        rows.follow(text, into: &history.hold!)
        if let more { rows.follow(more, into: &history.hold!) }
        // The first row shown begins with a character that wraps the row before it.
        if rows.row < first.row { rows.wrap(into: &history.hold!) }
        rows.finish(into: &history.hold!)
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

import Glibc

/// Output kept for the terminal's scrollback while the screen is not shown: each line that
/// scrolls off the top of the main screen, rendered into a ring of at most `limit` bytes.
/// When a line does not fit, the oldest ones go, and are counted.
///
/// Lines are rendered in batches: a row that leaves is copied, cells as they are, into a
/// small grid of rows waiting (`waitingCapacity`), and the batch is rendered with one
/// renderer when the grid is full, when its width no longer is the screen's, and before
/// anything reads the hold or collects the tables its cells name (`renderWaitingRows`).
/// One renderer a row (its tables copied and released) cost more than all the rest of a
/// locked flood. The waiting rows take cells of at most an eighth of `limit`, and no more
/// than 64 rows: a limit too small for two rows renders each at once, as before.
///
/// A row that wrapped with its last cell a blank EL makes is written as the next row's
/// first cell has it (RowRenderer.wrappedRow: a wide character that did not fit wraps by
/// itself), so the last row of a batch, when it is one, is rendered both ways and stored
/// with the row after it (`endPendingRow`): the lines do not depend on where batches end, which the fast paths
/// move (they render the batch before storing rows of their own, and collections come at
/// other times).
///
/// The ring grows as lines arrive (doubling, from 64 KiB), never past `limit`, so a large
/// limit costs only what is held. Its memory comes from malloc, which can fail where Swift's
/// allocation would end the process: a ring that cannot grow stays as it is and counts as
/// full (the oldest lines go, as past the limit), so no output ends a locked session.
struct ScrollbackHold {
    let limit: Int
    /// What the ring has, at most `limit`; 0 before the first line.
    private(set) var capacity = 0
    private var storage: UnsafeMutablePointer<UInt8>? = nil
    private var head = 0
    private(set) var usedBytes = 0
    private(set) var lineCount = 0
    private(set) var droppedLines = 0
    /// False once an allocation failed: the ring stays at `capacity`.
    private(set) var canGrow = true
    private let allocate: (Int) -> UnsafeMutableRawPointer?
    /// Kept behind one reference, so that the hold, which the state carries, is no larger.
    private let rendering = Rendering()
    /// Rows that left the screen, not rendered yet: the first `waitingCount` of `waiting`.
    private var waiting: Grid? = nil
    private var waitingCount = 0

    static let initialCapacity = 64 << 10
    /// How much `write` builds before it hands the bytes on (when it may).
    static let drainSize = 64 << 10

    /// `allocate` gives `size` bytes or nil (malloc; tests fail it).
    init(limit: Int, allocate: @escaping (Int) -> UnsafeMutableRawPointer? = { malloc($0) }) {
        self.limit = max(limit, 0)
        self.allocate = allocate
    }

    func deallocate() {
        free(storage)
        waiting?.deallocate()
    }

    /// Rows of `columns` cells a batch waits for: cells of at most an eighth of `limit`,
    /// at most 64 rows, at least one.
    func waitingCapacity(columns: Int) -> Int {
        min(max(limit / 8 / (max(columns, 1) * MemoryLayout<UInt64>.stride), 1), 64)
    }

    /// Takes visible row `y` of `grid`, to be rendered as one line with its batch: its
    /// cells from the default pen, then back to the default pen and, unless the line
    /// wrapped (then it is full and the next character wraps it, as the program's output
    /// did), EL and CR LF. The tables are those the cells name.
    mutating func append(
        row y: Int, of grid: Grid, styles: StyleTable, clusters: ClusterTable, hyperlinks: HyperlinkTable
    ) {
        if let waiting, waiting.columns != grid.columns {
            renderWaitingRows(styles: styles, clusters: clusters, hyperlinks: hyperlinks)
            waiting.deallocate()
            self.waiting = nil
        }
        let batch = waiting ?? Grid(rows: waitingCapacity(columns: grid.columns), columns: grid.columns)
        waiting = batch
        batch.copyRow(y, of: grid, to: waitingCount)
        waitingCount += 1
        if waitingCount == batch.rows { renderWaitingRows(styles: styles, clusters: clusters, hyperlinks: hyperlinks) }
    }

    /// Renders the rows waiting into the ring, oldest first: what a collection of the tables
    /// the rows' cells name must come after. The last one waits rendered for the row after
    /// it when its end depends on that row: the first one waiting the next time
    /// (`endPendingRow`, which reading the hold comes after too).
    mutating func renderWaitingRows(styles: StyleTable, clusters: ClusterTable, hyperlinks: HyperlinkTable) {
        guard let waiting, waitingCount > 0 else { return }
        endPendingRow(nextBeginsWide: Cell.isWide(waiting.cell(0, 0)))
        var renderer = RowRenderer(styles: styles, clusters: clusters, hyperlinks: hyperlinks)
        let (scratch, last) = (rendering.line, waitingCount - 1)
        for y in 0..<last {
            scratch.removeAll()
            Self.line(
                y, of: waiting, renderer: &renderer, nextBeginsWide: Cell.isWide(waiting.cell(0, y + 1)), into: scratch)
            store(scratch)
        }
        if renderer.endDependsOnTheNextRow(of: waiting, row: last) {
            let (pending, beforeWide) = (rendering.pendingRow, rendering.pendingRowBeforeWide)
            pending.removeAll()
            beforeWide.removeAll()
            Self.line(last, of: waiting, renderer: &renderer, into: pending)
            Self.line(last, of: waiting, renderer: &renderer, nextBeginsWide: true, into: beforeWide)
            rendering.hasPendingRow = true
        } else {
            scratch.removeAll()
            Self.line(last, of: waiting, renderer: &renderer, into: scratch)
            store(scratch)
        }
        waitingCount = 0
    }

    /// Stores the row that waits rendered for the row after it (`renderWaitingRows`), as it
    /// is written before that row: what the rows after it, and reading the hold, come after.
    mutating func endPendingRow(nextBeginsWide: Bool) {
        guard rendering.hasPendingRow else { return }
        rendering.hasPendingRow = false
        store(nextBeginsWide ? rendering.pendingRowBeforeWide : rendering.pendingRow)
    }

    /// `newline`: the line ends with CR LF (unless it wrapped). `nextBeginsWide`: the row
    /// after it begins with a wide character, so a wrapped row can leave one that did not
    /// fit to wrap by itself again (RowRenderer.wrappedRow); asked of wrapped rows alone.
    static func line(
        _ y: Int, of grid: Grid, renderer: inout RowRenderer, newline: Bool = true,
        nextBeginsWide: @autoclosure () -> Bool = false, into buffer: OutputBuffer
    ) {
        let wrapped = grid.isWrapped(y)
        let end = wrapped ? grid.columns : RowRenderer.contentEnd(of: grid, row: y)
        renderer.assumeReset()
        if wrapped {
            renderer.wrappedRow(of: grid, row: y, nextBeginsWide: nextBeginsWide(), into: buffer)
        } else {
            renderer.cells(of: grid, row: y, from: 0, to: end, into: buffer)
        }
        renderer.setStyle(.plain, into: buffer)
        renderer.setGraphics(false, into: buffer)
        guard !wrapped else { return }
        if end < grid.columns { TerminalControl.eraseToEndOfLine.write(to: buffer) }
        if newline { buffer.append("\r\n") }
    }

    mutating func store(_ line: OutputBuffer) {
        line.withUnsafeBytes { store($0) }
    }

    /// Stores one rendered line.
    mutating func store(_ line: UnsafeRawBufferPointer) {
        let length = line.count
        let record = length + 4
        if usedBytes + record > capacity && capacity < limit && canGrow { grow(toHold: usedBytes + record) }
        guard record <= capacity, let storage else {
            droppedLines += 1
            return
        }
        while usedBytes + record > capacity { dropOldest(storage) }
        var tail = head + usedBytes
        if tail >= capacity { tail -= capacity }
        if tail + 4 <= capacity {
            UnsafeMutableRawPointer(storage + tail).storeBytes(of: UInt32(length).littleEndian, as: UInt32.self)
            tail = tail + 4 == capacity ? 0 : tail + 4
        } else {
            withUnsafeBytes(of: UInt32(length).littleEndian) { header in
                for byte in header {
                    storage[tail] = byte
                    tail = tail + 1 == capacity ? 0 : tail + 1
                }
            }
        }
        if let source = line.baseAddress?.assumingMemoryBound(to: UInt8.self) {
            let first = min(length, capacity - tail)
            (storage + tail).update(from: source, count: first)
            if first < length { storage.update(from: source + first, count: length - first) }
        }
        usedBytes += record
        lineCount += 1
    }

    /// Stores `count` lines at once, laid out as the ring keeps them (each a 4-byte
    /// little-endian length, then the line), none longer than `longest` bytes: the lines
    /// storing them one at a time keeps (the longest run of the newest that fits) and counts
    /// as dropped, in one copy. A locked flood of short lines stores one for every few bytes
    /// it reads. One at a time still where the ring would grow, or drop a line too long for
    /// it alone.
    mutating func store(records: UnsafeRawBufferPointer, count: Int, longest: Int) {
        let size = records.count
        guard size > 0 else { return }
        // The rows are plain text (HeldTextRows): none begins with a wide character.
        endPendingRow(nextBeginsWide: false)
        guard let storage, usedBytes + size <= capacity || !(capacity < limit && canGrow) && longest + 4 <= capacity
        else {
            var offset = 0
            while offset < size {
                let length = Self.recordLength(in: records, at: offset)
                store(UnsafeRawBufferPointer(rebasing: records[offset + 4..<offset + 4 + length]))
                offset += 4 + length
            }
            return
        }
        var first = 0
        var skipped = 0
        if size > capacity {
            // The newest lines fill the ring alone: none before them stays.
            while size - first > capacity {
                first += 4 + Self.recordLength(in: records, at: first)
                skipped += 1
            }
            droppedLines += lineCount + skipped
            (head, usedBytes, lineCount) = (0, 0, 0)
        } else {
            while usedBytes + size > capacity { dropOldest(storage) }
        }
        var tail = head + usedBytes
        if tail >= capacity { tail -= capacity }
        let kept = size - first
        let source = records.baseAddress!.assumingMemoryBound(to: UInt8.self) + first
        let part = min(kept, capacity - tail)
        (storage + tail).update(from: source, count: part)
        if part < kept { storage.update(from: source + part, count: kept - part) }
        usedBytes += kept
        lineCount += count - skipped
    }

    /// The length of the record at `offset` of `records`, from its 4-byte header.
    private static func recordLength(in records: UnsafeRawBufferPointer, at offset: Int) -> Int {
        Int(UInt32(littleEndian: records.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    /// A ring of at least `needed` bytes where it can have one (doubling, at most `limit`),
    /// its lines moved to its start in order. On failure it stays as it is, for good:
    /// trying again for every line would cost a failing allocation each.
    private mutating func grow(toHold needed: Int) {
        let size = min(limit, max(needed, capacity * 2, Self.initialCapacity))
        guard let raw = allocate(size) else {
            canGrow = false
            return
        }
        let grown = raw.bindMemory(to: UInt8.self, capacity: size)
        if let storage {
            let first = min(usedBytes, capacity - head)
            grown.update(from: storage + head, count: first)
            if first < usedBytes { (grown + first).update(from: storage, count: usedBytes - first) }
            free(storage)
        }
        storage = grown
        capacity = size
        head = 0
    }

    private mutating func dropOldest(_ storage: UnsafeMutablePointer<UInt8>) {
        let length = readLength(storage, at: head)
        head += 4 + length
        if head >= capacity { head -= capacity }
        usedBytes -= 4 + length
        lineCount -= 1
        droppedLines += 1
    }

    private func readLength(_ storage: UnsafeMutablePointer<UInt8>, at offset: Int) -> Int {
        if offset + 4 <= capacity {
            return Int(UInt32(littleEndian: UnsafeRawPointer(storage + offset).loadUnaligned(as: UInt32.self)))
        }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(storage[(offset + index) % capacity]) << (8 * index) }
        return Int(value)
    }

    /// The held lines in order, each as its index, the ring, its offset there and its length.
    private func forEachLine(
        _ body: (_ index: Int, _ storage: UnsafeMutablePointer<UInt8>, _ offset: Int, _ length: Int) -> Void
    ) {
        guard let storage else { return }
        var offset = head
        for index in 0..<lineCount {
            let length = readLength(storage, at: offset)
            offset = (offset + 4) % capacity
            body(index, storage, offset, length)
            offset = (offset + length) % capacity
        }
    }

    /// How many lines at the end are the first rows of a line that goes on below them
    /// (they wrapped: nothing ends them, not even CR LF): what a line put into the history
    /// after the held ones would split.
    private var trailingWrappedLines: Int {
        var count = 0
        forEachLine { _, storage, offset, length in
            let last = (offset + length - 1) % capacity
            count = length > 0 && storage[last] == 0x0A ? 0 : count + 1
        }
        return count
    }

    /// Appends every held line, oldest first, with what `beforeLastLine` appends between
    /// them: after the last line, or before the rows of the one the screen goes on with
    /// (when the last held rows wrapped), so that it splits none. `drain`, if given, takes
    /// the buffer's bytes whenever it holds `drainSize` and it is then emptied: however
    /// much is held, writing it needs no more memory than that.
    func write(
        into buffer: OutputBuffer, drain: ((OutputBuffer) -> Void)? = nil,
        beforeLastLine: (OutputBuffer) -> Void = { _ in }
    ) {
        let insertAt = lineCount - trailingWrappedLines
        forEachLine { index, storage, offset, length in
            if index == insertAt { beforeLastLine(buffer) }
            let first = min(length, capacity - offset)
            buffer.append(UnsafeRawBufferPointer(start: storage + offset, count: first))
            if first < length { buffer.append(UnsafeRawBufferPointer(start: storage, count: length - first)) }
            if let drain, buffer.count >= Self.drainSize {
                drain(buffer)
                buffer.removeAll()
            }
        }
        if insertAt == lineCount { beforeLastLine(buffer) }
    }
}

extension ScrollbackHold {
    /// Where rows are rendered before the ring takes them.
    fileprivate final class Rendering {
        let line = OutputBuffer(capacity: 1024)
        /// The last row rendered, when how it ends waits for the next row
        /// (`renderWaitingRows`): as it is written before a row that does not begin with a
        /// wide character, and before one that does.
        let pendingRow = OutputBuffer(capacity: 256)
        let pendingRowBeforeWide = OutputBuffer(capacity: 256)
        var hasPendingRow = false
    }
}

import PTYKit

// The screen model must not depend on how the stream is cut into reads, and its repaint
// must be exact: fed whole (holding the scrollback or not), one byte at a time, or in
// fuzzer-chosen chunks, the same state (cells of both screens, cursor, pen, margins,
// modes, tab stops, saved cursors, the character REP repeats); the repaint, fed to a fresh
// model of the same size, and to one left in a messy state, gives that state again (but
// for the input modes, which the repaint leaves to ScreenModes' on and off bytes); the
// unlock bytes with held scrollback too. The fast paths against their plain twin: a model
// with none (`fastPaths: .none`, every byte through the parser and the state) fed whole and
// in the same chunks gives the same cells, cursor, modes, titles, snapshot and repaint
// bytes, and holding the scrollback, the same held lines and repaint byte for byte. After every feed, every style, cluster and hyperlink id the state holds names an
// entry of its table. And no crash or trap.
//
// Input: a byte for the rows, one for the columns, one byte N (its low 4 bits: the number
// of chunk lengths, up to 15; bit 4: table pressure), N chunk lengths, then the stream.
// Without pressure, screens of 1-12 rows by 1-40 columns and the stream as it is. Under
// pressure (the style, cluster and hyperlink tables filled past their limits), screens of
// 1-60 rows by 1-200 columns, chunks 64 times as long, and the stream expanded: 0xFE,
// a 16-bit count (high byte first), a length and that many bytes of template stand for
// the template written count times, in it 0xFD for the repetition's number as `HIGH;LOW`
// (for colours `38;2;R;HIGH;LOW` and URIs) and 0xFC for a letter with a combining mark
// distinct for each number (a new character cluster).

private let mess: [UInt8] = Array(
    "\u{1b}[?1049h\u{1b}[2;3r\u{1b}[?6h\u{1b}[4h\u{1b}(0\u{1b})0\u{0e}\u{1b}[1;5;7;41mjunk\u{1b}[?7l\u{1b}[3g\u{1b}[?69h"
        .utf8)

/// What an expanded stream stops growing at.
private let expandedLimit = 1 << 16

private func feed(_ model: ScreenModel, _ bytes: ArraySlice<UInt8>, checked: Bool = true) {
    Array(bytes).withUnsafeBytes { model.feed($0) }
    if checked { requireValidTables(model) }
}

private func requireValidTables(_ model: ScreenModel) {
    if let broken = model.firstBrokenTableReference() { require(false, "an id names no table entry: \(broken)") }
}

/// The fast paths (`model`) and the plain feed (`plain`) fed the same give the same screen:
/// cells, cursor, modes, titles, snapshot, and the repaint byte for byte.
private func requireSame(_ model: ScreenModel, _ plain: ScreenModel, _ how: String) {
    require(model.snapshot() == plain.snapshot(), "the fast paths and the plain feed, \(how), give other states")
    for row in 0..<model.rows {
        require(model.text(row: row) == plain.text(row: row), "the fast paths and the plain feed, \(how): row \(row)")
    }
    require(
        model.cursor == plain.cursor && model.modes == plain.modes && model.isAlternateScreen == plain.isAlternateScreen
            && model.title == plain.title && model.rowsBeforeStart == plain.rowsBeforeStart,
        "the fast paths and the plain feed, \(how), give another cursor, modes or title")
    let (repaint, plainRepaint) = (OutputBuffer(), OutputBuffer())
    model.appendRepaint(to: repaint)
    plain.appendRepaint(to: plainRepaint)
    require(repaint.bytes == plainRepaint.bytes, "the fast paths and the plain feed, \(how), repaint differently")
}

/// The stream with its repetitions written out (see the header).
private func expanded(_ stream: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var index = 0
    while index < stream.count && result.count < expandedLimit {
        guard stream[index] == 0xFE, index + 3 < stream.count else {
            result.append(stream[index])
            index += 1
            continue
        }
        let count = Int(stream[index + 1]) << 8 | Int(stream[index + 2])
        let length = Int(stream[index + 3])
        let template = stream[(index + 4)..<min(index + 4 + length, stream.count)]
        index += 4 + length
        for number in 0..<count where result.count < expandedLimit {
            for byte in template {
                switch byte {
                case 0xFD: result += Array("\(number >> 8 & 0xFF);\(number & 0xFF)".utf8)
                case 0xFC: result += cluster(number)
                default: result.append(byte)
                }
            }
        }
    }
    return result
}

/// A letter and a combining mark (U+0300-U+036F), distinct for 2912 numbers.
private func cluster(_ number: Int) -> [UInt8] {
    let mark = Unicode.Scalar(0x300 + UInt32(number / 26 % 112))!
    return [UInt8(ascii: "a") + UInt8(number % 26)] + Array(String(mark).utf8)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let (rowsByte, columnsByte, mode) = (input.byte(), input.byte(), input.byte())
    let pressure = mode & 0x10 != 0
    let rows = Int(rowsByte) % (pressure ? 60 : 12) + 1
    let columns = Int(columnsByte) % (pressure ? 200 : 40) + 1
    let cuts = input.take(Int(mode & 0x0F))
    let stream = pressure ? expanded(input.rest()) : input.rest()

    let whole = ScreenModel(rows: rows, columns: columns)
    whole.startHoldingScrollback(limit: 1 << 16)
    feed(whole, stream[...])
    let expected = whole.snapshot()
    let repainted = expected.withoutInputModes

    // Not holding the scrollback, text that scrolls away is skipped (ScreenStateScrollAhead).
    let unheld = ScreenModel(rows: rows, columns: columns)
    feed(unheld, stream[...])
    require(unheld.snapshot() == expected, "whole without holding the scrollback gives another state")

    // Checked after every byte while that stays cheap (the check looks at every cell, and
    // at every style of a table of up to some 2048).
    let byByte = ScreenModel(rows: rows, columns: columns)
    let checkEveryByte = stream.count * (rows * columns + 2048) <= 1 << 22
    for index in stream.indices { feed(byByte, stream[index...index], checked: checkEveryByte) }
    requireValidTables(byByte)
    require(byByte.snapshot() == expected, "byte by byte gives another state than whole")

    let plainWhole = ScreenModel(rows: rows, columns: columns, fastPaths: .none)
    feed(plainWhole, stream[...])
    requireSame(unheld, plainWhole, "fed whole")

    let chunked = ScreenModel(rows: rows, columns: columns)
    let plainChunked = ScreenModel(rows: rows, columns: columns, fastPaths: .none)
    // Holding the scrollback, the rows that skipped text scrolls away are made from its
    // bytes (HeldTextRows): the held lines must be the plain feed's, byte for byte.
    let heldChunked = ScreenModel(rows: rows, columns: columns)
    let plainHeld = ScreenModel(rows: rows, columns: columns, fastPaths: .none)
    for model in [heldChunked, plainHeld] { model.startHoldingScrollback(limit: 1 << 16) }
    var offset = 0
    for length in chunkLengths(total: stream.count, choices: cuts, scale: pressure ? 64 : 1) {
        feed(chunked, stream[offset..<(offset + length)])
        feed(plainChunked, stream[offset..<(offset + length)], checked: false)
        feed(heldChunked, stream[offset..<(offset + length)], checked: false)
        feed(plainHeld, stream[offset..<(offset + length)], checked: false)
        offset += length
        // What a relay reads after every read, which the kept text is not fed for.
        require(
            chunked.isAtBoundary == plainChunked.isAtBoundary && chunked.modes == plainChunked.modes
                && chunked.openSequence == plainChunked.openSequence && chunked.title == plainChunked.title
                && chunked.titleSets == plainChunked.titleSets && chunked.queryCount == plainChunked.queryCount,
            "the fast paths and the plain feed differ after a chunk, in what a relay reads")
    }
    require(chunked.snapshot() == expected, "chunks give another state than whole")
    requireSame(chunked, plainChunked, "fed in chunks")

    let repaint = OutputBuffer()
    whole.appendRepaint(to: repaint)
    let fresh = ScreenModel(rows: rows, columns: columns)
    repaint.withUnsafeBytes { fresh.feed($0) }
    requireValidTables(fresh)
    require(fresh.snapshot() == repainted, "the repaint fed to a fresh model gives another state")

    let messy = ScreenModel(rows: rows, columns: columns)
    feed(messy, mess[...])
    repaint.withUnsafeBytes { messy.feed($0) }
    requireValidTables(messy)
    require(messy.snapshot() == repainted, "the repaint fed to a messy model gives another state")

    // The unlock's terminal got every byte before the hold began (none: `whole` held from
    // its start), so it is not messed up: the unlock writes tab stops only where they
    // changed while held.
    let (unlock, heldUnlock, plainUnlock) = (OutputBuffer(), OutputBuffer(), OutputBuffer())
    whole.appendHeldScrollbackAndRepaint(to: unlock)
    heldChunked.appendHeldScrollbackAndRepaint(to: heldUnlock)
    plainHeld.appendHeldScrollbackAndRepaint(to: plainUnlock)
    require(
        unlock.bytes == plainUnlock.bytes && heldUnlock.bytes == plainUnlock.bytes,
        "the fast paths and the plain feed, holding the scrollback, give other held lines or repaint")
    let terminal = ScreenModel(rows: rows, columns: columns)
    unlock.withUnsafeBytes { terminal.feed($0) }
    requireValidTables(terminal)
    require(terminal.snapshot() == repainted, "the held scrollback and repaint give another state")
    return 0
}

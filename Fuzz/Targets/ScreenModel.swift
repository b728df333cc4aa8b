import PTYKit

// The screen model must not depend on how the stream is cut into reads, and its repaint
// must be exact: fed whole (holding the scrollback or not), one byte at a time, or in
// fuzzer-chosen chunks, the same state (cells of both screens, cursor, pen, margins,
// modes, tab stops, saved cursors, the character REP repeats); the repaint, fed to a fresh
// model of the same size, and to one left in a messy state, gives that state again (but
// for the input modes, which the repaint leaves to ScreenModes' on and off bytes); the
// unlock bytes with held scrollback too. And no crash or trap.
//
// Input: a byte for the rows (1-12), one for the columns (1-40), one byte N (number of
// chunk lengths, up to 15), N chunk lengths, then the stream.

private let mess: [UInt8] = Array(
    "\u{1b}[?1049h\u{1b}[2;3r\u{1b}[?6h\u{1b}[4h\u{1b}(0\u{1b})0\u{0e}\u{1b}[1;5;7;41mjunk\u{1b}[?7l\u{1b}[3g\u{1b}[?69h"
        .utf8)

private func feed(_ model: ScreenModel, _ bytes: ArraySlice<UInt8>) {
    Array(bytes).withUnsafeBytes { model.feed($0) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let rows = Int(input.byte() % 12) + 1
    let columns = Int(input.byte() % 40) + 1
    let cuts = input.take(Int(input.byte() & 0x0F))
    let stream = input.rest()

    let whole = ScreenModel(rows: rows, columns: columns)
    whole.startHoldingScrollback(limit: 1 << 16)
    feed(whole, stream[...])
    let expected = whole.snapshot()
    let repainted = expected.withoutInputModes

    // Not holding the scrollback, text that scrolls away is skipped (ScreenStateScrollAhead).
    let unheld = ScreenModel(rows: rows, columns: columns)
    feed(unheld, stream[...])
    require(unheld.snapshot() == expected, "whole without holding the scrollback gives another state")

    let byByte = ScreenModel(rows: rows, columns: columns)
    for index in stream.indices { feed(byByte, stream[index...index]) }
    require(byByte.snapshot() == expected, "byte by byte gives another state than whole")

    let chunked = ScreenModel(rows: rows, columns: columns)
    var offset = 0
    for length in chunkLengths(total: stream.count, choices: cuts) {
        feed(chunked, stream[offset..<(offset + length)])
        offset += length
    }
    require(chunked.snapshot() == expected, "chunks give another state than whole")

    let repaint = OutputBuffer()
    whole.appendRepaint(to: repaint)
    let fresh = ScreenModel(rows: rows, columns: columns)
    repaint.withUnsafeBytes { fresh.feed($0) }
    require(fresh.snapshot() == repainted, "the repaint fed to a fresh model gives another state")

    let messy = ScreenModel(rows: rows, columns: columns)
    feed(messy, mess[...])
    repaint.withUnsafeBytes { messy.feed($0) }
    require(messy.snapshot() == repainted, "the repaint fed to a messy model gives another state")

    let unlock = OutputBuffer()
    whole.appendHeldScrollbackAndRepaint(to: unlock)
    let terminal = ScreenModel(rows: rows, columns: columns)
    feed(terminal, mess[...])
    unlock.withUnsafeBytes { terminal.feed($0) }
    require(terminal.snapshot() == repainted, "the held scrollback and repaint give another state")
    return 0
}

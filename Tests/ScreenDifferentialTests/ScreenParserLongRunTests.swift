import PTYKit
import ScreenTestSupport
import Testing

/// The parser's text fast path (`ScreenParserFastPathTests`) over long runs: a stop at every
/// offset of the 16- and 32-byte search steps and of the widest stores, against the same
/// bytes fed one at a time.
@Suite("ScreenModel parser fast paths, long runs")
struct ScreenParserLongRunTests {
    @Test(arguments: [0x00, 0x0A, 0x1B, 0x1F, 0x7F, 0x80, 0xC3, 0xFF] as [UInt8])
    func aLongRunOfTextEndsAtTheByteThatStopsIt(_ stop: UInt8) {
        // Runs are searched 16 bytes a step, past 16 bytes 32 a step where the CPU has
        // AVX2, and stored 32 cells or more at once: the stop at every offset of each.
        for offset in 0..<100 {
            let text = (0..<120).map { UInt8(ascii: "a") &+ UInt8($0 % 26) }
            var input = Array(text[..<offset]) + [stop] + Array(text[offset...])
            input += bytes(#"\e[?25l"#)
            let whole = ScreenModel(rows: 3, columns: 200)
            whole.feed(input)
            let byByte = ScreenModel(rows: 3, columns: 200)
            for byte in input { byByte.feed([byte]) }
            let same = whole.snapshot() == byByte.snapshot()  // not printed whole when they differ
            #expect(same, "stop \(stop) at \(offset): \(whole.lines[0]) vs \(byByte.lines[0])")
            #expect(!whole.modes.cursorVisible, "stop \(stop) at \(offset)")
            if stop == 0x00 || stop == 0x7F {
                // Not shown: the row holds the text alone.
                #expect(whole.text(row: 0).hasPrefix(String(decoding: text, as: UTF8.self)))
            }
        }
    }
}

import Testing

@testable import PTYKit

/// What a terminal that cannot be driven (TERM=dumb) gets of rendered output: the text,
/// tabs, CR and LF, and no escape sequence, however the bytes are split.
@Suite struct PlainTextFilterTests {
    /// `input` through one filter in pieces cut at `cuts`.
    func filtered(_ input: [UInt8], cuts: [Int] = []) -> String {
        var filter = PlainTextFilter()
        let buffer = OutputBuffer()
        var start = 0
        for end in cuts + [input.count] {
            input[start..<end].withUnsafeBytes { filter.append($0, to: buffer) }
            start = end
        }
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    @Test func everySequenceGoesAndTheTextStaysWhereverTheBytesAreSplit() {
        let input = Array(
            ("\u{1b}[1;38;2;1;2;3mbold\u{1b}[m\tcafé\u{1b}]8;;https://x.invalid\u{1b}\\link\u{1b}]8;;\u{07}"
                + "\u{1b}(0qq\u{1b}(B\u{1b}[K\u{0e}\u{07}\u{1b}7end\u{1b}]2;title\u{1b}[Anext\r\n").utf8)
        let expected = "bold\tcafélinkqqendnext\r\n"
        #expect(filtered(input) == expected)
        for cut in 1..<input.count {
            #expect(filtered(input, cuts: [cut]) == expected, "cut at \(cut)")
        }
    }

    @Test func heldLinesComeOutAsTextInDrainedPieces() {
        let model = ScreenModel(rows: 4, columns: 20)
        model.startHoldingScrollback(limit: 1 << 30)
        for number in 0..<10_000 { model.feed("\u{1b}[31mheld \(number)\u{1b}[m\r\n") }
        let buffer = OutputBuffer()
        var drained: [UInt8] = []
        var largest = 0
        model.appendHeldScrollbackAsText(
            to: buffer,
            drain: { buffer in
                largest = max(largest, buffer.count)
                drained += buffer.bytes
            })
        drained += buffer.bytes
        let lines = String(decoding: drained, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(lines.count == 9_998)
        #expect(lines.first == "held 0" && lines[9_996] == "held 9996" && lines.last == "")
        #expect(!drained.contains(0x1B))
        #expect(largest < ScrollbackHold.drainSize + 100)
        #expect(model.heldScrollback.lines == 0)
    }
}

import ScreenTestSupport
import Testing

@testable import PTYKit

/// The scroll-ahead while the scrollback is held (HeldTextRows): the rows that skipped text
/// scrolled away are made from the bytes for the hold, and the hold is byte for byte the one
/// the plain feed (`fastPaths: .none`) renders from its grid.
@Suite("Screen scroll-ahead while the scrollback is held")
struct ScreenHeldScrollAheadTests {
    /// Plain text as a command prints it: lines of 0 to 2.5 screen widths (some exactly one
    /// or two), ended by CR LF, a bare LF (raw mode) or a CR that the next line overwrites.
    static func plainText(count: Int, columns: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var text: [UInt8] = []
        while text.count < count {
            let pick = random.next()
            let length: Int
            switch pick % 8 {
            case 0: length = columns
            case 1: length = 2 * columns
            case 2: length = columns - 1
            default: length = Int((pick >> 8) % UInt64(columns * 5 / 2 + 1))
            }
            text += (0..<length).map { _ in UInt8(32 + random.next() % 95) }
            switch (pick >> 40) % 10 {
            case 0: text += [0x0A]
            case 1: text += [0x0D]
            case 2: text += [0x0D, 0x0D, 0x0A, 0x0A]
            default: text += [0x0D, 0x0A]
            }
        }
        return text
    }

    /// What was on the screen when the lock came: plain text, or with colour and a wide
    /// character (then the rows from the cursor down are not made from the text).
    static let before: [(name: String, input: [UInt8])] = [
        ("nothing", []),
        ("a prompt", bytes(#"line one\r\nline two\r\n$ make"#)),
        ("colour under the cursor", bytes(#"\e[2;1H\e[31mred\e[m\e[1;1Hfirst"#)),
        ("a wide character", bytes("\u{1B}[3;4H\u{4E2D}\u{1B}[H")),
        (
            "a wrapped row under the cursor",
            bytes(#"\e[4;1H"#) + Array(repeating: 0x41, count: 100) + bytes(#"\e[2;5H"#)
        ),
    ]

    @Test(arguments: [(24, 80), (5, 10), (60, 200), (3, 1)], [4096, 1000, 97])
    func theHoldIsThePlainFeeds(size: (rows: Int, columns: Int), read: Int) {
        for (index, screen) in Self.before.enumerated() {
            for limit in [1 << 20, 700] {
                let fast = ScreenModel(rows: size.rows, columns: size.columns)
                let plain = ScreenModel(rows: size.rows, columns: size.columns, fastPaths: .none)
                let what = "\(size.rows)x\(size.columns), reads of \(read), \(screen.name), hold limit \(limit)"
                let text = Self.plainText(count: 60_000, columns: size.columns, seed: UInt64(index * 31 + read))
                for model in [fast, plain] {
                    model.feed(screen.input)
                    model.startHoldingScrollback(limit: limit)
                }
                var offset = 0
                var reads = 0
                while offset < text.count {
                    let end = min(offset + read, text.count)
                    for model in [fast, plain] { model.feed(text[offset..<end]) }
                    offset = end
                    reads += 1
                    if reads % 8 == 0 {
                        #expect(fast.heldScrollback == plain.heldScrollback, "\(what): after \(offset) bytes")
                    }
                }
                let (a, b) = (OutputBuffer(), OutputBuffer())
                fast.appendHeldScrollbackAndRepaint(to: a)
                plain.appendHeldScrollbackAndRepaint(to: b)
                #expect(a.bytes == b.bytes, "\(what): the held lines and the repaint")
            }
        }
    }

    /// Short lines as `yes` and `seq` print them through a pty, and lines of 0 to 2.5 rows
    /// (some exactly one or two), which HeldTextRows copies whole into the hold's batch; a
    /// bare LF, a lone CR and newline mode between them: the hold and the unlock's bytes
    /// are the plain feed's, the text cut in two reads at every byte, and fed in reads of
    /// one row and of every size up to 64.
    @Test(arguments: [(5, 10), (3, 1), (24, 80)])
    func shortLinesAreThePlainFeedsAtEverySplit(size: (rows: Int, columns: Int)) {
        let columns = size.columns
        var text: [UInt8] = []
        for number in 0..<60 {
            let length = [0, 1, columns - 1, columns, columns + 1, 2 * columns, 5 * columns / 2][number % 7]
            text += bytes("\(number)") + Array(repeating: UInt8(ascii: "y"), count: length) + bytes(#"\r\n"#)
            if number == 20 { text += bytes(#"raw\nline\r\n"#) }
            if number == 30 { text += bytes(#"over\rwritten\r\n"#) }
            if number == 40 { text += bytes(#"\e[20hnewline mode\n\e[20l"#) }
        }
        text += bytes((0..<150).map { #"y\r\n\#($0)\r\n"# }.joined())
        let notice = Array("N earlier lines".utf8)
        func unlock(_ reads: [ArraySlice<UInt8>], limit: Int, fastPaths: ScreenModel.FastPaths) -> [UInt8] {
            let model = ScreenModel(rows: size.rows, columns: size.columns, fastPaths: fastPaths)
            model.feed(bytes(#"$ yes\r\n"#))
            model.startHoldingScrollback(limit: limit)
            for read in reads { model.feed(read) }
            let buffer = OutputBuffer()
            model.appendHeldScrollbackAndRepaint(to: buffer, notice: notice)
            return buffer.bytes
        }
        for limit in [1 << 20, 300] {
            let expected = unlock([text[...]], limit: limit, fastPaths: .none)
            for split in 0...text.count {
                let reads = [text[..<split], text[split...]]
                #expect(unlock(reads, limit: limit, fastPaths: .all) == expected, "cut at \(split), limit \(limit)")
            }
            for read in Array(1...64) + [columns] {
                let reads = stride(from: 0, to: text.count, by: read).map { text[$0..<min($0 + read, text.count)] }
                #expect(unlock(reads, limit: limit, fastPaths: .all) == expected, "reads of \(read), limit \(limit)")
            }
        }
    }

    /// A locked flood takes the scroll-ahead (text is kept back between reads), so that the
    /// comparison above compares something; and not where the pen is coloured.
    @Test func aLockedFloodIsWalked() {
        let log = bytes((1...3000).map { "build step \($0) of 3000: ok\r\n" }.joined())
        for (pen, walked) in [("", true), (#"\e[1m"#, false)] {
            let model = ScreenModel(rows: 24, columns: 80)
            model.feed(bytes(pen))
            model.startHoldingScrollback(limit: 8 << 20)
            var kept = 0
            for offset in stride(from: 0, to: log.count, by: 4096) {
                model.feed(log[offset..<min(offset + 4096, log.count)])
                if model.keptTextCount > 0 { kept += 1 }
            }
            #expect((kept > 10) == walked, "pen \(pen)")
            #expect(model.heldScrollback.lines == 3000 - 23, "pen \(pen)")
        }
    }
}

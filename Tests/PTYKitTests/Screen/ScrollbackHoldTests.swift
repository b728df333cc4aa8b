import Glibc
import Testing

@testable import PTYKit

/// The held scrollback's ring: it grows as lines arrive, never past its limit; a failed
/// allocation only makes it full; what it writes never needs memory of its size; and the
/// notice of what did not fit splits no line.
@Suite("Scrollback hold")
struct ScrollbackHoldTests {
    private func line(_ number: Int) -> OutputBuffer {
        let line = OutputBuffer()
        line.append(contentsOf: Array("line \(number) \(String(repeating: "x", count: 60))\r\n".utf8))
        return line
    }

    private func held(_ hold: ScrollbackHold) -> [String] {
        let buffer = OutputBuffer()
        hold.write(into: buffer)
        return String(decoding: buffer.bytes, as: UTF8.self).split(separator: "\r\n").map(String.init)
    }

    @Test func itGrowsAsLinesArriveAndNeverPastItsLimit() {
        var hold = ScrollbackHold(limit: 1 << 30)
        defer { hold.deallocate() }
        #expect(hold.capacity == 0)
        hold.store(line(0))
        #expect(hold.capacity == ScrollbackHold.initialCapacity)
        for number in 1..<2000 { hold.store(line(number)) }
        #expect(hold.capacity == 4 * ScrollbackHold.initialCapacity)
        #expect(hold.lineCount == 2000 && hold.droppedLines == 0)
        #expect(held(hold) == (0..<2000).map { "line \($0) \(String(repeating: "x", count: 60))" })

        var small = ScrollbackHold(limit: 100_000)
        defer { small.deallocate() }
        for number in 0..<5000 { small.store(line(number)) }
        #expect(small.capacity == 100_000 && small.usedBytes <= 100_000)
        #expect(small.lineCount + small.droppedLines == 5000)
        #expect(held(small).last == "line 4999 \(String(repeating: "x", count: 60))")
    }

    /// Lines moved to the start of a grown ring stay in order when they had wrapped
    /// around its end.
    @Test func growingKeepsTheOrderOfLinesThatWrappedAroundTheRing() {
        var hold = ScrollbackHold(limit: 1 << 20)
        defer { hold.deallocate() }
        for number in 0..<1000 { hold.store(line(number)) }
        #expect(hold.capacity == 2 * ScrollbackHold.initialCapacity)
        #expect(held(hold) == (0..<1000).map { "line \($0) \(String(repeating: "x", count: 60))" })
    }

    /// A ring that cannot grow is full: the oldest lines go and are counted, as past the
    /// limit; one that never got memory holds nothing and counts every line.
    @Test func aFailedAllocationOnlyMakesItFull() {
        let most = ScrollbackHold.initialCapacity
        var hold = ScrollbackHold(limit: 1 << 30, allocate: { $0 <= most ? malloc($0) : nil })
        defer { hold.deallocate() }
        for number in 0..<5000 { hold.store(line(number)) }
        #expect(hold.capacity == most && !hold.canGrow)
        #expect(hold.lineCount > 0 && hold.droppedLines > 0 && hold.lineCount + hold.droppedLines == 5000)
        let lines = held(hold)
        #expect(lines.count == hold.lineCount)
        #expect(lines == (5000 - hold.lineCount..<5000).map { "line \($0) \(String(repeating: "x", count: 60))" })

        var none = ScrollbackHold(limit: 1 << 30, allocate: { _ in nil })
        for number in 0..<10 { none.store(line(number)) }
        #expect(none.capacity == 0 && none.lineCount == 0 && none.droppedLines == 10)
        #expect(held(none).isEmpty)
    }

    /// Lines stored a batch at a time (as HeldTextRows stores the rows it makes) leave the
    /// ring as storing them one at a time does: the same lines, bytes and count of dropped
    /// ones, while it grows, once full, with lines too long for it alone, and where an
    /// allocation fails.
    @Test(arguments: [0, 9, 40, 700, 5000, 70_000, 1 << 20])
    func storingABatchKeepsWhatOneAtATimeKeeps(limit: Int) {
        var random = SplitMix64(seed: UInt64(limit))
        for failsPast in [Int.max, ScrollbackHold.initialCapacity] {
            let allocate: (Int) -> UnsafeMutableRawPointer? = { $0 <= failsPast ? malloc($0) : nil }
            var single = ScrollbackHold(limit: limit, allocate: allocate)
            var batched = ScrollbackHold(limit: limit, allocate: allocate)
            defer {
                single.deallocate()
                batched.deallocate()
            }
            for _ in 0..<400 {
                let records = OutputBuffer()
                let count = Int(random.next() % 40) + 1
                var longest = 0
                for _ in 0..<count {
                    let length = Int(random.next() % (random.next() % 4 == 0 ? 90 : 8))
                    let line = (0..<length).map { _ in UInt8(33 + random.next() % 90) }
                    withUnsafeBytes(of: UInt32(length).littleEndian) { records.append($0) }
                    records.append(contentsOf: line)
                    longest = max(longest, length)
                    line.withUnsafeBytes { single.store($0) }
                }
                records.withUnsafeBytes { batched.store(records: $0, count: count, longest: longest) }
                #expect(batched.lineCount == single.lineCount && batched.droppedLines == single.droppedLines)
                #expect(batched.usedBytes == single.usedBytes && batched.capacity == single.capacity)
            }
            let (a, b) = (OutputBuffer(), OutputBuffer())
            single.write(into: a)
            batched.write(into: b)
            #expect(a.bytes == b.bytes, "limit \(limit), allocations fail past \(failsPast)")
        }
    }

    /// Every line a model holds, written with a drain: the same bytes, in pieces no larger
    /// than the drain size and a line.
    @Test func writingWithADrainNeedsNoMemoryOfTheHoldsSize() {
        let model = ScreenModel(rows: 24, columns: 80)
        model.startHoldingScrollback(limit: 1 << 30)
        for number in 0..<20_000 { model.feed("held line \(number)\r\n") }
        let whole = OutputBuffer()
        model.state.history.hold?.write(into: whole)
        #expect(whole.count > 4 * ScrollbackHold.drainSize)
        let pieces = OutputBuffer()
        var drained: [UInt8] = []
        var largest = 0
        model.state.history.hold?.write(
            into: pieces,
            drain: { buffer in
                largest = max(largest, buffer.count)
                drained += buffer.bytes
            })
        drained += pieces.bytes
        #expect(drained == whole.bytes)
        #expect(largest < ScrollbackHold.drainSize + 100)
    }

    // MARK: - A wide character that did not fit

    /// The held lines as text.
    private func heldText(_ model: ScreenModel) -> String {
        let buffer = OutputBuffer()
        model.state.history.hold?.write(into: buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// `47l` and a wide character on 4 columns: the character does not fit after `47l` and
    /// wraps by itself, leaving the row's last cell blank, which the held line ends with EL
    /// for the character to wrap by itself again (RowRenderer.wrappedRow). Wherever a batch
    /// of rows waiting ends (after 64 rows, moved by every number of blank lines before; a
    /// hold small enough for batches of two rows and of one), the row after it is known.
    @Test(arguments: [1 << 20, 600, 300])
    func aWideCharacterThatDidNotFitWrapsByItselfAtEveryBatchEnd(limit: Int) {
        for lead in 0..<64 {
            let model = ScreenModel(rows: 5, columns: 4, fastPaths: .none)
            model.startHoldingScrollback(limit: limit)
            model.feed(Array(String(repeating: "\r\n", count: lead).utf8))
            for _ in 0..<70 { model.feed(Array("47l\u{5F1C}i\r\n".utf8)) }
            model.feed(Array("\r\n\r\n\r\n\r\n\r\n".utf8))
            let text = heldText(model)
            #expect(text.contains("47l\u{1b}[K\u{5F1C}i"), "\(lead) blank lines first, limit \(limit)")
            #expect(!text.contains("47l \u{5F1C}"), "\(lead) blank lines first, limit \(limit)")
        }
    }

    /// Such a row waiting for the row after it is rendered already: a collection that frees
    /// its colour (named by no cell left) meanwhile changes nothing (batches of one row).
    @Test func aRowWaitingForTheNextKeepsItsColourAcrossACollection() {
        let model = ScreenModel(rows: 5, columns: 4)
        model.startHoldingScrollback(limit: 300)
        model.feed(Array("\u{1b}[38;2;200;0;0m47l\u{1b}[m\u{5F1C}i\r\n\r\n\r\n\r\n".utf8))
        model.feed((0..<1100).map { #"\e[38;2;0;\#($0 >> 8);\#($0 & 0xFF)mx\b"# }.joined())
        model.feed(Array("\r\n".utf8))
        #expect(heldText(model) == "\u{1b}[0;38;2;200;0;0m47l\u{1b}[0m\u{1b}[K\u{5F1C}i\u{1b}[K\r\n")
    }

    /// The fuzz finding's stream (9 rows by 4 columns): rows with a wide character that did
    /// not fit, between blank lines that the fast paths scroll away from the bytes, storing
    /// the rows waiting first wherever a read begins. The unlock is the plain feed's, the
    /// text cut in two reads at every byte.
    @Test func aWideCharacterThatDidNotFitIsThePlainFeedsAtEverySplit() {
        let text = Array(String(repeating: "\r\n\n\n\n\n\n47l\u{5F1C}i\r\n\n\r\n\n", count: 24).utf8)
        func unlock(_ reads: [ArraySlice<UInt8>], fastPaths: ScreenModel.FastPaths) -> [UInt8] {
            let model = ScreenModel(rows: 9, columns: 4, fastPaths: fastPaths)
            model.startHoldingScrollback(limit: 1 << 16)
            for read in reads { model.feed(read) }
            let buffer = OutputBuffer()
            model.appendHeldScrollbackAndRepaint(to: buffer)
            return buffer.bytes
        }
        let expected = unlock([text[...]], fastPaths: .none)
        #expect(!String(decoding: expected, as: UTF8.self).contains("47l \u{5F1C}"))
        for split in 0...text.count {
            #expect(unlock([text[..<split], text[split...]], fastPaths: .all) == expected, "cut at \(split)")
        }
    }

    // MARK: - The notice

    /// Rows that leave wait unrendered, a batch at a time: the batches give the lines a
    /// row at a time gave, every line in its own colour, through collections of the style
    /// table while rows wait.
    @Test func batchesGiveEveryLineInItsOwnColour() {
        let count = 3000  // colours past the style table's 1024
        let model = ScreenModel(rows: 24, columns: 80)
        model.startHoldingScrollback(limit: 8 << 20)
        model.feed((0..<count).map { #"\e[38;2;\#($0 >> 8);\#($0 & 0xFF);7mline \#($0)\e[m\r\n"# }.joined())
        #expect(model.heldScrollback.lines == count - 23)
        let lines = held(model.state.history.hold!)
        #expect(lines.count == count - 23)
        for (number, line) in lines.enumerated() {
            #expect(line == "\u{1b}[0;38;2;\(number >> 8);\(number & 0xFF);7mline \(number)\u{1b}[0m\u{1b}[K")
        }
    }

    /// A collection frees what only the waiting rows' cells name, and gives the lowest
    /// freed id out first: the batch is rendered before it.
    @Test func aRowWaitingToBeRenderedKeepsItsColourAcrossACollection() {
        let model = ScreenModel(rows: 24, columns: 80)
        model.startHoldingScrollback(limit: 8 << 20)
        // A red line scrolls off and waits; its style is the first id a collection frees.
        model.feed(#"\e[38;2;200;0;0mwaiting\e[m"# + String(repeating: "\r\n", count: 24))
        // Colours past the table's 1024, each written over the last in one cell: the
        // collection frees the red, and the next colour takes its id.
        model.feed((0..<1100).map { #"\e[38;2;0;\#($0 >> 8);\#($0 & 0xFF)mx\b"# }.joined())
        #expect(held(model.state.history.hold!) == ["\u{1b}[0;38;2;200;0;0mwaiting\u{1b}[0m\u{1b}[K"])
    }

    /// Replays the unlock's bytes on a terminal (a model that holds what scrolls off, as a
    /// history would): its history as lines, and its screen.
    private func replay(_ unlock: [UInt8], rows: Int, columns: Int) -> (ScreenModel, [String]) {
        let terminal = ScreenModel(rows: rows, columns: columns)
        terminal.startHoldingScrollback(limit: 1 << 20)
        terminal.feed(unlock)
        let history = OutputBuffer()
        terminal.state.history.hold?.write(into: history)
        // Without the SGR resets and ELs: `ESC [`, what is not a letter, the letter.
        var text = ""
        var bytes = history.bytes[...]
        while let byte = bytes.popFirst() {
            guard byte == 0x1B else {
                text.unicodeScalars.append(Unicode.Scalar(byte))
                continue
            }
            while let next = bytes.popFirst(), !(0x40...0x7E).contains(next) || next == UInt8(ascii: "[") {}
        }
        return (terminal, text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init))
    }

    /// The last held row is the first half of a line the screen goes on with: the notice
    /// goes above that line, on a row of its own, and the line stays joined (issue 27,
    /// finding 8).
    @Test func theNoticeIsALineOfItsOwnAndSplitsNoHeldLine() {
        let model = ScreenModel(rows: 5, columns: 10)
        model.startHoldingScrollback(limit: 64)
        model.feed((0..<20).map { "l\($0)\r\n" }.joined() + "0123456789abcde\r\n1\r\n2\r\n3\r\n4")
        #expect(model.heldScrollback.dropped > 0)
        let expected = ScreenModel(rows: 5, columns: 10)
        expected.feed((0..<20).map { "l\($0)\r\n" }.joined() + "0123456789abcde\r\n1\r\n2\r\n3\r\n4")
        let unlock = OutputBuffer()
        model.appendHeldScrollbackAndRepaint(to: unlock, notice: Array("N earlier".utf8))
        let (terminal, history) = replay(unlock.bytes, rows: 5, columns: 10)
        // The first half is the history's last line, wrapped (no CR LF ends it): its line
        // goes on on the screen.
        #expect(history.suffix(3) == ["l19", "N earlier", "0123456789"])
        expectSameScreen(terminal, expected, "after the unlock")
    }

    /// Without a wrapped line at the end, the notice is the last line before the screen.
    @Test func theNoticeIsTheLineJustAboveTheScreen() {
        let model = ScreenModel(rows: 5, columns: 10)
        model.startHoldingScrollback(limit: 64)
        model.feed((0..<20).map { "l\($0)\r\n" }.joined() + "end")
        let unlock = OutputBuffer()
        model.appendHeldScrollbackAndRepaint(to: unlock, notice: Array("N earlier".utf8))
        let (_, history) = replay(unlock.bytes, rows: 5, columns: 10)
        #expect(history.suffix(3) == ["l15", "N earlier", ""])
    }
}

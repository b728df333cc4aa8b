import CScreenKernels
import Testing

@testable import PTYKit

/// The scroll-ahead's step over 64 bytes of short lines (FastPaths/ShortLineBlocks.swift)
/// against the same bytes walked one at a time: it takes every block of printable ASCII,
/// returns and line feeds on screens 64 columns wide or more, wrapping or not, and leaves
/// the cursor, and notes its last line feed, where the walk a byte at a time does.
@Suite("Screen scroll-ahead: a block of short lines in one step")
struct ShortLineBlockStepTests {
    /// Where plain text leaves the cursor, a byte at a time, as printASCII, carriageReturn
    /// and lineFeed move it without margins; and where the last line feed left it.
    struct ByteWalk: Equatable {
        var x: Int
        var pendingWrap: Bool
        var row = 0
        var lastFeed: ScreenState.PlainTextWalk?

        mutating func walk(_ block: [UInt8], columns: Int, newline: Bool) {
            for (offset, byte) in block.enumerated() {
                switch byte {
                case 0x0D:
                    x = 0
                    pendingWrap = false
                case 0x0A:
                    pendingWrap = false
                    if newline { x = 0 }
                    row += 1
                    lastFeed = ScreenState.PlainTextWalk(offset: offset + 1, x: x, pendingWrap: false, row: row)
                default:
                    if pendingWrap {
                        row += 1
                        x = 0
                        pendingWrap = false
                    }
                    if x == columns - 1 { pendingWrap = true } else { x += 1 }
                }
            }
        }

        static func == (a: Self, b: Self) -> Bool {
            a.x == b.x && a.pendingWrap == b.pendingWrap && a.row == b.row
                && a.lastFeed.map(Self.fields) ?? [] == b.lastFeed.map(Self.fields) ?? []
        }

        static func fields(_ walk: ScreenState.PlainTextWalk) -> [Int] {
            [walk.offset, walk.x, walk.pendingWrap ? 1 : 0, walk.row]
        }
    }

    /// The step over `block` from `start`: nil when it does not take it; else where it
    /// leaves the cursor and the note of the last line feed, with each form of the kernel
    /// the CPU has (they must agree).
    static func step(
        _ block: [UInt8], from start: ByteWalk, columns: Int, newline: Bool, stop: Int = .max
    ) -> ByteWalk? {
        let forms = [CellVectors.sse2, .avx2, .avx512].filter { $0 <= CellVectors.available }
        let results = forms.map { vectors -> ByteWalk? in
            var scratch = WalkScratch()
            defer { scratch.deallocate() }
            scratch.generation = 1
            var walk = ScreenState.PlainTextWalk(offset: 0, x: start.x, pendingWrap: start.pendingWrap, row: start.row)
            let ends = block.withUnsafeBufferPointer { vectors.lineEnds($0.baseAddress!) }
            guard walk.moveOver(block: 0, ends: ends, columns: columns, newline: newline, stop: stop, noting: scratch)
            else { return nil }
            let noted = scratch.latest(atOrBefore: walk.row)
            return ByteWalk(x: walk.x, pendingWrap: walk.pendingWrap, row: walk.row, lastFeed: noted)
        }
        #expect(results.dropFirst().allSatisfy { $0 == results[0] }, "every kernel form: \(forms)")
        return results[0]
    }

    /// 64 bytes: printable characters but where `ends` gives a return or a line feed.
    static func block(_ ends: (Int) -> UInt8?) -> [UInt8] {
        (0..<64).map { ends($0) ?? UInt8(0x21 + $0 % 94) }
    }

    /// A small generator that gives the same blocks on every run.
    struct Bits {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
    }

    /// Blocks of `seq` without returns (lines of 6 or 7 bytes that step right and wrap
    /// every dozen lines), from every column and with a wrap pending: every one is taken,
    /// the wrap inside it counted.
    @Test(arguments: [64, 80, 200])
    func aStaircaseWrapsInsideTheBlock(columns: Int) {
        let text = (100_000..<100_040).flatMap { Array("\($0)\n".utf8) }
        for offset in 0..<7 {
            let block = Array(text[offset..<offset + 64])
            for x in 0..<columns {
                for pendingWrap in x == columns - 1 ? [false, true] : [false] {
                    let start = ByteWalk(x: x, pendingWrap: pendingWrap)
                    var expected = start
                    expected.walk(block, columns: columns, newline: false)
                    #expect(
                        Self.step(block, from: start, columns: columns, newline: false) == expected,
                        "\(columns) columns, from \(x)\(pendingWrap ? " pending" : ""), offset \(offset)")
                }
            }
        }
    }

    /// Random blocks of characters, returns and line feeds, dense or sparse, from every
    /// column, with and without newline mode: every one is taken (but 64 characters from a
    /// wrap pending on a screen 64 wide) and leaves the cursor where the walk a byte at a
    /// time does.
    @Test(arguments: [64, 65, 80, 200])
    func everyBlockOfPlainTextIsTakenAsAByteAtATimeWalkGoes(columns: Int) {
        var bits = Bits(state: 0x9E37_79B9_7F4A_7C15 ^ UInt64(columns))
        // Each of 1 to 5 random words: a bit in 2, 4, ... 32.
        func sparse(_ words: UInt64) -> UInt64 { (0...words % 5).reduce(UInt64.max) { all, _ in all & bits.next() } }
        for _ in 0..<3000 {
            let feeds = sparse(bits.next())
            let returns = bits.next() & 1 == 0 ? 0 : sparse(bits.next()) & ~feeds
            let block = Self.block { feeds >> UInt64($0) & 1 != 0 ? 0x0A : returns >> UInt64($0) & 1 != 0 ? 0x0D : nil }
            let x = Int(bits.next() % UInt64(columns))
            let pendingWrap = x == columns - 1 && bits.next() & 1 != 0
            let start = ByteWalk(x: x, pendingWrap: pendingWrap)
            for newline in [false, true] {
                var expected = start
                expected.walk(block, columns: columns, newline: newline)
                let taken = Self.step(block, from: start, columns: columns, newline: newline)
                // From a wrap pending, 64 characters would reach the margin again.
                let wrapsTwice = columns == 64 && pendingWrap && feeds | returns == 0
                #expect(
                    taken == (wrapsTwice ? nil : expected),
                    "\(columns) columns from \(x)\(pendingWrap ? " pending" : ""): \(block)")
            }
        }
    }

    /// Characters that reach the margin and stay there line after line (`yes` without its
    /// returns once it has stepped to the margin), then wrap when two come together, or
    /// end the block with a wrap pending.
    @Test func charactersAtTheMarginStayThereUntilTwoComeTogether() {
        let yes = Array(String(repeating: "y\n", count: 32).utf8)
        var wrapsLate = yes
        wrapsLate[40] = 0x7A
        var pendsAtTheEnd = yes
        pendsAtTheEnd[63] = 0x7A
        for block in [yes, wrapsLate, pendsAtTheEnd] {
            for (x, pendingWrap) in [(79, false), (79, true), (76, false)] {
                let start = ByteWalk(x: x, pendingWrap: pendingWrap)
                var expected = start
                expected.walk(block, columns: 80, newline: false)
                #expect(
                    Self.step(block, from: start, columns: 80, newline: false) == expected,
                    "from \(x)\(pendingWrap ? " pending" : "")")
            }
        }
    }

    /// What is not taken: a block that is not plain text, a line feed or a wrap that would
    /// enter the row the walk stops at, 64 characters that would wrap and reach the
    /// margin again on a screen 64 wide.
    @Test func whatEndsTheSteps() {
        let lines = Self.block { $0 % 8 == 7 ? 0x0A : nil }
        let start = ByteWalk(x: 0, pendingWrap: false, row: 5)
        #expect(Self.step(lines, from: start, columns: 80, newline: false, stop: 14) != nil)
        #expect(Self.step(lines, from: start, columns: 80, newline: false, stop: 13) == nil)
        var utf8 = lines
        utf8[63] = 0xC3
        #expect(Self.step(utf8, from: start, columns: 80, newline: false) == nil)
        let wrapping = Self.block { $0 == 40 ? 0x0A : nil }
        let atMargin = ByteWalk(x: 79, pendingWrap: true, row: 5)
        #expect(Self.step(wrapping, from: atMargin, columns: 80, newline: false, stop: 8) != nil)
        #expect(Self.step(wrapping, from: atMargin, columns: 80, newline: false, stop: 7) == nil)
        let characters = Self.block { _ in nil }
        #expect(Self.step(characters, from: ByteWalk(x: 63, pendingWrap: true), columns: 64, newline: false) == nil)
        #expect(Self.step(characters, from: ByteWalk(x: 64, pendingWrap: true), columns: 65, newline: false) != nil)
    }
}

import CScreenKernels
import Testing

@testable import PTYKit

/// The scroll-ahead's walk over plain text 64 bytes a step (FastPaths/TextBlocks.swift,
/// CScreenKernels' ccell_walk_blocks) against the same bytes walked one at a time: it
/// leaves the cursor, and notes each block's last line feed, where the walk a byte at a
/// time does; it goes over every block of printable ASCII, returns, line feeds and the
/// SGRs that set no background on screens 64 columns wide or more, and over no other byte.
@Suite("Screen scroll-ahead: plain text walked 64 bytes a step")
struct TextBlockStepTests {
    /// Where plain text leaves the cursor, a byte at a time, as printASCII, carriageReturn
    /// and lineFeed move it without margins, SGRs moving nothing; and where each line
    /// feed left it, by row.
    struct ByteWalk: Equatable {
        var x: Int
        var pendingWrap: Bool
        var row = 0
        var feeds: [Int: [Int]] = [:]

        /// Walks `bytes` up to `end`; false at the first byte there that the blocks may
        /// not go over (a control, an escape that does not begin an SGR the blocks take).
        mutating func walk(_ bytes: [UInt8], to end: Int, columns: Int, newline: Bool) -> Bool {
            var offset = 0
            while offset < end {
                let byte = bytes[offset]
                switch byte {
                case 0x0D:
                    x = 0
                    pendingWrap = false
                case 0x0A:
                    pendingWrap = false
                    if newline { x = 0 }
                    row += 1
                    feeds[row] = [offset + 1, x]
                case 0x1B:
                    guard let length = TextBlockStepTests.takenRendition(bytes, at: offset) else { return false }
                    offset += length
                    continue
                case 0x20..<0x7F:
                    if pendingWrap {
                        row += 1
                        x = 0
                        pendingWrap = false
                    }
                    if x == columns - 1 { pendingWrap = true } else { x += 1 }
                default:
                    return false
                }
                offset += 1
            }
            return true
        }

        static func == (a: Self, b: Self) -> Bool { a.x == b.x && a.pendingWrap == b.pendingWrap && a.row == b.row }
    }

    /// The length of the SGR at `offset` if the blocks go over it: one the walk over
    /// stops goes over (ScreenStateWalkedRendition.swift) that leaves no background set.
    static func takenRendition(_ bytes: [UInt8], at offset: Int) -> Int? {
        var tinted = false
        let length = bytes.withUnsafeBufferPointer {
            ScreenState.walkedGraphicRenditionLength($0.baseAddress!, at: offset, end: bytes.count, tinted: &tinted)
        }
        return tinted ? nil : length
    }

    /// What the kernel's forms the CPU has do to `bytes` from `start`: where each stops and
    /// leaves the cursor, and the rows whose line feeds it noted (they must all agree).
    static func walkBlocks(
        _ bytes: [UInt8], from start: ByteWalk, columns: Int, newline: Bool, stop: Int = .max, renditions: Bool = true
    ) -> (offset: Int, walk: ByteWalk) {
        let forms = [CellVectors.sse2, .avx2, .avx512].filter { $0 <= CellVectors.available }
        let results = forms.map { vectors -> (Int, ByteWalk) in
            var scratch = WalkScratch()
            defer { scratch.deallocate() }
            scratch.generation = 1
            var text = ccell_text_walk()
            var setting = ccell_block_setting(
                columns: columns, stop: stop, newline: newline,
                renditions_seen: renditions ? scratch.renditionsSeen : nil, starts: scratch.lineStarts,
                starts_kept: WalkScratch.lineStartsKept, stream_offset: 0, generation: 1)
            // Twice: the second time from the SGRs the first noted.
            for _ in 0..<2 {
                text = ccell_text_walk(
                    offset: 0, x: start.x, row: start.row, pending_wrap: start.pendingWrap, sparse: false)
                bytes.withUnsafeBufferPointer { vectors.blockWalker($0.baseAddress!, bytes.count, &text, &setting) }
            }
            var walk = ByteWalk(x: text.x, pendingWrap: text.pending_wrap, row: text.row)
            for row in start.row...text.row {
                let noted = scratch.lineStarts[row & (WalkScratch.lineStartsKept - 1)]
                if noted.generation == 1 && noted.row == row { walk.feeds[row] = [noted.offset, noted.x] }
            }
            return (text.offset, walk)
        }
        #expect(
            results.dropFirst().allSatisfy {
                $0.0 == results[0].0 && $0.1 == results[0].1 && $0.1.feeds == results[0].1.feeds
            },
            "every kernel form: \(forms)")
        return results[0]
    }

    /// Expects the kernel to stop where the byte walk says it may, leaving the cursor
    /// where the byte walk does there, each noted line feed as the byte walk left it; and
    /// to stop no earlier than `atLeast`.
    static func expectAsByteWalk(
        _ bytes: [UInt8], from start: ByteWalk, columns: Int, newline: Bool, stop: Int = .max, atLeast: Int,
        _ what: String
    ) {
        let (offset, walked) = walkBlocks(bytes, from: start, columns: columns, newline: newline, stop: stop)
        var expected = start
        let plain = expected.walk(bytes, to: offset, columns: columns, newline: newline)
        #expect(plain, "went over a byte: \(what)")
        #expect(walked == expected, "\(what): stopped at \(offset)")
        #expect(walked.row < stop, "\(what): entered the row it stops at")
        for (row, noted) in walked.feeds { #expect(expected.feeds[row] == noted, "\(what): row \(row) noted") }
        #expect(offset >= atLeast, "\(what): stopped at \(offset), before \(atLeast)")
    }

    /// A small generator that gives the same texts on every run.
    struct Bits {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// SGRs the blocks go over (as `ls` colours names), those of more than 8 bytes from `[`
    /// to `m` too long to be looked up (the walk by stops goes over them), and those the
    /// blocks do not go over: a background, a colour of more parameters, 9 codes, a code
    /// of 1000, a colon, another sequence, an escape that begins none.
    static let taken = [#"\e[0m"#, #"\e[m"#, #"\e[01;34m"#, #"\e[1;32;49m"#, #"\e[0;1;2;3;4;5;7;9m"#, #"\e[;97m"#]
    static let notTaken = [
        #"\e[37;41m"#, #"\e[104m"#, #"\e[38;5;1m"#, #"\e[1;48;2;1;2;3m"#, #"\e[1;2;3;4;5;6;7;8;9m"#, #"\e[1000m"#,
        #"\e[4:3m"#, #"\e[2K"#, #"\e(B"#, #"\e[?25h"#, "\u{1B}",
    ]

    /// Random lines of characters, returns, line feeds and SGRs (taken, or now and then
    /// not), from every sort of cursor, with and without newline mode, on screens 64, 65,
    /// 80 and 200 wide: the kernel stops where the byte walk says it may and leaves the
    /// cursor there as it does; with nothing it may not go over, it goes to the last 64
    /// bytes (but 64 characters after a wrap on a screen 64 wide).
    @Test(arguments: [64, 65, 80, 200])
    func randomTextIsWalkedAsAByteAtATime(columns: Int) {
        var bits = Bits(state: 0x9E37_79B9_7F4A_7C15 ^ UInt64(columns))
        for round in 0..<2000 {
            let lineLength = [3, 8, 20, 40, 79, 90, 300][bits.below(7)]
            let ends: [UInt8] = [[0x0D, 0x0A], [0x0A], [0x0D], [0x0A, 0x0A]][bits.below(4)]
            let rare = bits.below(4) == 0
            var text: [UInt8] = []
            var looksUpEvery = true
            while text.count < 400 {
                let length = bits.below(lineLength + 1)
                for _ in 0..<length {
                    switch bits.below(12) {
                    case 0:
                        let rendition = bytes(Self.taken[bits.below(Self.taken.count)])
                        text += rendition
                        looksUpEvery = looksUpEvery && rendition.count <= 9
                    case 1 where rare && bits.below(8) == 0:
                        text += bytes(Self.notTaken[bits.below(Self.notTaken.count)])
                    default: text.append(UInt8(0x20 + bits.below(95)))
                    }
                }
                text += ends
            }
            let x = bits.below(columns)
            let start = ByteWalk(x: x, pendingWrap: x == columns - 1 && bits.next() & 1 != 0, row: 3)
            // Blocks go on to the end where lines are dense (with line feeds, at most 8
            // characters and an SGR or two) and every SGR is of those seen by 8 bytes.
            let dense = lineLength <= 8 && ends.contains(0x0A) && looksUpEvery
            for newline in [false, true] {
                var whole = start
                let plain = whole.walk(text, to: text.count, columns: columns, newline: newline)
                let atLeast = plain && dense && columns > 64 ? text.count - 63 : 0
                Self.expectAsByteWalk(
                    text, from: start, columns: columns, newline: newline, atLeast: atLeast,
                    "round \(round), \(columns) columns from \(x)\(start.pendingWrap ? " pending" : ""): \(text)")
            }
        }
    }

    /// `seq` without returns (lines of 6 or 7 bytes that step right and wrap every dozen
    /// lines), from every column and with a wrap pending, SGRs between its characters or
    /// not: the wrap inside a block counted, an SGR between the character at the margin
    /// and the next one not ending the pending wrap.
    @Test(arguments: [64, 80, 200], [false, true])
    func aStaircaseWrapsInsideTheBlock(columns: Int, coloured: Bool) {
        let text = (100_000..<100_060).flatMap { Array((coloured ? "\u{1B}[1m\($0)\u{1B}[m\n" : "\($0)\n").utf8) }
        for offset in 0..<7 {
            let bytes = Array(text[offset...])
            for x in 0..<columns {
                for pendingWrap in x == columns - 1 ? [false, true] : [false] {
                    Self.expectAsByteWalk(
                        bytes, from: ByteWalk(x: x, pendingWrap: pendingWrap), columns: columns, newline: false,
                        atLeast: columns > 64 || !coloured ? bytes.count - 63 : 0,
                        "\(columns) columns from \(x)\(pendingWrap ? " pending" : ""), offset \(offset)")
                }
            }
        }
    }

    /// Characters that reach the margin and stay there line after line (`yes` without its
    /// returns once it has stepped to the margin), then wrap when two come together, an
    /// SGR between them or not, or end a block with a wrap pending.
    @Test func charactersAtTheMarginStayThereUntilTwoComeTogether() {
        let yes = Array(String(repeating: "y\n", count: 64).utf8)
        var wrapsLate = yes
        wrapsLate[40] = 0x7A
        var wrapsAcrossAnSGR = yes
        wrapsAcrossAnSGR.replaceSubrange(41..<41, with: bytes(#"\e[1mz"#))
        var pendsAtTheEnd = yes
        pendsAtTheEnd[63] = 0x7A
        for text in [yes, wrapsLate, wrapsAcrossAnSGR, pendsAtTheEnd] {
            for (x, pendingWrap) in [(79, false), (79, true), (76, false)] {
                Self.expectAsByteWalk(
                    text, from: ByteWalk(x: x, pendingWrap: pendingWrap), columns: 80, newline: false,
                    atLeast: text.count - 63, "from \(x)\(pendingWrap ? " pending" : ""): \(text)")
            }
        }
    }

    /// What ends the walk: a line feed or a wrap that would enter the row it stops at, a
    /// byte or an SGR it does not go over (the bytes before it taken), any SGR when it
    /// goes over none (the scrollback held), an SGR the block does not hold whole (taken
    /// from the next block on).
    @Test func whatEndsTheWalk() {
        let lines = Array(String(repeating: "1234567\n", count: 16).utf8)
        let start = ByteWalk(x: 0, pendingWrap: false, row: 5)
        #expect(Self.walkBlocks(lines, from: start, columns: 80, newline: false, stop: 14).offset == 64)
        #expect(Self.walkBlocks(lines, from: start, columns: 80, newline: false, stop: 13).offset == 0)
        let wrapping = Array(String(repeating: "a", count: 100).utf8)
        let atMargin = ByteWalk(x: 79, pendingWrap: true, row: 5)
        #expect(Self.walkBlocks(wrapping, from: atMargin, columns: 80, newline: false, stop: 7).offset == 64)
        #expect(Self.walkBlocks(wrapping, from: atMargin, columns: 80, newline: false, stop: 6).offset == 0)
        #expect(
            Self.walkBlocks(wrapping, from: ByteWalk(x: 63, pendingWrap: true), columns: 64, newline: false).offset == 0
        )
        #expect(
            Self.walkBlocks(wrapping, from: ByteWalk(x: 64, pendingWrap: true), columns: 65, newline: false).offset
                == 64)
        for other in Self.notTaken + [#"\t"#, #"\x80"#, #"\xC3\xA9"#, #"\x7F"#, #"\b"#] {
            for at in [0, 30, 63, 64, 90] {
                let text = Array(lines[..<at]) + bytes(other) + Array(lines[at...])
                #expect(
                    Self.walkBlocks(text, from: start, columns: 80, newline: false).offset <= at, "\(other) at \(at)")
            }
        }
        for at in [0, 30, 58, 63, 64] {
            let text = Array(lines[..<at]) + bytes(#"\e[01;34m"#) + Array(lines[at...])
            let held = Self.walkBlocks(text, from: start, columns: 80, newline: false, renditions: false)
            #expect(held.offset <= at, "held, an SGR at \(at)")
            let offset = Self.walkBlocks(text, from: start, columns: 80, newline: false).offset
            #expect(offset > at && offset > text.count - 64, "an SGR at \(at): stopped at \(offset)")
        }
    }
}

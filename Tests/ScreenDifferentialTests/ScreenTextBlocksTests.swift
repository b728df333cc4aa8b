import ScreenTestSupport
import Testing

@testable import PTYKit

/// The scroll-ahead's blocks of dense lines (FastPaths/TextBlocks.swift): 64 bytes of
/// printable ASCII, returns, line feeds and SGRs walked at once leave the screen, and
/// while the scrollback is held the held lines, that the plain feed (`fastPaths: .none`)
/// makes, fed whole, split in two at every byte and in reads of a few sizes.
@Suite("Screen scroll-ahead over blocks of dense lines")
struct ScreenTextBlocksTests {
    /// Lines of the lengths given in turn, each ended by `end`, `count` bytes in all: the
    /// last line may be cut anywhere.
    static func lines(_ lengths: [Int], _ end: String, count: Int) -> [UInt8] {
        var text: [UInt8] = []
        var line = 0
        while text.count < count {
            let length = lengths[line % lengths.count]
            text += (0..<length).map { UInt8(0x21 + ($0 + line) % 94) }
            text += bytes(end)
            line += 1
        }
        return Array(text[..<count])
    }

    /// Lines of every length up to 20, `yes` and `seq` with and without returns, lines
    /// that reach the right margin exactly (or one short, or one over), and runs of line
    /// feeds, on a screen `columns` wide; without returns, lines step right and wrap
    /// inside blocks (`seq` of 6 digits a line: every dozen lines at 80 columns).
    static func texts(columns: Int) -> [(name: String, input: [UInt8])] {
        let every = Array(0...20)
        let margin = [columns, 1, 2, columns - 1, 3, columns + 1, 0, columns]
        var texts: [(String, [UInt8])] = []
        for end in [#"\r\n"#, #"\n"#] {
            texts.append(("every length to 20, \(end)", lines(every, end, count: 700)))
            texts.append(("lines at the margin, \(end)", lines(margin, end, count: 900)))
            texts.append(("yes, \(end)", lines([1], end, count: 2 * columns * 3 + 7)))
            texts.append(("seq, \(end)", (1...150).flatMap { Array("\($0)".utf8) + bytes(end) }))
        }
        texts.append(("seq of 6 digits, \\n", (100_000..<100_200).flatMap { Array("\($0)\n".utf8) }))
        texts.append(
            ("coloured seq of 6 digits, \\n", (100_000..<100_120).flatMap { Array("\u{1B}[1m\($0)\u{1B}[m\n".utf8) }))
        // Characters that reach the margin with SGRs between them, which end no wrap.
        let speckled = (0..<columns + 37).map { $0 % 3 == 2 ? "\u{1B}[1mx" : "y" }.joined() + "\n"
        texts.append(
            ("long lines with an SGR every 3 characters, \\n", Array(String(repeating: speckled, count: 12).utf8)))
        texts.append(("lines of 10 to 30, \\n", lines(Array(10...30), #"\n"#, count: 1200)))
        texts.append(("line feeds", [UInt8](repeating: 0x0A, count: 300)))
        texts.append(("coloured ls, \\r\\n", colouredListing(columns: columns, count: 1400)))
        // A background left set across every line's end: each row scrolls in in it, the top
        // row shown at the end too (the blocks never go over it).
        texts.append(
            (
                "a background across every line's end",
                (0..<90).flatMap { bytes(#"\e[0mline \#($0)\e[44m \r\n"#) }
            ))
        texts.append(("lines of 10 to 40, \\r\\n", lines(Array(10...40), #"\r\n"#, count: 1200)))
        texts.append(("returns and line feeds", lines([0, 0, 1], #"\r\r\n"#, count: 400)))
        return texts.map { ($0.0, preamble + $0.1) }
    }

    /// Dense lines first (140 returns and line feeds in as many bytes): the walk goes by
    /// blocks from its first batch of stops on (TextBlocks.swift), and keeps to them while
    /// they are dense.
    static let preamble = bytes(String(repeating: #"\r\n"#, count: 70))

    /// `ls -l --color` as a pty shows it: names coloured between SGRs (bold and a colour,
    /// then a reset), links with their targets (long enough to wrap now and then),
    /// setuid files on a background (the blocks stop there, the walk by stops goes over
    /// it), colours of more parameters, SGRs at the right margin and in every place of a
    /// block as the lines shift; and a background left set across a line's end.
    static func colouredListing(columns: Int, count: Int) -> [UInt8] {
        let colours = [#"\e[01;34m"#, #"\e[01;36m"#, #"\e[0m\e[01;32m"#, #"\e[37;41m"#, #"\e[38;5;208m"#, #"\e[1m"#]
        var text: [UInt8] = []
        var line = 0
        while text.count < count {
            let name = String(repeating: "n", count: 1 + line * 7 % 23)
            var listing =
                "-rwxr-xr-x  1 root root \(line * 977 % 100_000) Dec  7 \(colours[line % colours.count])\(name)\\e[0m"
            if line % 3 == 1 { listing += " -> " + String(repeating: "t", count: line * 13 % (columns - 10)) }
            // A background across the line's end: rows scroll in in it (the blocks stop).
            if line % 5 == 3 { listing = #"\e[0m"# + listing + #" \e[44m"# }
            text += bytes(listing + #"\r\n"#)
            line += 1
        }
        return Array(text[..<count])
    }

    /// One byte that is not plain among short lines: what ends the block, taken by the
    /// parser, the walk going on after it; and SGRs the blocks do not go over.
    static let notPlain = [
        #"\t"#, #"\e[m"#, #"\e[31m"#, #"\b"#, #"\x80"#, #"\xC3\xA9"#, #"\x7F"#, #"\e[2A"#, #"\e[41m"#, #"\e[38;5;1m"#,
        #"\e[1;2;3;4;5;6;7;8;9m"#,
    ]

    /// What the screen holds before: nothing, a row written to its last column (a wrap
    /// pending), newline mode, the cursor near the right margin; and what the walk is not
    /// tried in: top and bottom margins, with origin mode or not, origin mode alone,
    /// autowrap off, insert mode, left and right margins.
    static func setups(columns: Int) -> [[UInt8]] {
        [
            [], [UInt8](repeating: 0x41, count: columns), bytes(#"\e[20h"#),
            bytes(#"\e[1;\#(columns - 2)H"#), bytes(#"\e[2;3r"#), bytes(#"\e[?6h\e[2;3r"#), bytes(#"\e[?6h"#),
            bytes(#"\e[?7l"#), bytes(#"\e[4h"#), bytes(#"\e[?69h\e[5;\#(columns - 5)s"#),
        ]
    }

    /// The screens and held lines of `input` after `setup`, fed as the plain feed feeds it
    /// and as `feed` does with the fast paths.
    static func expectSame(
        _ setup: [UInt8], _ input: [UInt8], rows: Int, columns: Int, held: Bool, _ what: String,
        feed: (ScreenModel) -> Void
    ) {
        let fast = ScreenModel(rows: rows, columns: columns)
        let plain = ScreenModel(rows: rows, columns: columns, fastPaths: .none)
        for model in [fast, plain] {
            model.feed(setup)
            if held { model.startHoldingScrollback(limit: 1 << 20) }
        }
        plain.feed(input)
        feed(fast)
        expectSameScreen(fast, plain, what)
        guard held else { return }
        let (a, b) = (OutputBuffer(), OutputBuffer())
        fast.appendHeldScrollbackAndRepaint(to: a)
        plain.appendHeldScrollbackAndRepaint(to: b)
        #expect(a.bytes == b.bytes, "\(what): the held lines")
    }

    @Test(arguments: [(3, 64), (24, 80)], [false, true])
    func everySplitIsThePlainFeeds(size: (rows: Int, columns: Int), held: Bool) {
        for (name, input) in Self.texts(columns: size.columns) {
            for setup in Self.setups(columns: size.columns) {
                let what = "\(size.rows)x\(size.columns) \(held ? "held" : "not held"), \(name) after \(setup)"
                // Every byte of a block, and a few more.
                for split in Array(240..<304) + [0, 1, 140, 439, input.count] {
                    Self.expectSame(
                        setup, input, rows: size.rows, columns: size.columns, held: held, "\(what), split at \(split)"
                    ) {
                        $0.feed(input[..<split])
                        $0.feed(input[split...])
                    }
                }
            }
        }
    }

    @Test(arguments: [(3, 64), (24, 80)], [false, true])
    func aByteNotPlainAnywhere(size: (rows: Int, columns: Int), held: Bool) {
        for (name, text) in Self.texts(columns: size.columns) {
            for other in Self.notPlain {
                // At each offset of a 64-byte block.
                for at in stride(from: 340, to: 404, by: 3) {
                    let input = Array(text[..<at]) + bytes(other) + Array(text[at...])
                    Self.expectSame(
                        [], input, rows: size.rows, columns: size.columns, held: held,
                        "\(size.rows)x\(size.columns) \(held ? "held" : "not held"), \(name), \(other) at \(at)"
                    ) { $0.feed(input) }
                }
            }
        }
    }

    /// A character of 2, 3 and 4 bytes at each offset across two blocks of a staircase, fed
    /// whole and cut after its first byte: the block it is in, or ends in, is not taken.
    @Test(arguments: [(3, 64), (24, 80)], [false, true])
    func aCharacterOfSeveralBytesAcrossBlocks(size: (rows: Int, columns: Int), held: Bool) {
        let text = Self.preamble + (100_000..<100_100).flatMap { Array("\($0)\n".utf8) }
        for character in ["é", "€", "😀"] {
            for at in 290..<420 {
                let input = Array(text[..<at]) + Array(character.utf8) + Array(text[at...])
                for cut in [input.count, at + 1] {
                    Self.expectSame(
                        [], input, rows: size.rows, columns: size.columns, held: held,
                        "\(size.rows)x\(size.columns) \(held ? "held" : "not held"), \(character) at \(at), cut at \(cut)"
                    ) {
                        $0.feed(input[..<cut])
                        $0.feed(input[cut...])
                    }
                }
            }
        }
    }

    @Test(arguments: [(3, 64), (24, 80), (60, 200)], [7, 64, 97, 4096])
    func readsAsFromAPty(size: (rows: Int, columns: Int), read: Int) {
        for (name, text) in Self.texts(columns: size.columns) {
            let input = Array(Array(repeating: text, count: 3).joined())
            for held in [false, true] {
                Self.expectSame(
                    [], input, rows: size.rows, columns: size.columns, held: held,
                    "\(size.rows)x\(size.columns) \(held ? "held" : "not held"), \(name), reads of \(read)"
                ) { model in
                    var offset = 0
                    while offset < input.count {
                        let end = min(offset + read, input.count)
                        model.feed(Array(input[offset..<end]))
                        offset = end
                    }
                }
            }
        }
    }
}

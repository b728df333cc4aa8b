import ScreenTestSupport
import Testing

@testable import PTYKit

/// The scroll-ahead (ScreenStateScrollAhead.swift) on floods: what it skips leaves the screen
/// every byte would have made, fed at every split, byte by byte and read as from a pty.
/// `ScreenScrollAheadTests` (the unit tier) has where it goes on and what it keeps back.
@Suite("ScreenModel skipping text that scrolls away, in floods")
struct ScreenScrollAheadFloodTests {
    /// Short floods after each set-up, fed at every split and byte by byte.
    @Test func whatIsSkippedChangesNothingShown() {
        let floods = [
            #"a\nb\nc\nd\ne\nf\ng\nh\n"#,
            #"one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix\r\nseven\r\neight\r\n"#,
            // A staircase: line feeds without returns, wrapping at the edge.
            #"abcdef\nghijkl\nmnopqr\nstuvwx\nyzABCD\nEFGHIJ\nKLMNOP\nQRSTUV"#,
            String(repeating: "0123456789", count: 6) + "abc",
            // Ends at a line feed, and in the middle of a row.
            #"1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\r\n"#,
            #"1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\r\n9 and more"#,
            // Exactly at the edge, then a return.
            #"0123456789\r\n0123456789\r\n0123456789\r\n0123456789\r\n0123456789\r\nend"#,
            // What ends the walk: sequences, other controls, UTF-8.
            #"a\nb\nc\nd\ne\nf\ng\nh\ni\e[31mred\nj\nk\tl\bm\xC3\xA9\n"#,
            // Colour is walked over and what is skipped sets the pen (an empty code is 0);
            // a background into the next row (by a line feed, by a wrap, or exactly at the
            // edge), a colour with more parameters, another sequence or one cut off by the
            // end end the walk.
            #"\e[01;34mone\e[0m\r\n\e[1mtwo\e[m\r\nthree\e[31m\r\nfour\r\n\e[;1;;4mfive\r\nsix\e[7m\r\nseven\r\n"#,
            #"a\r\nb\r\nc\r\n\e[42mgreen\e[m\r\nd\r\ne\r\nf\r\ng\r\nh\r\n"#,
            #"a\r\nb\r\nc\r\n\e[42mgreen\r\n\e[md\r\ne\r\nf\r\ng\r\nh\r\n"#,
            #"a\r\nb\r\nc\r\n\e[37;41mred and more\e[0m\r\nd\r\ne\r\nf\r\ng\r\nh\r\n"#,
            #"a\r\nb\r\nc\r\n\e[103m0123456789\e[49m\r\nd\r\ne\r\nf\r\ng\r\nh\r\n"#,
            #"a\r\nb\e[38;5;1mc\r\nd\r\ne\r\nf\r\ng\r\nh\r\n"#,
            #"a\r\nb\r\nc\e[1;2;3;4;5;6;7;8;9md\r\ne\r\nf\r\ng\r\nh\r\n"#,
            #"a\r\n\e[?25lb\r\nc\r\nd\r\ne\r\nf\r\n"#,
            #"a\r\nb\r\nc\r\nd\r\ne\r\nf\e[1"#,
        ]
        // Before each: the cursor at the bottom with rows written above it; the last
        // row written to its edge (a pending wrap); the pen's background (the colour
        // rows scroll in with); newline mode; the cursor at the top, rows below it full.
        let setups = [
            #"top\r\nmiddle\r\nbottom"#, #"x\r\n\r\n0123456789"#, #"\e[44mblue\r\n\n"#, #"\e[20h\n\n"#,
            #"\e[1;1Hrow one\e[2;1Hrow two\e[3;1Hrow three\e[1;4H"#,
        ]
        for setup in setups {
            for flood in floods {
                let model = screenEverySplit(bytes(setup) + bytes(flood), rows: 3, columns: 10)
                // Fed in two, the flood whole: the same.
                let twice = ScreenModel(rows: 3, columns: 10)
                twice.feed(setup)
                twice.feed(flood)
                #expect(twice.snapshot() == model.snapshot(), "\(setup) then \(flood)")
            }
        }
    }

    /// A log of lines up to one and a half rows long, with and without returns (a
    /// staircase), read 4 KiB at a time as from a pty: the same screen as fed byte by
    /// byte, at the end and wherever it is looked at. At 80x24 a read scrolls more than a
    /// screen; at 200x60 it takes two, and what the first keeps back, the second scrolls
    /// away.
    @Test(arguments: [#"\r\n"#, #"\n"#], [(24, 80), (60, 200)])
    func aFloodReadAsFromAPtyEndsOnTheSameScreen(_ newline: String, size: (rows: Int, columns: Int)) {
        let text = Self.log(columns: size.columns) { line, characters in characters + bytes(newline) }
        expectFloodReadAsFromAPty(text, rows: size.rows, columns: size.columns, everyReadKept: true)
    }

    /// The same with colour as `ls --color` writes it, the odd line with a background
    /// (which ends the walk) among them.
    @Test(arguments: [(24, 80), (60, 200)])
    func aColouredFloodReadAsFromAPtyEndsOnTheSameScreen(size: (rows: Int, columns: Int)) {
        let text = Self.log(columns: size.columns) { line, characters in
            let colour = line % 97 == 0 ? #"\e[37;41m"# : [#"\e[01;34m"#, #"\e[01;36m"#, #"\e[0m\e[1m"#][line % 3]
            return bytes("\(line) \(colour)") + characters + bytes(#"\e[0m\r\n"#)
        }
        expectFloodReadAsFromAPty(text, rows: size.rows, columns: size.columns, everyReadKept: false)
    }

    /// 2000 lines of up to one and a half rows of `columns`, made by `line`.
    private static func log(columns: Int, _ line: (Int, [UInt8]) -> [UInt8]) -> [UInt8] {
        var text: [UInt8] = []
        var state: UInt32 = 7
        for index in 0..<2000 {
            state = state &* 1_103_515_245 &+ 12345
            let length = Int(state >> 16) % (columns * 3 / 2 + 11)
            text += line(index, (0..<length).map { UInt8(0x21 + ($0 + index) % 90) })
        }
        return text
    }

    private func expectFloodReadAsFromAPty(
        _ text: [UInt8], rows: Int, columns: Int, everyReadKept: Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let model = ScreenModel(rows: rows, columns: columns)
        let expected = ScreenModel(rows: rows, columns: columns)
        for byte in text { expected.feed([byte]) }
        var kept = 0
        let starts = stride(from: 0, to: text.count, by: 4096)
        for (index, start) in starts.enumerated() {
            model.feed(text[start..<min(start + 4096, text.count)])
            if model.keptTextCount > 0 { kept += 1 }
            if index == 20 {
                let partial = ScreenModel(rows: rows, columns: columns)
                for byte in text[..<min(start + 4096, text.count)] { partial.feed([byte]) }
                #expect(model.snapshot() == partial.snapshot(), sourceLocation: sourceLocation)
            }
        }
        // Every read ends with text kept back, or (where a sequence is cut by the end of a
        // read, or a background ends the walk) most.
        let reads = Array(starts).count
        let enough = everyReadKept ? kept == reads : kept > reads * 3 / 4
        #expect(enough, "\(kept) of \(reads)", sourceLocation: sourceLocation)
        #expect(model.snapshot() == expected.snapshot(), sourceLocation: sourceLocation)
    }
}

import PTYKit
import Testing

/// The bytes `feed` skips without the table: UTF-8 characters, complete or cut short, whole
/// control sequences without a private marker or intermediate, and the parameters of control
/// sequences without a private marker.
@Suite("ScreenModel parser fast paths")
struct ScreenParserFastPathTests {
    @Test(arguments: [#"\xE2\x9B"#, #"\xF0\x9F\x98"#, #"\xC3"#, #"\xF0"#])
    func aCharacterCutShortLetsTheNextSequenceThrough(_ partial: String) {
        let parser = modesEverySplit(bytes(partial + #"\e[?2004hok"#))
        #expect(parser.modes.isSet(privateMode: 2004))
        #expect(parser.isAtBoundary)
    }

    @Test func aCharacterCutShortByPrintableTextIsNotCountedAgain() {
        // The 'A' ends the character; the next two bytes are a complete character of
        // their own, so the stream ends at a boundary.
        let parser = modesEverySplit(bytes(#"\xE2A\xC3\xA9"#))
        #expect(parser.isAtBoundary)
    }

    @Test func aCharacterOpenAtTheEndIsNotABoundary() {
        let parser = modesEverySplit(bytes(#"ab\xE2\x9B"#))
        #expect(!parser.isAtBoundary)
    }

    @Test func unmarkedParametersAreSkippedButMarkedOnesStillCount() {
        let parser = modesEverySplit(bytes(#"\e[38;5;123;1m\e[12;34H\e[?1;1049h\e[0m"#))
        #expect(parser.modes.isSet(privateMode: 1))
        #expect(parser.modes.alternateScreen)
        #expect(parser.isAtBoundary)
    }

    @Test func anUnmarkedSequenceCutShortKeepsTheParserInside() {
        var parser = ModelStream()
        parser.feed(bytes(#"\e[38;5;12"#))
        #expect(!parser.isAtBoundary)
        #expect(parser.feedUntilBoundary(bytes(#"3mtext"#)) == 2)
        #expect(parser.isAtBoundary)
    }

    @Test func markerAfterUnmarkedParametersIgnoresTheSequence() {
        // `?` after parameters sends the sequence to csiIgnore: not a DECSET.
        let parser = modesEverySplit(bytes(#"\e[1?1049h"#))
        #expect(!parser.modes.alternateScreen)
        #expect(parser.isAtBoundary)
    }

    @Test func sequencesAfterSkippedOnesStillCount() {
        let parser = modesEverySplit(bytes(#"\e[0m\e=\e[1;31mred\e[m\e[?25l\e[K"#))
        #expect(parser.modes.applicationKeypad)
        #expect(!parser.modes.cursorVisible)
        #expect(parser.isAtBoundary)
    }

    @Test func anUnmarkedSequenceWithAnIntermediateIsInterpreted() {
        // DECSTR (`CSI ! p`) has no marker but an intermediate: it must reach ScreenModes.
        let parser = modesEverySplit(bytes(#"\e[?1h\e=\e[!p"#))
        #expect(!parser.modes.isSet(privateMode: 1))
        #expect(!parser.modes.applicationKeypad)
    }

    @Test func anEscapeThatIsNotACSIIsNotSkipped() {
        let parser = modesEverySplit(bytes(#"\e[?1049h\ec"#))
        #expect(!parser.modes.alternateScreen)
        #expect(parser.isAtBoundary)
    }

    @Test func oddSGRsAgreeWithTheTable() {
        // One or two codes or none go past the parameter list; 38, 48 and 58 (which take
        // more parameters), empty and sub-parameters, leading zeros, saturated values, more
        // codes and other finals must do what the table does.
        screenEverySplit(
            bytes(
                #"\e[31ma\e[mb\e[0032mc\e[38md\e[0038me\e[48mf\e[58mg\e[99999mh\e[1mi\e[00mj\e[7mk\e[;m"#
                    + #"l\e[4;mm\e[1;32mn\e[22;0mo\e[1;38;5;9mp\e[32;48mq\e[1;2;3mr\e[1;mt\e[1;?mu\e[7;1:2mv"#
                    + #"\e[0;1mA\e[1;0mB\e[3;4Hw\e[1;31;1Hx\e[1:3my\e[?1;2mz"#), rows: 4, columns: 20)
    }

    @Test func cursorPositionsAgreeWithTheTable() {
        // Two parameters or fewer go past the parameter list: missing, empty and 0 mean 1,
        // large ones stop at the edge, origin mode counts from the margins; more
        // parameters, a marker or an intermediate must do what the table does.
        screenEverySplit(
            bytes(
                #"a\e[Hb\e[3Hc\e[3;Hd\e[;5He\e[0;0Hf\e[99;99Hg\e[38;5Hh\e[2;3;4Hi\e[?2Hj\e[2 Hk\e[004;0007Hl"#
                    + #"\e[2;4r\e[?6h\e[Hm\e[9;2Hn\e[?6l\e[r\e[1:2Ho"#), rows: 5, columns: 12)
    }

    @Test func wholeBuffersAgreeWithByteByByteFeeding() {
        // One byte at a time, no skip can span a sequence or a character: the table does
        // the work. Fed whole, the fast paths do most of it.
        var random = SplitMix64(seed: 0xFA57)
        let pieces: [[UInt8]] = [
            bytes(#"\e[1;31m"#), bytes(#"\e[?1049h"#), bytes(#"\e[?1049l"#), bytes(#"\e[?2004h"#),
            bytes(#"\e[!p"#), bytes(#"\e="#), bytes(#"\e[12"#), bytes(#"\e["#), bytes(#"\e"#),
            bytes(#"\xE2\x9B\x84"#), bytes(#"\xE2\x9B"#), bytes(#"\xF0\x9F"#), bytes(#"\xC3"#),
            bytes(#"\x80\x80\x80\x80"#), bytes(#";?:m"#), bytes("text "), bytes(#"\x18"#),
        ]
        for _ in 0..<1_000 {
            var input: [UInt8] = []
            for _ in 0..<Int(random.next() % 24) {
                input +=
                    random.next() % 4 == 0
                    ? [UInt8(truncatingIfNeeded: random.next())]
                    : pieces[Int(random.next() % UInt64(pieces.count))]
            }
            var whole = ModelStream()
            whole.feed(input)
            var byByte = ModelStream()
            for byte in input {
                byByte.feed([byte])
            }
            #expect(whole.modes == byByte.modes, "\(input)")
            #expect(whole.isAtBoundary == byByte.isAtBoundary, "\(input)")
        }
    }

    @Test func textGatheredFromBinaryBytesAgreesWithTheTable() {
        // Fed whole, the text among bytes that do nothing (DEL, CAN, SUB, 0x80-0xC1,
        // 0xF5-0xFF, leads cut short) is printed as one run, across the row's edge too, and
        // a control that only ends REP's character (NUL, BEL, ...) is told after it: REP
        // must repeat nothing then. In insert mode, the DEC graphics set, without autowrap
        // and with a lead at the end, the same as byte by byte.
        let model = screenEverySplit(
            bytes(
                #"ab\x80c\x07\e[3bd\x7Fe\xC3f\x18g\x1Ah\xFFi\xC0j\x01k\e[2b\r\n"#
                    + #"0123\x80456\x9B789\xF5abc\xC2de\r\n\e[4hxy\xC3z\x85w\e[4l\e(0q\x80q\x01r\e(B\r\n"#
                    + #"\e[?7lwide\x80line\x80past\x80the\x80edge\e[?7h\r\nend\xE2"#), rows: 8, columns: 12)
        #expect(model.text(row: 0) == "abcdefghijkk")
    }

    @Test func everyByteThatStopsTheGatheringStopsItAnywhereInABlock() {
        // The gathering looks at 16 bytes a step: each byte that must reach the state on
        // its own (the controls that move the cursor or shift the set, an escape, a lead
        // that begins a character) is put at every place in and after a first block, after
        // binary bytes that end with a printable one or with a control that only ends REP's
        // character; after it a lead cut short, which starts a gathering of its own.
        let fillers = [
            bytes(#"a\x80b\x7F\xFFc\x07\xC3d\x18e\x9B\x1Af\x01\xF5g"#),
            bytes(#"\xC3\xA9\x80\xD0\x96b\xC2\x85\xE2\x9Bc\x07\xDF\xBF\xE0\x80\x80d\xC2\xA0"#),
        ]
        let stops = [
            #"\x08"#, #"\x09"#, #"\x0A"#, #"\x0B"#, #"\x0C"#, #"\x0D"#, #"\x0E"#, #"\x0F"#, #"\e[2b"#, #"\e[1m"#,
            #"\xC3\xA9"#, #"\xC2\xBF"#, #"\xC2\x85"#, #"\xCC\x81"#, #"\xDF\xBF"#, #"\xE2\x9B\x84"#,
            #"\xF0\x9F\x98\x80"#, #"\xF4\x8F\xBF\xBD"#,
        ].map(bytes)
        for stop in stops {
            for filler in fillers {
                for length in 0..<40 {
                    let input =
                        bytes(#"\e)0"#) + (0..<length).map { filler[$0 % filler.count] } + stop
                        + bytes(#"\xC3xq\x80y\r\n\e[3b"#)
                    let whole = ScreenModel(rows: 4, columns: 24)
                    whole.feed(input)
                    let plain = ScreenModel(rows: 4, columns: 24, fastPaths: .none)
                    plain.feed(input)
                    let byByte = ScreenModel(rows: 4, columns: 24)
                    for byte in input { byByte.feed([byte]) }
                    // Not printed whole when they differ.
                    let (same, samePlain) = (
                        whole.snapshot() == byByte.snapshot(), whole.snapshot() == plain.snapshot()
                    )
                    #expect(same, "\(input): \(whole.lines) vs \(byByte.lines) byte by byte")
                    #expect(samePlain, "\(input): \(whole.lines) vs \(plain.lines) fed plainly")
                }
            }
        }
    }

    @Test func twoByteCharactersGatheredAgreeWithTheTable() {
        // Fed whole, the two-byte characters of one column among binary bytes are gathered
        // as cells with the text: after them a combining mark joins the last one and a
        // wide character takes two cells; REP repeats nothing after one, nor after a C1
        // control (U+0080-U+009F, no cell) that came last, but the ASCII after them; in
        // insert mode, without autowrap, between left and right margins, at a pending wrap
        // and in the DEC graphics and UK sets (which translate the ASCII, not them), the
        // same as byte by byte; characters cut short or malformed are passed over.
        let model = screenEverySplit(
            bytes(
                #"a\x80\xC3\xA9b\xFF\xD0\x96c\xC2\x85d\e[2b\x80\xC3\xA9\e[3b\x01\xD7\x90\x80\xC2\x85\e[2b\r\n"#
                    + #"\x80\xC3\xA9\xCC\x81x\x80\xD0\x96\xE4\xB8\x80y\xC2\xA0\xC2\xAD\xDF\xBF\x80\xCD\xAFz\r\n"#
                    + #"\xE2\x9Bq\x80\xF0\x9F\x98r\xE0\x80\x80s\xED\xA0\x80t\xF4\x90\x80\x80u\xC0\x80\xC3\r\n"#
                    + #"\e[4hab\x80\xC3\xA9c\e[4l\e(0q\x80\xC3\xA9q\x80\e(Bx\e(A#\x80\xC2\xA3#\x80\e(B"#
                    + #"\e)0\x0Eq\x80\xD0\x96\x0F\r\n0123456789A\x80\xC3\xA9\xD0\x96z\x80\xC2\x85\e[5b\r\n"#
                    + #"\e[?7lwide\x80\xC3\xA9line\x80past\xD0\x96the\x80edge\xC3\xA9\e[?7h\r\n"#
                    + #"\e[?69h\e[3;8s\e[11;3Habc\x80\xC3\xA9def\x80\xD0\x96ghij\e[?69l\r\n\xC3\xA9\x80\xE2"#),
            rows: 14, columns: 12)
        #expect(model.text(row: 0) == "a\u{E9}b\u{416}cddd\u{E9}\u{5D0}  ")
    }

    @Test func twoByteCharactersAmongBinaryBytesAgreeWithTheTable() {
        // Binary bytes with two-byte characters of every kind (of one column, C1 controls,
        // combining marks), three- and four-byte ones complete, cut short and malformed, the
        // controls that stop a gathering and REP: whole against byte by byte and plainly.
        var random = SplitMix64(seed: 0x7F8)
        let others: [[UInt8]] = [
            [0xE4, 0xB8, 0x80], [0xE2, 0x9B], [0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98, 0x80],
            bytes(#"\e[3b"#), [0x07], [0x08], [0x09], [0x0A], [0x0D], [0x0E], [0x0F], [0x01],
        ]
        var input = bytes(#"\e)0"#)
        while input.count < 30_000 {
            let pick = random.next()
            switch pick % 6 {
            case 0, 1:
                let scalar = 0x80 + UInt32((pick >> 8) % 0x780)
                input += [UInt8(0xC0 | scalar >> 6), UInt8(0x80 | scalar & 0x3F)]
            case 2: input += (0..<Int((pick >> 8) % 5)).map { _ in UInt8(32 + random.next() % 95) }
            case 3: input.append(UInt8(truncatingIfNeeded: pick >> 8))
            case 4: input += others[Int((pick >> 8) % UInt64(others.count))]
            default: input += [0xC2, UInt8(0x80 + (pick >> 8) % 0x20)]
            }
        }
        let whole = ScreenModel(rows: 6, columns: 30)
        let plain = ScreenModel(rows: 6, columns: 30, fastPaths: .none)
        let byByte = ScreenModel(rows: 6, columns: 30)
        for offset in stride(from: 0, to: input.count, by: 1000) {
            let part = input[offset..<min(offset + 1000, input.count)]
            whole.feed(part)
            plain.feed(part)
            for byte in part { byByte.feed([byte]) }
            let (same, samePlain) = (whole.snapshot() == byByte.snapshot(), whole.snapshot() == plain.snapshot())
            #expect(same, "after \(offset + part.count) bytes: \(whole.lines) vs \(byByte.lines)")
            #expect(samePlain, "after \(offset + part.count) bytes, plainly")
        }
    }

    @Test func bytesThatAreNoUTF8AgreeWithTheTable() {
        // Fed byte by byte, every character cut short goes through the table; fed whole,
        // the ground loop drops it itself, and passes over the bytes that start none.
        let streams = [
            ScreenSamples.randomBytes(count: 20_000, seed: 0x32),
            ScreenSamples.strayBytes(count: 20_000, seed: 0x33),
        ]
        for input in streams {
            let whole = ScreenModel(rows: 6, columns: 30)
            let byByte = ScreenModel(rows: 6, columns: 30)
            for offset in stride(from: 0, to: input.count, by: 1000) {
                let part = input[offset..<min(offset + 1000, input.count)]
                whole.feed(part)
                for byte in part { byByte.feed([byte]) }
                let same = whole.snapshot() == byByte.snapshot()  // not printed whole when they differ
                #expect(same, "after \(offset + part.count) bytes: \(whole.lines) vs \(byByte.lines)")
                #expect(whole.isAtBoundary == byByte.isAtBoundary)
            }
        }
    }
}

import PTYKit
import ScreenTestSupport
import Testing

/// What binary bytes are mostly made of outside text, taken without the table: escape
/// sequences with controls, intermediates and bytes above `~` among their bytes (the ground
/// loop's escape), a DCS string's payload with ESCs in it, and the controls inside the
/// strings that ignore them. Whole against every split and byte by byte (where the table
/// parses every escape), and plainly.
@Suite("ScreenModel parser escapes and strings among binary bytes")
struct ScreenParserEscapeTests {
    @Test func escapesWithBytesAmongThemAgreeWithTheTable() {
        // DECSC and DECRC, IND, NEL, RI, HTS and a tab to it, DECALN, the DEC graphics set,
        // RIS, each with a control (executed first: BS, LF, HT, CR, SO, NUL) or bytes above
        // `~` (passed over) between the ESC and its final; an intermediate with such bytes
        // after it, and after it `[` or `P`, which are finals there; an ESC that CAN or SUB
        // ends, an ESC that another begins again, an ESC before a control sequence or a
        // string with such bytes between, and an ESC at the end.
        let model = screenEverySplit(
            bytes(
                #"ab\e\x80\xFF7cd\e\x088e\e\x0AD\e\x85Ef\e\x09Mg\e\x0DHh\r\n\e\xC3\x0E\x0F\xA9Hi\x09j\r\n"#
                    + #"\e(\x80\x090k\e\x9B(Bl\e#\x01\x808\e(\x0A[m\e(Pn\e)\x7F0\x0Eq\x0F\e\x18o\e\x1Ap\e\e7"#
                    + #"\e\e\x80\e8q\e\x80[1mr\e\x07[0ms\e\xFF]0;t\x07u\e\x8BPq\e\\v\e\x00#8w\e\x80"#),
            rows: 6, columns: 12)
        #expect(model.text(row: 0).hasPrefix("wEEE"))
    }

    @Test func resetAmongBinaryBytesAgreesWithTheTable() {
        let model = screenEverySplit(bytes(#"\e[?7l\e[31mab\e(0q\e\x80\x0Ac\e\x9Bcd\x80\e\x0E"#), rows: 3, columns: 8)
        #expect(model.text(row: 0).hasPrefix("d"))
    }

    @Test func aDCSStringEndsOnlyAtItsTerminatorWhateverEscapesItHolds() {
        // An ESC inside it and the byte after it are payload, also a second ESC (so `\e\e\\`
        // does not end it), CAN, SUB and the start of a control sequence; `\e\\` ends it.
        let parser = modesEverySplit(
            bytes(
                #"\ePq\e\e\\\ex\e[?1049h\x18\x1A\e\x80\e\e\e]0;x\x07\e[?2004h\e"#
                    + #"\e\e\\\e[?1h"#))
        #expect(!parser.modes.alternateScreen)
        #expect(!parser.modes.isSet(privateMode: 2004))
        #expect(parser.modes.isSet(privateMode: 1))
        #expect(parser.isAtBoundary)
        screenEverySplit(bytes(#"a\eP1$q\e\e\\\eAm\x80\e\\b\eP+q\e7\e\\\e8c"#), rows: 3, columns: 8)
    }

    @Test func controlsInsideIgnoredStringsDoNothing() {
        // SOS, PM, APC and an ignored DCS let controls pass, printing nothing and moving no
        // cursor; CAN, SUB and ESC end them (a DCS ignored only at ESC, CAN or SUB).
        let model = screenEverySplit(
            bytes(
                #"a\eXb\x08\x0A\x09c\x07\x00d\x18e\e^f\x0D\x0Ag\x1Ah\e_i\x0A\x0Bj\e\\k\eP1:l\x0Am\x09\e\\n"#
                    + #"\eP1;?o\x0A\x1Ap\e]0;x\x0Ay\x07q\ekr\x0As\e\\t"#),
            rows: 3, columns: 12)
        #expect(model.text(row: 0) == "aehknpqt    ")
    }

    @Test func randomBytesDenseWithEscapesAgreeWithTheTable() {
        // Binary bytes with an ESC every few bytes, before every kind of byte.
        var random = SplitMix64(seed: 0xE5C)
        let pieces: [[UInt8]] = [
            [0x1B], [0x1B], [0x1B, 0x1B], [0x1B, 0x5C], bytes(#"\eP"#), bytes(#"\e["#), bytes(#"\e("#), [0x08],
            [0x09], [0x0A], [0x0D], [0x0E], [0x0F], [0x18], [0x1A], [0x07], [0x80], [0xFF], [0xC3, 0xA9],
            [0xCC, 0x81], [0xE4, 0xB8, 0x80], bytes("78DEMHc#("),
        ]
        for _ in 0..<40 {
            let input = random.binaryBytes(count: 200, pieces: pieces, choices: 3, longestRun: 4)
            screenEverySplit(input, rows: 4, columns: 10)
        }
    }
}

import PTYKit
import Testing

/// The controls the gathering of text among binary bytes passes (BS, HT, LF, VT, FF, CR, SO,
/// SI: noted among the cells and executed between their runs, ccell_gather_text): whole
/// against every split, byte by byte (where nothing is gathered) and plainly.
@Suite("ScreenModel controls passed among gathered text")
struct ScreenGatheredControlsTests {
    /// Each control after text, after a control that only ends REP's character and after a
    /// two-byte character, then REP (which must repeat nothing after it): at the bottom
    /// margin, in newline mode, in insert mode, between left and right margins, without
    /// autowrap, at a pending wrap and shifted into the DEC graphics set by SO.
    @Test func eachControlPassedAgreesWithTheTable() {
        for control in [#"\b"#, #"\t"#, #"\n"#, #"\x0B"#, #"\x0C"#, #"\r"#, #"\x0E"#, #"\x0F"#] {
            screenEverySplit(
                bytes(
                    #"\e)0ab\x80"# + control + #"c\x80d\x07"# + control + #"\e[2bq\x80\xC3\xA9"# + control
                        + #"\e[3b\x80x\x80\xC2\x85"# + control + #"y\e[2b\x0F\r\n"#
                        + #"\e[2;4r\e[4Hlow\x80"# + control + #"er\x80\x0Blast\x80"# + control + #"\e[r\e[20h"#
                        + #"nl\x80"# + control + #"mode\x80\e[20l\e[1;4H\e[4hins\x80"# + control
                        + #"ert\x80\e[4l\e[?69h\e[3;7s\e[2;5Hmargins\x80"# + control + #"and\x80more\e[?69l"#
                        + #"\e[5;1H\e[?7lno\x80wrap\x80past\x80the\x80edge\x80"# + control + #"z\e[?7h"#
                        + #"\e[6;9Hedge\x80"# + control + #"\x80w\e[6;9Hpend\x80\x01"# + control + #"\x0F"#),
                rows: 7, columns: 12)
        }
    }

    /// More controls than a gathering notes (32): it stops at the next and goes on after it;
    /// wide characters and combining marks still stop it, cut short or malformed ones not.
    @Test func manyControlsAndCharactersThatStopAgreeWithTheTable() {
        var input: [UInt8] = []
        for index in 0..<80 {
            input += bytes(#"a\x80"#) + [[0x0D, 0x0A, 0x08, 0x09][index % 4]] + bytes(#"\xFFb"#)
            if index % 9 == 0 { input += bytes(#"\xE4\xB8\x80\x80\xCC\x81\xE2\x9B\xED\xA0\x80"#) }
        }
        screenEverySplit(input + bytes(#"\e[3b"#), rows: 6, columns: 16)
    }

    /// Random binary bytes heavy in the controls passed, with text, two-byte characters of
    /// every kind, wide ones, combining marks, UTF-8 cut short and malformed, C1 controls,
    /// REP, and the modes the controls act on switched among them.
    @Test func randomBinaryBytesWithControlsAgreeWithTheTable() {
        var random = SplitMix64(seed: 0xB7EA)
        let pieces: [[UInt8]] = [
            [0x08], [0x09], [0x0A], [0x0B], [0x0C], [0x0D], [0x0E], [0x0F], [0x00], [0x07], [0x80], [0x9B], [0xFF],
            [0x7F], [0x18], [0xC3, 0xA9], [0xC2, 0x85], [0xCC, 0x81], [0xE4, 0xB8, 0x80], [0xE2, 0x9B], [0xC3],
            [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98, 0x80], bytes(#"\e[2b"#), bytes(#"\e[4h"#), bytes(#"\e[4l"#),
            bytes(#"\e[?7l"#), bytes(#"\e[?7h"#), bytes(#"\e[20h"#), bytes(#"\e[20l"#), bytes(#"\e[2;4r"#),
            bytes(#"\e[r"#), bytes(#"\e[?69h\e[2;6s"#), bytes(#"\e[?69l"#), bytes(#"\e(0"#), bytes(#"\e(B"#),
        ]
        for _ in 0..<60 {
            let input = random.binaryBytes(
                startingWith: bytes(#"\e)0"#), count: 160, pieces: pieces, choices: 4, longestRun: 6)
            screenEverySplit(input, rows: 5, columns: 10)
        }
    }

    /// Long runs of binary bytes without ESC, gathered a block (16 or 32 bytes) at a step:
    /// controls, two-byte characters of every kind and longer characters cut short or
    /// malformed taken inside a block, at its end and across it, and those that stop the
    /// gathering (combining marks, complete characters of three or four bytes) among them;
    /// then REP, which must repeat what came last.
    @Test func longBinaryRunsTakenInBlocksAgreeWithTheTable() {
        var random = SplitMix64(seed: 0xB10C)
        let pieces: [[UInt8]] = [
            [0x08], [0x09], [0x0A], [0x0D], [0x0E], [0x0F], [0x00], [0x07], [0x80], [0xFF], [0x7F], [0x1A],
            [0xC3, 0xA9], [0xD0, 0x96], [0xC2, 0x85], [0xCC, 0x81], [0xC3], [0xE4, 0xB8], [0xE4, 0xB8, 0x80],
            [0xED, 0xA0, 0x80], [0xE0, 0x80, 0x80], [0xF0, 0x9F, 0x98], [0xF0, 0x9F, 0x98, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x9B],
        ]
        for round in 0..<24 {
            var input = bytes(#"\e)0"#)
            while input.count < 320 {
                let pick = random.next()
                switch pick % 8 {
                case 0, 1: input += (0..<Int((pick >> 8) % 24)).map { _ in UInt8(32 + random.next() % 95) }
                case 2: input.append(UInt8(truncatingIfNeeded: pick >> 8) | 0x80)
                case 3 where round % 4 == 0 && (pick >> 8) % 16 == 0: input += bytes(#"\e[2b"#)
                default: input += pieces[Int((pick >> 8) % UInt64(pieces.count))]
                }
            }
            screenEverySplit(input + bytes(#"\e[3b"#), rows: 6, columns: 40)
        }
    }
}

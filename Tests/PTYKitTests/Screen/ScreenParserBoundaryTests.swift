import PTYKit
import Testing

@Suite("ScreenModel parser feedUntilBoundary")
struct ScreenParserBoundaryTests {
    private func parser(after prefix: String) -> ModelStream {
        var parser = ModelStream()
        parser.feed(bytes(prefix))
        return parser
    }

    @Test func consumesNothingAtABoundary() {
        var parser = parser(after: #"text\e[?1049h"#)
        #expect(parser.feedUntilBoundary(bytes(#"\e[?25l"#)) == 0)
        #expect(parser.modes.cursorVisible)
        #expect(parser.feedUntilBoundary([UInt8]()) == 0)
    }

    @Test func finishesAControlSequence() {
        var parser = parser(after: #"\e[?10"#)
        #expect(parser.feedUntilBoundary(bytes(#"49hXYZ"#)) == 3)
        #expect(parser.isAtBoundary)
        #expect(parser.modes.alternateScreen)
    }

    @Test func finishesAnOSCEndedByBEL() {
        var parser = parser(after: #"\e]0;ti"#)
        #expect(parser.feedUntilBoundary(bytes(#"tle\amore"#)) == 4)
        #expect(parser.isAtBoundary)
        #expect(parser.modes.titleWasSet)
    }

    @Test func finishesAnOSCEndedByST() {
        var parser = parser(after: #"\e]2;title"#)
        #expect(parser.feedUntilBoundary(bytes(#"\e\\more"#)) == 2)
        #expect(parser.isAtBoundary)
    }

    @Test func stopsRightAfterAnESCThatEndsAString() {
        // ESC ends the OSC; the boundary comes after the escape sequence it starts.
        var parser = parser(after: #"\e]2;ti"#)
        #expect(parser.feedUntilBoundary(bytes(#"tle\e7rest"#)) == 5)
        #expect(parser.isAtBoundary)
    }

    @Test func aDCSEndsOnlyAtST() {
        // As in tmux: neither CAN, SUB nor ESC followed by anything but a backslash ends it.
        var parser = parser(after: #"\ePq#0;2"#)
        let payload = bytes(#";0\e7\x18\x1A\e\e\\\e[?1049h"#)
        #expect(parser.feedUntilBoundary(payload) == payload.count)
        #expect(!parser.isAtBoundary)
        #expect(parser.feedUntilBoundary(bytes(#"\e\\rest"#)) == 2)
        #expect(parser.isAtBoundary)
        #expect(!parser.modes.alternateScreen)
    }

    @Test func finishesAUTF8Character() {
        var parser = parser(after: #"\xE2\x82"#)
        #expect(!parser.isAtBoundary)
        #expect(parser.feedUntilBoundary(bytes(#"\xACA"#)) == 1)
        #expect(parser.isAtBoundary)
    }

    @Test func aCharacterCutShortEndsBeforeTheByteThatCutsIt() {
        // As `feed` and `lastBoundary` count it (a screen-model fuzz finding: the open
        // sequence of a read fed to the boundary first began at the character).
        for next in [#"\e[31"#, #"\xCE\xCE"#, #"A"#] {
            var parser = parser(after: #"\xE2\x82"#)
            #expect(parser.feedUntilBoundary(bytes(next)) == 0, "\(next)")
            #expect(parser.isAtBoundary, "\(next)")
        }
    }

    @Test func continuationByte0x9BIsNotCSI() {
        // "⛄" is E2 9B 84: its 0x9B must neither start a sequence nor end the character.
        var parser = parser(after: #"\xE2"#)
        #expect(parser.feedUntilBoundary(bytes(#"\x9B\x84?1049h"#)) == 2)
        #expect(parser.isAtBoundary)
        parser.feed(bytes(#"?1049h"#))
        #expect(!parser.modes.alternateScreen)
    }

    @Test func aStrayC1ByteIsAlreadyABoundary() {
        var parser = parser(after: #"abc\x9B"#)
        #expect(parser.isAtBoundary)
        #expect(parser.feedUntilBoundary(bytes(#"?1049h"#)) == 0)
    }

    @Test func neverEndingOSCConsumesEverything() {
        var parser = parser(after: #"\e]2;"#)
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: 100_000)
        #expect(parser.feedUntilBoundary(payload) == payload.count)
        #expect(!parser.isAtBoundary)
        #expect(parser.feedUntilBoundary(payload + [0x07]) == payload.count + 1)
        #expect(parser.isAtBoundary)
        #expect(parser.modes.titleWasSet)
    }

    @Test func neverEndingDCSConsumesEverything() {
        var parser = parser(after: #"\eP"#)
        let payload = bytes(#"q#0;2;0;0;0\r\n"#)
        for _ in 0..<1_000 {
            #expect(parser.feedUntilBoundary(payload) == payload.count)
        }
        #expect(!parser.isAtBoundary)
    }

    private func cut(_ parser: inout ModelStream) {
        parser.feed(ModelStream.cut)
    }

    @Test func cutReturnsToGroundAndKeepsModes() {
        var parser = parser(after: #"\e[?1000h\e[>1u\e[?10"#)
        #expect(!parser.isAtBoundary)
        cut(&parser)
        #expect(parser.isAtBoundary)
        #expect(parser.modes.isSet(privateMode: 1000))
        #expect(parser.modes.kittyKeyboardFlags == 1)
        // What follows is read afresh, not as the rest of the cut sequence.
        parser.feed(bytes(#"49h\e[?2004h"#))
        #expect(!parser.modes.alternateScreen)
        #expect(parser.modes.isSet(privateMode: 2004))
    }

    @Test func cutOSCTitleCountsAsSet() {
        // tmux applies an OSC cut by CAN.
        var parser = parser(after: #"\e]2;never ending"#)
        cut(&parser)
        #expect(parser.isAtBoundary)
        #expect(parser.modes.titleWasSet)
    }

    @Test func cutForgetsAPartialCharacter() {
        var parser = parser(after: #"\xF0\x9D"#)
        cut(&parser)
        #expect(parser.isAtBoundary)
        parser.feed(bytes(#"\x84"#))  // now a stray continuation byte
        #expect(parser.isAtBoundary)
    }

    @Test func cutEndsADCSThatTmuxKeepsOpen() {
        for prefix in [#"\ePq"#, #"\ePq\ex"#, #"\ePq\x18"#, #"\ePq\e"#, #"\ePtmux;\e\e_Gf=100;AA\e\e\\"#] {
            var parser = parser(after: prefix)
            #expect(!parser.isAtBoundary, "\(prefix)")
            cut(&parser)
            #expect(parser.isAtBoundary, "\(prefix)")
        }
    }

    @Test func cutReachesABoundaryFromEveryState() {
        // Every state the parser can be in, reached by some prefix, and a byte after it.
        let prefixes = [
            "", #"\e"#, #"\e("#, #"\e[", #"\e[1"#, #"\e[?1$"#, #"\e[1:"#, #"\eP"#, #"\eP1"#, #"\eP1$"#,
            #"\ePq"#, #"\ePq\e"#, #"\eP:"#, #"\e]"#, #"\e]2;x"#, #"\eX"#, #"\e^"#, #"\e_"#, #"\ek"#,
            #"\xE2"#, #"\xF0\x9F\x98"#,
        ]
        for prefix in prefixes {
            for byte in UInt8.min...UInt8.max {
                var parser = parser(after: prefix)
                parser.feed([byte])
                cut(&parser)
                #expect(parser.isAtBoundary, "\(prefix) then \(byte)")
            }
        }
    }

    @Test func lastBoundaryFindsWhereTheOpenSequenceBegan() {
        let chunk = bytes(#"ab\e[1mcd\e]2;tit"#)
        chunk.withUnsafeBytes { buffer in
            #expect(ModelStream().lastBoundary(in: buffer) == 8)
            #expect(parser(after: #"\e]2;"#).lastBoundary(in: buffer) == 8)  // ESC ends the OSC
            #expect(parser(after: #"\ePq"#).lastBoundary(in: buffer) == nil)  // nothing ends the DCS
            #expect(parser(after: #"\xE2\x82"#).lastBoundary(in: buffer) == 8)
            #expect(parser(after: "").lastBoundary(in: UnsafeRawBufferPointer(rebasing: buffer[..<2])) == 2)
        }
    }
}

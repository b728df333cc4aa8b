import PTYKit
import Testing

@Suite("OutputParser feedUntilBoundary")
struct OutputParserBoundaryTests {
    private func parser(after prefix: String) -> OutputParser {
        var parser = OutputParser()
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
        // ESC ends the DCS; the boundary comes after the escape sequence it starts.
        var parser = parser(after: #"\ePq#0;2"#)
        #expect(parser.feedUntilBoundary(bytes(#";0\e7rest"#)) == 4)
        #expect(parser.isAtBoundary)
    }

    @Test func finishesAUTF8Character() {
        var parser = parser(after: #"\xE2\x82"#)
        #expect(!parser.isAtBoundary)
        #expect(parser.feedUntilBoundary(bytes(#"\xACA"#)) == 1)
        #expect(parser.isAtBoundary)
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

    @Test func abandonSequenceReturnsToGroundAndKeepsModes() {
        var parser = parser(after: #"\e[?1000h\e[>1u\e]2;never ending"#)
        #expect(!parser.isAtBoundary)
        parser.abandonSequence()
        #expect(parser.isAtBoundary)
        #expect(parser.modes.isSet(privateMode: 1000))
        #expect(parser.modes.kittyKeyboardFlags == 1)
        #expect(!parser.modes.titleWasSet)
        // What follows is read afresh, not as the rest of the OSC.
        parser.feed(bytes(#"\e[?2004h"#))
        #expect(parser.modes.isSet(privateMode: 2004))
    }

    @Test func abandonSequenceForgetsAPartialCharacter() {
        var parser = parser(after: #"\xF0\x9D"#)
        parser.abandonSequence()
        #expect(parser.isAtBoundary)
        parser.feed(bytes(#"\x84"#))  // now a stray continuation byte
        #expect(parser.isAtBoundary)
    }

    @Test func abandonSequenceDropsHalfAControlSequence() {
        var parser = parser(after: #"\e[?10"#)
        parser.abandonSequence()
        parser.feed(bytes(#"49h"#))
        #expect(!parser.modes.alternateScreen)
        #expect(parser.isAtBoundary)
    }
}

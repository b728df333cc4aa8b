import PTYKit
import Testing

/// Malformed input in the spirit of tmux's regress/input-malformed.sh.
@Suite("ScreenModel parser malformed input")
struct ScreenParserMalformedTests {
    @Test func tooManyParametersKeepTheFirstSixteen() {
        let firstSixteen = String(repeating: "1;", count: 15) + "2004"
        var parser = modesEverySplit(bytes(#"\e[?"# + firstSixteen + ";1049h"))
        #expect(parser.modes.isSet(privateMode: 1))
        #expect(parser.modes.isSet(privateMode: 2004))
        #expect(!parser.modes.alternateScreen)

        parser.feed(bytes(#"\e[?"# + String(repeating: "1;", count: 100) + "1049h"))
        #expect(!parser.modes.alternateScreen)
        #expect(parser.isAtBoundary)
    }

    @Test func longParameterIsCutByCAN() {
        let parser = modesEverySplit(bytes(#"\e["# + String(repeating: "1", count: 80) + #"\x18OK"#))
        #expect(parser.isAtBoundary)
        #expect(parser.modes == ScreenModes.initial)
    }

    @Test func intermediatesAreCutByCAN() {
        let parser = modesEverySplit(bytes(#"\e[    \x18OK"#))
        #expect(parser.isAtBoundary)
    }

    @Test func hugeNumbersSaturateWithoutOverflow() {
        let huge = String(repeating: "9", count: 400)
        var parser = modesEverySplit(bytes(#"\e[?"# + huge + ";1049h"))
        #expect(parser.modes.alternateScreen)
        #expect(parser.isAtBoundary)

        parser.feed(bytes(#"\e[?"# + "65536" + "h"))  // saturates to 65535, not wraps to 0
        parser.feed(bytes(#"\e[?"# + "4294968345" + "h"))  // 2^32 + 1049 must not wrap to 1049
        #expect(parser.modes.isSet(privateMode: 1049))
        #expect(!parser.modes.isSet(privateMode: 1))

        parser.feed(bytes(#"\e[>"# + huge + "u" + #"\e[>4;"# + huge + "m"))
        #expect(parser.modes.kittyKeyboardFlags == 65_535)
        #expect(parser.modes.modifyOtherKeys == 65_535)
        parser.feed(bytes(#"\e[<"# + huge + "u"))
        #expect(parser.modes.kittyKeyboardFlags == 0)
        parser.feed(bytes(#"\e]"# + huge + #";x\a"#))
        #expect(!parser.modes.titleWasSet)
    }

    @Test(arguments: [#"\x18"#, #"\x1A"#])
    func cancelAbortsEverySequenceKind(_ cancel: String) {
        let openings = [
            #"\e"#, #"\e("#, #"\e[?10"#, #"\e[?1049$"#, #"\e[38:5"#, #"\eP1"#, #"\eP1$"#, #"\eP:"#, #"\eX"#,
        ]
        for opening in openings {
            let parser = modesEverySplit(bytes(opening + cancel + "49h"))
            #expect(parser.isAtBoundary, "\(opening)")
            #expect(parser.modes == ScreenModes.initial, "\(opening)")
        }
        // The strings tmux applies however they end.
        for opening in [#"\e]2;t"#, #"\e_G"#, #"\ekname"#] {
            let parser = modesEverySplit(bytes(opening + cancel + "49h"))
            #expect(parser.isAtBoundary, "\(opening)")
            #expect(parser.modes.titleWasSet || parser.modes.windowNameWasSet, "\(opening)")
        }
        // Except in a DCS string, which tmux ends only at ESC \.
        let parser = modesEverySplit(bytes(#"\eP1$q"# + cancel + "49h"))
        #expect(!parser.isAtBoundary)
    }

    @Test func escapeInsideAControlSequenceRestarts() {
        let parser = modesEverySplit(bytes(#"\e[?1000\e[?2004h"#))
        #expect(parser.modes.isSet(privateMode: 2004))
        #expect(!parser.modes.isSet(privateMode: 1000))
        #expect(parser.isAtBoundary)
    }

    @Test func controlsInsideAControlSequenceAreExecutedInPlace() {
        let parser = modesEverySplit(bytes(#"\e[?10\r\n\b\x7F49h"#))
        #expect(parser.modes.alternateScreen)
    }

    @Test func dcsWithEscapeNotFollowedByStringTerminator() {
        // tmux keeps the DCS open: what follows is payload until ESC \.
        var parser = modesEverySplit(bytes(#"\eP1$q\e[?1049h"#))
        #expect(!parser.modes.alternateScreen)
        #expect(!parser.isAtBoundary)

        parser = modesEverySplit(bytes(#"\ePq#0;2;0;0;0\ex"#))
        #expect(!parser.isAtBoundary)
        parser = modesEverySplit(bytes(#"\ePq\e\e[?2004h\e\\\e[?1004h"#))
        #expect(!parser.modes.isSet(privateMode: 2004))
        #expect(parser.modes.isSet(privateMode: 1004))
        #expect(parser.isAtBoundary)
    }

    @Test func unknownSequencesArePassedOver() {
        let parser = modesEverySplit(bytes(#"\e[?9999zOK\e]999;bad\aOK\e[>9999;9999q\e%G\e[=c"#))
        #expect(parser.modes == ScreenModes.initial)
        #expect(parser.isAtBoundary)
    }

    @Test func malformedOSCsDoNotSetTheTitle() {
        let parser = modesEverySplit(
            bytes(
                #"\e]8;id=a:id=b;http://bad\aX\e]8;id=no-separator\aY\e]9;4;5;200\a\e]52bad\a\e]52;c;@@@\aOK"#))
        #expect(parser.modes == ScreenModes.initial)
        #expect(parser.isAtBoundary)
    }

    /// An OSC without a number sets nothing, as in tmux and Ghostty (xterm reads it as 0).
    @Test func anOSCWithoutANumberIsNotATitle() {
        let model = ScreenModel(rows: 2, columns: 10)
        model.feed(bytes(#"\e]2;kept\e\\\e];;\e\\\e];new\aOK"#))
        #expect(model.title == Array("kept".utf8))
        #expect(model.iconName == nil)
        #expect(model.titleSets == 1)
    }

    @Test func kittyStackIsBoundAndEvictsTheOldest() {
        var parser = ModelStream()
        for flags in 1...17 {
            parser.feed(bytes(#"\e[>"# + "\(flags)u"))
        }
        #expect(parser.modes.kittyKeyboardFlags == 17)
        parser.feed(bytes(#"\e[<15u"#))
        #expect(parser.modes.kittyKeyboardFlags == 2)
        parser.feed(bytes(#"\e[<u"#))
        #expect(parser.modes.kittyKeyboardFlags == 0)

        for _ in 0..<10_000 {
            parser.feed(bytes(#"\e[>1u"#))
        }
        parser.feed(bytes(#"\e[<16u"#))
        #expect(parser.modes.kittyKeyboardFlags == 0)
    }
}

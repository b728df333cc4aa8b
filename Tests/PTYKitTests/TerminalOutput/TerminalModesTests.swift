import PTYKit
import Testing

@Suite("TerminalModes input off/restore sequences")
struct TerminalModesTests {
    private func modes(after output: String) -> TerminalModes {
        var parser = OutputParser()
        parser.feed(bytes(output))
        return parser.modes
    }

    private func text(_ sequence: [UInt8]) -> String {
        String(decoding: sequence, as: UTF8.self).replacingEscapes()
    }

    @Test func initialState() {
        let modes = TerminalModes.initial
        #expect(modes.cursorVisible)
        #expect(!modes.alternateScreen)
        #expect(!modes.titleWasSet)
        #expect(!modes.applicationKeypad)
        #expect(modes.kittyKeyboardFlags == 0)
        #expect(modes.modifyOtherKeys == 0)
        #expect(modes.isSet(privateMode: 25))
        #expect(!modes.isSet(privateMode: 1049))
        #expect(modes.inputModesOffSequence.isEmpty)
        #expect(modes.inputModesRestoreSequence.isEmpty)
        #expect(OutputParser().modes == .initial)
        #expect(OutputParser().isAtBoundary)
    }

    @Test func screenAndCursorModesAreNotInputModes() {
        let modes = modes(after: #"\e[?1049h\e[?25l\e]2;title\a"#)
        #expect(modes.inputModesOffSequence.isEmpty)
        #expect(modes.inputModesRestoreSequence.isEmpty)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let output: String
        let off: String
        let restore: String
        var testDescription: String { output }
    }

    static let cases: [Case] = [
        Case(output: #"\e[?1h"#, off: #"\e[?1l"#, restore: #"\e[?1h"#),
        Case(output: #"\e[?1000;1006h"#, off: #"\e[?1000l\e[?1006l"#, restore: #"\e[?1000h\e[?1006h"#),
        Case(output: #"\e[?1000h\e[?1003h\e[?1015h"#, off: #"\e[?1003l\e[?1015l"#, restore: #"\e[?1003h\e[?1015h"#),
        Case(output: #"\e[?9h"#, off: #"\e[?9l"#, restore: #"\e[?9h"#),
        Case(output: #"\e[?1001h\e[?1005h"#, off: #"\e[?1001l\e[?1005l"#, restore: #"\e[?1001h\e[?1005h"#),
        Case(output: #"\e[?1002h\e[?1016h"#, off: #"\e[?1002l\e[?1016l"#, restore: #"\e[?1002h\e[?1016h"#),
        Case(output: #"\e[?1004h"#, off: #"\e[?1004l"#, restore: #"\e[?1004h"#),
        Case(output: #"\e[?2004h"#, off: #"\e[?2004l"#, restore: #"\e[?2004h"#),
        Case(output: #"\e="#, off: #"\e>"#, restore: #"\e="#),
        Case(output: #"\e[>1u"#, off: #"\e[>0u"#, restore: #"\e[<u"#),
        Case(output: #"\e[=3u"#, off: #"\e[>0u"#, restore: #"\e[<u"#),
        Case(output: #"\e[>1u\e[>0u"#, off: "", restore: ""),
        Case(output: #"\e[>4;2m"#, off: #"\e[>4;0m"#, restore: #"\e[>4;2m"#),
        Case(output: #"\e[>4;1m"#, off: #"\e[>4;0m"#, restore: #"\e[>4;1m"#),
        Case(
            output: #"\e[?1049h\e[?1h\e=\e[?1002;1006;1004;2004h\e[>5u\e[>4;2m"#,
            off: #"\e[?1l\e[?1002l\e[?1004l\e[?1006l\e[?2004l\e>\e[>0u\e[>4;0m"#,
            restore: #"\e[?1h\e[?1002h\e[?1004h\e[?1006h\e[?2004h\e=\e[<u\e[>4;2m"#),
    ]

    @Test(arguments: cases)
    func offAndRestoreSequences(_ testCase: Case) {
        let modes = modes(after: testCase.output)
        #expect(text(modes.inputModesOffSequence) == testCase.off)
        #expect(text(modes.inputModesRestoreSequence) == testCase.restore)
    }

    /// The sequences, parsed like program output, turn every input mode off and then lead
    /// back to exactly the modes before.
    @Test(arguments: cases)
    func offThenRestoreRoundTrips(_ testCase: Case) {
        var parser = OutputParser()
        parser.feed(bytes(testCase.output))
        let before = parser.modes

        parser.feed(before.inputModesOffSequence)
        #expect(parser.modes.inputModesOffSequence.isEmpty)
        #expect(parser.modes.inputModesRestoreSequence.isEmpty)
        #expect(parser.modes.kittyKeyboardFlags == 0)
        #expect(parser.modes.modifyOtherKeys == 0)
        #expect(!parser.modes.applicationKeypad)
        #expect(parser.modes.alternateScreen == before.alternateScreen)
        #expect(parser.isAtBoundary)

        parser.feed(before.inputModesRestoreSequence)
        #expect(parser.modes == before)
    }

    @Test func alternateScreenFollowsEachOfItsModes() {
        for mode in [47, 1047, 1049] {
            let modes = modes(after: #"\e[?"# + "\(mode)h")
            #expect(modes.alternateScreen, "\(mode)")
            #expect(modes.isSet(privateMode: mode), "\(mode)")
        }
    }

    @Test func untrackedModesReadAsOff() {
        let modes = modes(after: #"\e[?1048;12;7727;2026h"#)
        for mode in [0, -1, 12, 66, 1048, 2026, 7727, Int.max] {
            #expect(!modes.isSet(privateMode: mode), "\(mode)")
        }
        #expect(modes == .initial)
    }
}

extension String {
    /// ESC shown as `\e`, to compare sequences in the notation the tests write them in.
    fileprivate func replacingEscapes() -> String {
        var result = ""
        for character in self {
            result += character == "\u{1B}" ? #"\e"# : String(character)
        }
        return result
    }
}

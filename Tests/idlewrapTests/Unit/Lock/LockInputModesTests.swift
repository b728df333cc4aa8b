import PTYKit
import Testing

@testable import idlewrap

@Suite("Lock input modes off/restore sequences")
struct LockInputModesTests {
    /// Sequences are written with `\e` for ESC and `\a` for BEL.
    private func bytes(_ notation: String) -> [UInt8] {
        var result: [UInt8] = []
        var escaped = false
        for byte in notation.utf8 {
            if escaped {
                result.append(byte == UInt8(ascii: "e") ? 0x1B : byte == UInt8(ascii: "a") ? 0x07 : byte)
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else {
                result.append(byte)
            }
        }
        return result
    }

    private func feed(_ parser: inout OutputParser, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { parser.feed($0) }
    }

    private func modes(after output: String) -> TerminalModes {
        var parser = OutputParser()
        feed(&parser, bytes(output))
        return parser.modes
    }

    private func text(_ sequence: [UInt8]) -> String {
        String(decoding: sequence, as: UTF8.self).map { $0 == "\u{1B}" ? #"\e"# : String($0) }.joined()
    }

    @Test func nothingToTurnOffAtFirst() {
        #expect(LockInputModes.offSequence(for: .initial).isEmpty)
        #expect(LockInputModes.restoreSequence(for: .initial).isEmpty)
    }

    @Test func screenAndCursorModesAreNotInputModes() {
        let modes = modes(after: #"\e[?1049h\e[?25l\e]2;title\a"#)
        #expect(LockInputModes.offSequence(for: modes).isEmpty)
        #expect(LockInputModes.restoreSequence(for: modes).isEmpty)
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
        #expect(text(LockInputModes.offSequence(for: modes)) == testCase.off)
        #expect(text(LockInputModes.restoreSequence(for: modes)) == testCase.restore)
    }

    /// The sequences, parsed like program output, turn every input mode off and then lead
    /// back to exactly the modes before.
    @Test(arguments: cases)
    func offThenRestoreRoundTrips(_ testCase: Case) {
        var parser = OutputParser()
        feed(&parser, bytes(testCase.output))
        let before = parser.modes

        feed(&parser, LockInputModes.offSequence(for: before))
        #expect(LockInputModes.offSequence(for: parser.modes).isEmpty)
        #expect(LockInputModes.restoreSequence(for: parser.modes).isEmpty)
        #expect(parser.modes.kittyKeyboardFlags == 0)
        #expect(parser.modes.modifyOtherKeys == 0)
        #expect(!parser.modes.applicationKeypad)
        #expect(parser.modes.alternateScreen == before.alternateScreen)
        #expect(parser.isAtBoundary)

        feed(&parser, LockInputModes.restoreSequence(for: before))
        #expect(parser.modes == before)
    }
}

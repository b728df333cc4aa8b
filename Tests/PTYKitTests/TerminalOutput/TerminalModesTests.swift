import PTYKit
import Testing

@Suite("TerminalModes tracking")
struct TerminalModesTests {
    private func modes(after output: String) -> TerminalModes {
        var parser = OutputParser()
        parser.feed(bytes(output))
        return parser.modes
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
        #expect(OutputParser().modes == .initial)
        #expect(OutputParser().isAtBoundary)
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

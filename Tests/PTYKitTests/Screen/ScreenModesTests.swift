import PTYKit
import Testing

@Suite("ScreenModes tracking")
struct ScreenModesTests {
    private func modes(after output: String) -> ScreenModes {
        var parser = ModelStream()
        parser.feed(bytes(output))
        return parser.modes
    }

    @Test func initialState() {
        let modes = ScreenModes.initial
        #expect(modes.cursorVisible)
        #expect(!modes.alternateScreen)
        #expect(!modes.titleWasSet)
        #expect(!modes.applicationKeypad)
        #expect(modes.kittyKeyboardFlags == 0)
        #expect(modes.modifyOtherKeys == 0)
        #expect(modes.isSet(privateMode: 25))
        #expect(!modes.isSet(privateMode: 1049))
        #expect(ModelStream().modes == ScreenModes.initial)
        #expect(ModelStream().isAtBoundary)
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
        #expect(modes == ScreenModes.initial)
    }
}

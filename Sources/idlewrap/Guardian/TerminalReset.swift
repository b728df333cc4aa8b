import PTYKit

/// What the guardian sends when the session process that knew the terminal's state is
/// gone: every mode that makes the terminal send input by itself or encode keys
/// differently off, and the known state to draw from. Nothing here asks the terminal
/// anything or depends on what was on.
enum TerminalReset {
    static func append(to buffer: OutputBuffer) {
        for mode in ScreenModes.inputPrivateModes { buffer.append(.mode(mode, on: false)) }
        // KAM and SRM to their usual states, as every lock forces them: with no model to
        // say what the command left, the initial modes' forced switches are all of them.
        ScreenModes.initial.appendLockOutModesOff(to: buffer)
        buffer.append(.applicationKeypad(false))
        buffer.append(.resetModifyOtherKeys)
        // kitty's keyboard flags set to none (CSI = 0 ; 1 u), whatever the stack holds.
        buffer.append(contentsOf: Array("\u{1b}[=0;1u".utf8))
        buffer.append(.synchronizedOutput(false))
        ScreenModel.appendKnownState(autowrap: true, to: buffer)
    }

    /// Leaves the alternate screen for a cleared main screen, with the cursor shown at
    /// its top: the session's end, locked or not, shows nothing that was on the screen.
    static func appendLeaving(to buffer: OutputBuffer) {
        append(to: buffer)
        buffer.append(.mode(.alternateScreen1049, on: false))
        buffer.append(.cursorPosition(row: 1, column: 1))
        buffer.append(.eraseDisplay)
        buffer.append(.mode(.cursorVisible, on: true))
    }
}

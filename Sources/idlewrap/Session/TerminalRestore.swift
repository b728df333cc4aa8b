import PTYKit

/// The bytes that leave the terminal as idlewrap found it when the session
/// ends, whichever way it ends: what the command turned on and left on is
/// turned off, a lock screen still showing is cleared with everything the
/// lock pushed popped, and the alternate screen is left. Only what the output
/// is known to have turned on is undone, so a terminal in its usual state
/// gets no bytes at all, and no stack entry pushed before idlewrap started
/// is ever popped.
enum TerminalRestore {
    /// `modes` are the command's, as its output left them (the lock's
    /// `modesAtLock` when it is locked). `lockIsShown`: the lock screen, drawn
    /// by `LockScreen.enter(modes:)`, is still on the terminal; it is cleared,
    /// and so is the command's main screen, so nothing held back reappears.
    static func bytes(leaving modes: TerminalModes, lockIsShown: Bool, wipeScrollback: Bool) -> [UInt8] {
        var text = ""
        if lockIsShown {
            text += "\u{1b}[H\u{1b}[2J"
            // What the lock pushed, popped on the screen it pushed it on.
            if modes.kittyKeyboardFlags != 0 { text += "\u{1b}[<u" }
            if modes.titleWasSet { text += "\u{1b}[23;0t" }
            // tmux's automatic window name instead of the lock's.
            if modes.windowNameWasSet { text += "\u{1b}k\u{1b}\\" }
        } else {
            // The lock screen turned these off already.
            for mode in LockInputModes.privateModes where modes.isSet(privateMode: mode) { text += "\u{1b}[?\(mode)l" }
            if modes.applicationKeypad { text += "\u{1b}>" }
            if modes.modifyOtherKeys != 0 { text += "\u{1b}[>4m" }
        }
        let depth = modes.kittyKeyboardDepth
        if modes.alternateScreen {
            text += popKeyboard(depth.alternate)
        }
        if modes.alternateScreen || lockIsShown {
            text += "\u{1b}[?1049l"
        }
        if lockIsShown {
            text += "\u{1b}[H\u{1b}[2J" + (wipeScrollback ? "\u{1b}[3J" : "") + "\u{1b}[0m"
        }
        text += popKeyboard(depth.main)
        if lockIsShown || !modes.cursorVisible { text += "\u{1b}[?25h" }
        return Array(text.utf8)
    }

    private static func popKeyboard(_ count: Int) -> String {
        count > 0 ? "\u{1b}[<\(count)u" : ""
    }
}

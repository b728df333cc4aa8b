// The bytes that switch the input modes a program left on off and on again, from the one
// vocabulary (TerminalControl): for the lock (off while locked, on at the unlock) and for
// the end of a session (off for good, with the alternate screen left).

extension ScreenModes {
    /// The DEC private modes that make the terminal send input by itself or encode keys
    /// differently, in the order the sequences list them.
    public static let inputPrivateModes = [1, 9, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1015, 1016, 2004]

    /// For each input mode that is on, the control that turns it off and the one that
    /// turns it back on, so the two sequences cannot drift apart.
    private var inputSwitches: [(off: TerminalControl, on: TerminalControl)] {
        var switches = Self.inputPrivateModes.filter(isSet(privateMode:)).map { mode in
            (off: TerminalControl.privateMode(mode, on: false), on: TerminalControl.privateMode(mode, on: true))
        }
        if applicationKeypad {
            switches.append((off: .applicationKeypad(false), on: .applicationKeypad(true)))
        }
        if kittyKeyboardFlags != 0 {
            switches.append((off: .pushKeyboardFlags(0), on: .popKeyboardFlags(1)))
        }
        if modifyOtherKeys != 0 {
            switches.append((off: .modifyOtherKeys(0), on: .modifyOtherKeys(modifyOtherKeys)))
        }
        return switches
    }

    /// Turns OFF every input mode that is on: mouse modes, focus events, bracketed paste,
    /// application cursor keys and keypad, the kitty keyboard protocol (by pushing flags 0,
    /// on the stack of the screen then shown) and modifyOtherKeys. Nothing if none is on.
    public func appendInputModesOff(to buffer: OutputBuffer) {
        for item in inputSwitches { buffer.append(item.off) }
    }

    /// Turns exactly those modes back on (the kitty entry pushed by the off bytes is
    /// popped: write both on the same screen).
    public func appendInputModesOn(to buffer: OutputBuffer) {
        for item in inputSwitches { buffer.append(item.on) }
    }

    /// After a lock: `locked` are the modes whose input modes `locked.appendInputModesOff`
    /// turned off (the kitty entry it pushed popped again). Turns on those on now, which the
    /// program may have changed meanwhile, and brings the kitty keyboard stack of the screen
    /// shown now from what it was then to what it is: write it on that screen. (A change to
    /// the other screen's stack while locked is not brought over.)
    public func appendInputModesOn(after locked: ScreenModes, to buffer: OutputBuffer) {
        for mode in Self.inputPrivateModes where isSet(privateMode: mode) {
            buffer.append(.privateMode(mode, on: true))
        }
        if applicationKeypad { buffer.append(.applicationKeypad(true)) }
        if modifyOtherKeys != 0 { buffer.append(.modifyOtherKeys(modifyOtherKeys)) }
        let (then, now) =
            alternateScreen
            ? (locked.alternateScreenKeyboard, alternateScreenKeyboard)
            : (locked.mainScreenKeyboard, mainScreenKeyboard)
        guard then != now else { return }
        if then.depth > 0 { buffer.append(.popKeyboardFlags(then.depth)) }
        now.appendPushes(to: buffer)
    }

    /// What leaves the terminal as the program found it when it is gone for good: every
    /// input mode it left on off, the kitty entries it pushed popped on the screen it
    /// pushed them on, the alternate screen left, the cursor shown. Nothing for a terminal
    /// in its usual state.
    public func appendRestoreAtExit(to buffer: OutputBuffer) {
        for mode in Self.inputPrivateModes where isSet(privateMode: mode) {
            buffer.append(.privateMode(mode, on: false))
        }
        if applicationKeypad { buffer.append(.applicationKeypad(false)) }
        if modifyOtherKeys != 0 { buffer.append(.resetModifyOtherKeys) }
        let depth = kittyKeyboardDepth
        if alternateScreen {
            if depth.alternate > 0 { buffer.append(.popKeyboardFlags(depth.alternate)) }
            buffer.append(.privateMode(1049, on: false))
        }
        if depth.main > 0 { buffer.append(.popKeyboardFlags(depth.main)) }
        if !cursorVisible { buffer.append(.privateMode(25, on: true)) }
    }
}

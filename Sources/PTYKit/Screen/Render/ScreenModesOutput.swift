// The bytes that switch the input modes a program left on off and on again, from the one
// vocabulary (TerminalControl): for the lock (off while locked, on at the unlock) and for
// the end of a session (off for good, with the alternate screen left).
//
// Which modes, from xterm's ctlseqs, Windows Terminal, kitty, foot and WezTerm: every mode
// that makes the terminal send input by itself, or changes what the keys a password is
// typed with send (printable keys, Enter, Backspace, ^U, ^C), or keeps them from being sent.
//
// Off while locked, on again after:
// - mouse tracking (9, 1000-1003) and its encodings (1005, 1006, 1015, 1016), focus events
//   (1004), colour-scheme reports (2031: kitty, contour, foot) and in-band resize reports
//   (2048: kitty, foot, contour, WezTerm): input the terminal sends by itself;
// - bracketed paste (2004): markers around pasted text;
// - application cursor keys (DECCKM, 1) and keypad (DECKPAM, DECNKM 66): the keypad's
//   digits and Enter become escape sequences;
// - the kitty keyboard protocol and modifyOtherKeys (XTMODKEYS 4): keys as CSI u / CSI 27;
// - xterm's keyboard types (1050 termcap, 1051 Sun, 1052 HP, 1053 SCO, 1060 legacy, 1061
//   VT220), one at a time: function and keypad keys send other sequences;
// - win32-input-mode (9001, Windows Terminal, over ssh too): every key as
//   `CSI Vk;Sc;Uc;Kd;Cs;Rc _`, which the password prompt ignores;
// - KAM (ANSI mode 2): xterm ignores every key;
// - SRM reset (ANSI mode 12): xterm echoes every key itself, a password onto the lock
//   screen. (The lock sets SRM, the usual state; the unlock resets it again.)
// KAM, SRM and 9001 are turned off at every lock whatever the model believes
// (`appendLockOutModesOff`): a terminal that keeps one on that the model believes off
// (XTRESTORE, a soft reset it does not apply) would lock the password out, or show it.
//
// Left alone: what changes only keys typed with Alt or Meta, which a password does not need
// (1034 eight-bit meta, 1035 Alt and NumLock modifiers, 1036 and 1039 Meta and Alt send
// ESC), and the other XTMODKEYS resources (modifyCursorKeys, modifyFunctionKeys,
// modifyKeypadKeys, for modified keys only); DECBKM (67), as Backspace sends BS or DEL and
// the prompt erases with either; 1037 (keypad Delete sends DEL: erases too); alternate
// scroll (1007: the wheel sends arrow keys, which the prompt ignores); auto-repeat (DECARM
// 8). formatOtherKeys is a resource with no control sequence.

extension ScreenModes {
    /// The DEC private modes that make the terminal send input by itself or encode keys
    /// differently (their owner: the input side), in the order the sequences list them.
    public static let inputPrivateModes = ModeRow.rows.filter { $0.owner == .input && $0.isPrivate }.map(\.mode)

    /// For each input mode that is on, the control that turns it off and the one that
    /// turns it back on, so the two sequences cannot drift apart.
    private var inputSwitches: [(off: TerminalControl, on: TerminalControl)] {
        var switches = Self.inputPrivateModes.filter(isSet).map { mode in
            (off: TerminalControl.mode(mode, on: false), on: TerminalControl.mode(mode, on: true))
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
        switches += ansiSwitches
        return switches
    }

    /// The ANSI modes the input side keeps, KAM and SRM: each with whether the program
    /// turned it from its usual state.
    private var ansiKeyModes: [(mode: TerminalMode, changed: Bool)] {
        Self.ansiInputModes.map { ($0, isSet($0) != $0.row.usuallySet) }
    }

    private static let ansiInputModes = ModeRow.rows.filter { $0.owner == .input && !$0.isPrivate }.map(\.mode)

    /// KAM and SRM, where the program turned them from their usual state.
    private var ansiSwitches: [(off: TerminalControl, on: TerminalControl)] {
        ansiKeyModes.filter(\.changed).map { key in
            let usuallySet = key.mode.row.usuallySet
            return (off: .mode(key.mode, on: usuallySet), on: .mode(key.mode, on: !usuallySet))
        }
    }

    /// After `appendInputModesOff`, at a lock: KAM, SRM and win32-input-mode switched to
    /// their usual state even where the model believes them there already, so that no
    /// terminal keeps the password out or shows it.
    public func appendLockOutModesOff(to buffer: OutputBuffer) {
        for mode in Self.lockOutModes where isSet(mode) == mode.row.usuallySet {
            buffer.append(.mode(mode, on: mode.row.usuallySet))
        }
    }

    private static let lockOutModes = ModeRow.rows.filter(\.isLockOut).map(\.mode)

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
        for mode in Self.inputPrivateModes where isSet(mode) {
            buffer.append(.mode(mode, on: true))
        }
        if applicationKeypad { buffer.append(.applicationKeypad(true)) }
        if modifyOtherKeys != 0 { buffer.append(.modifyOtherKeys(modifyOtherKeys)) }
        for item in ansiSwitches { buffer.append(item.on) }
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
        for mode in Self.inputPrivateModes where isSet(mode) {
            buffer.append(.mode(mode, on: false))
        }
        if applicationKeypad { buffer.append(.applicationKeypad(false)) }
        if modifyOtherKeys != 0 { buffer.append(.resetModifyOtherKeys) }
        for item in ansiSwitches { buffer.append(item.off) }
        let depth = kittyKeyboardDepth
        if alternateScreen {
            if depth.alternate > 0 { buffer.append(.popKeyboardFlags(depth.alternate)) }
            buffer.append(.mode(.alternateScreen1049, on: false))
        }
        if depth.main > 0 { buffer.append(.popKeyboardFlags(depth.main)) }
        if !cursorVisible { buffer.append(.mode(.cursorVisible, on: true)) }
    }
}

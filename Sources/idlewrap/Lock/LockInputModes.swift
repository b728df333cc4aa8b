import PTYKit

/// The bytes the lock writes to the terminal so that typed keys arrive as plain bytes, and
/// the bytes that undo exactly that at unlock. `TerminalModes` says which modes the command
/// turned on; which of them get in the way of typing a password is the lock's choice.
enum LockInputModes {
    /// The DEC private modes that make the terminal send input by itself or encode keys
    /// differently, in the order the sequences list them.
    static let privateModes = [1, 9, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1015, 1016, 2004]

    /// Bytes that turn OFF every input-affecting mode that is on: mouse modes (9,1000-1003,
    /// 1005,1006,1015,1016), focus events 1004, bracketed paste 2004, application cursor keys 1,
    /// application keypad (ESC >), kitty keyboard (push flags 0: `CSI > 0 u` only if flags != 0),
    /// modifyOtherKeys (`CSI > 4 ; 0 m` if level != 0). Empty if nothing is on.
    ///
    /// The kitty push and its pop in `restoreSequence` act on the stack of the screen shown
    /// when they are written: write both on the same screen.
    static func offSequence(for modes: TerminalModes) -> [UInt8] {
        switches(for: modes).flatMap(\.off)
    }

    /// Bytes that turn exactly those modes back on afterwards (kitty: `CSI < u` pops what
    /// the off sequence pushed; modifyOtherKeys: `CSI > 4 ; n m`; keypad `ESC =`; DECSET h).
    static func restoreSequence(for modes: TerminalModes) -> [UInt8] {
        switches(for: modes).flatMap(\.on)
    }

    /// For each input mode that is on, the bytes that turn it off and those that turn it
    /// back on, so the two sequences cannot drift apart.
    private static func switches(for modes: TerminalModes) -> [(off: [UInt8], on: [UInt8])] {
        var switches = privateModes.filter(modes.isSet(privateMode:)).map { mode in
            (off: controlSequence("?\(mode)l"), on: controlSequence("?\(mode)h"))
        }
        if modes.applicationKeypad {
            switches.append((off: [0x1B, UInt8(ascii: ">")], on: [0x1B, UInt8(ascii: "=")]))
        }
        if modes.kittyKeyboardFlags != 0 {
            switches.append((off: controlSequence(">0u"), on: controlSequence("<u")))
        }
        if modes.modifyOtherKeys != 0 {
            switches.append((off: controlSequence(">4;0m"), on: controlSequence(">4;\(modes.modifyOtherKeys)m")))
        }
        return switches
    }

    private static func controlSequence(_ body: String) -> [UInt8] {
        [0x1B, UInt8(ascii: "[")] + Array(body.utf8)
    }
}

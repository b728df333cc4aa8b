// The bytes the lock writes to the terminal so that typed keys arrive as plain bytes, and
// the bytes that undo exactly that at unlock.

extension TerminalModes {
    /// The DEC private modes that make the terminal send input by itself or encode keys
    /// differently, in the order the sequences list them.
    static let inputPrivateModes = [1, 9, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1015, 1016, 2004]

    /// Bytes that turn OFF every input-affecting mode that is on: mouse modes (9,1000-1003,
    /// 1005,1006,1015,1016), focus events 1004, bracketed paste 2004, application cursor keys 1,
    /// application keypad (ESC >), kitty keyboard (push flags 0: `CSI > 0 u` only if flags != 0),
    /// modifyOtherKeys (`CSI > 4 ; 0 m` if level != 0). Empty if nothing is on.
    ///
    /// The kitty push and its pop in `inputModesRestoreSequence` act on the stack of the
    /// screen shown when they are written: write both on the same screen.
    public var inputModesOffSequence: [UInt8] {
        var bytes: [UInt8] = []
        for mode in Self.inputPrivateModes where isSet(privateMode: mode) {
            bytes += Self.controlSequence("?\(mode)l")
        }
        if applicationKeypad {
            bytes += [0x1B, UInt8(ascii: ">")]
        }
        if kittyKeyboardFlags != 0 {
            bytes += Self.controlSequence(">0u")
        }
        if modifyOtherKeys != 0 {
            bytes += Self.controlSequence(">4;0m")
        }
        return bytes
    }

    /// Bytes that turn exactly those modes back on afterwards (kitty: `CSI < u` pops what
    /// the off sequence pushed; modifyOtherKeys: `CSI > 4 ; n m`; keypad `ESC =`; DECSET h).
    public var inputModesRestoreSequence: [UInt8] {
        var bytes: [UInt8] = []
        for mode in Self.inputPrivateModes where isSet(privateMode: mode) {
            bytes += Self.controlSequence("?\(mode)h")
        }
        if applicationKeypad {
            bytes += [0x1B, UInt8(ascii: "=")]
        }
        if kittyKeyboardFlags != 0 {
            bytes += Self.controlSequence("<u")
        }
        if modifyOtherKeys != 0 {
            bytes += Self.controlSequence(">4;\(modifyOtherKeys)m")
        }
        return bytes
    }

    private static func controlSequence(_ body: String) -> [UInt8] {
        [0x1B, UInt8(ascii: "[")] + Array(body.utf8)
    }
}

// What each complete escape or control sequence does to TerminalModes. Everything not listed
// is ignored, notably the queries `CSI ? u` (kitty flags) and DECRQM, and XTSAVE/XTRESTORE
// (`CSI ? Pm s` / `CSI ? Pm r`): a restore can turn a mode back on unseen, which errs on the
// harmless side (see TerminalModes).

extension TerminalModes {
    mutating func applyEscapeSequence(final: UInt8, _ sequence: OutputParser.CollectedSequence) {
        guard sequence.intermediate == 0 else { return }
        switch final {
        case UInt8(ascii: "="): setApplicationKeypad(true)  // DECKPAM
        case UInt8(ascii: ">"): setApplicationKeypad(false)  // DECKPNM
        case UInt8(ascii: "c"): fullReset()  // RIS
        default: break
        }
    }

    /// A sequence without a private marker reaches here without its parameters, and one
    /// without an intermediate either mostly not at all: OutputParser skips them, since
    /// nothing listed with marker 0 takes parameters or lacks an intermediate.
    @inline(__always)
    mutating func applyControlSequence(final: UInt8, _ sequence: OutputParser.CollectedSequence) {
        // Most sequences (SGR, cursor moves, erases) have neither a private marker nor an
        // intermediate, and none of those is interpreted: decided without a call.
        guard sequence.marker | sequence.intermediate != 0, !sequence.hasExtraIntermediates else { return }
        applyMarkedControlSequence(final: final, sequence)
    }

    private mutating func applyMarkedControlSequence(final: UInt8, _ sequence: OutputParser.CollectedSequence) {
        switch (sequence.marker, sequence.intermediate, final) {
        case (UInt8(ascii: "?"), 0, UInt8(ascii: "h")):  // DECSET
            setPrivateModes(sequence, on: true)
        case (UInt8(ascii: "?"), 0, UInt8(ascii: "l")):  // DECRST
            setPrivateModes(sequence, on: false)
        case (0, UInt8(ascii: "!"), UInt8(ascii: "p")):  // DECSTR
            softReset()
        case (UInt8(ascii: ">"), 0, UInt8(ascii: "u")):  // kitty push
            pushKeyboardFlags(sequence.parameter(0, default: 0))
        case (UInt8(ascii: "<"), 0, UInt8(ascii: "u")):  // kitty pop; an explicit 0 pops nothing
            popKeyboardFlags(count: Int(sequence.parameter(0, default: 1)))
        case (UInt8(ascii: "="), 0, UInt8(ascii: "u")):  // kitty set
            changeKeyboardFlags(sequence.parameter(0, default: 0), mode: sequence.parameter(1, default: 1))
        case (UInt8(ascii: ">"), 0, UInt8(ascii: "m")):  // XTMODKEYS
            // Without parameters every resource is reset; a missing value resets one.
            if sequence.parameterCount == 0 {
                setModifyOtherKeys(0)
            } else if sequence.parameter(0, default: 0) == 4 {
                setModifyOtherKeys(Int(sequence.parameter(1, default: 0)))
            }
        case (UInt8(ascii: ">"), 0, UInt8(ascii: "n")):  // XTMODKEYS disable
            if sequence.parameter(0, default: 0) == 4 {
                setModifyOtherKeys(0)
            }
        default:
            break
        }
    }

    private mutating func setPrivateModes(_ sequence: OutputParser.CollectedSequence, on: Bool) {
        for index in 0..<sequence.parameterCount {
            setPrivateMode(Int(sequence.parameter(index, default: 0)), on: on)
        }
    }
}

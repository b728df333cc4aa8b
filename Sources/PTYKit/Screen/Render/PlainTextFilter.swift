/// What is left of rendered output for a terminal that shows an escape sequence as text
/// (TERM=dumb): its text, tabs, CR and LF; every escape sequence (CSI, OSC and the other
/// strings, charset designations, two-byte ones) and every other control left out. The
/// state lasts across calls, so a sequence may be split between two of them.
struct PlainTextFilter {
    private enum State {
        case text
        case escape
        /// CSI: parameters and intermediates up to a final byte.
        case controlSequence
        /// OSC, DCS, SOS, PM, APC: up to ST (or BEL).
        case string
        case stringEscape
        /// ESC ( and its kin: one more byte names the set.
        case designation
    }

    private var state = State.text

    mutating func append(_ bytes: UnsafeRawBufferPointer, to buffer: OutputBuffer) {
        for byte in bytes { consume(byte, into: buffer) }
    }

    private mutating func consume(_ byte: UInt8, into buffer: OutputBuffer) {
        switch state {
        case .text:
            switch byte {
            case 0x1B: state = .escape
            case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x80...: buffer.appendByte(byte)
            default: break
            }
        case .escape:
            switch byte {
            case UInt8(ascii: "["): state = .controlSequence
            case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
                state = .string
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"): state = .designation
            default: state = .text
            }
        case .controlSequence:
            if (0x40...0x7E).contains(byte) { state = .text }
        case .string:
            if byte == 0x07 { state = .text } else if byte == 0x1B { state = .stringEscape }
        case .stringEscape:
            // ST ends the string; any other ESC cancels it and begins a sequence.
            state = .escape
            if byte == UInt8(ascii: "\\") { state = .text } else { consume(byte, into: buffer) }
        case .designation:
            state = .text
        }
    }
}

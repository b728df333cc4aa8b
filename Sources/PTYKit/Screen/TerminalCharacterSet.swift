/// The character sets G0 and G1 can hold (SCS `ESC ( F`, `ESC ) F`).
public enum TerminalCharacterSet: UInt8, Sendable {
    case ascii
    /// `0`: DEC special graphics (line drawing).
    case decGraphics
    /// `A`: the United Kingdom set (`#` shows as `£`).
    case unitedKingdom
}

extension TerminalCharacterSet {
    /// The final byte that designates it.
    var finalByte: UInt8 {
        switch self {
        case .ascii: UInt8(ascii: "B")
        case .decGraphics: UInt8(ascii: "0")
        case .unitedKingdom: UInt8(ascii: "A")
        }
    }
}

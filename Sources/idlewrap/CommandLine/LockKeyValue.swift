/// Parses a lock KEY (`--lock-key`): a control key in caret notation
/// (`^@`, `^A`…`^Z` or `^a`…`^z`, `^\`, `^]`, `^^`, `^_`, `^?` for DEL), or the single
/// control byte itself. Returns the byte the key sends, or nil for anything else.
///
/// ESC (`^[`) is refused too: it starts every escape sequence, so arrow and function
/// keys would lock the session. `isEscapeKey` lets the caller say so.
func parseLockKey(_ text: String) -> UInt8? {
    guard let key = controlKey(text), key != escapeKey else { return nil }
    return key
}

/// True when `text` names ESC, the one control key `parseLockKey` refuses by design.
func isEscapeKey(_ text: String) -> Bool {
    controlKey(text) == escapeKey
}

private let escapeKey: UInt8 = 0x1B

/// The control byte `text` names, ESC included.
private func controlKey(_ text: String) -> UInt8? {
    let bytes = Array(text.utf8)
    switch bytes.count {
    case 1:
        return caretNotation(of: bytes[0]) != nil ? bytes[0] : nil
    case 2 where bytes[0] == UInt8(ascii: "^"):
        let letter = bytes[1]
        switch letter {
        case UInt8(ascii: "?"): return 0x7F
        case UInt8(ascii: "@")...UInt8(ascii: "_"): return letter - 0x40
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return letter - 0x60
        default: return nil
        }
    default:
        return nil
    }
}

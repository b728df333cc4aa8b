/// Parses a lock KEY (`--lock-key`): a control key in caret notation
/// (`^@`, `^A`…`^Z` or `^a`…`^z`, `^\`, `^]`, `^^`, `^_`, `^?` for DEL), or the single
/// control byte itself. Returns the byte the key sends, or nil for anything else.
///
/// ESC (`^[`) is refused too: it starts every escape sequence, so arrow and function
/// keys would lock the session. So are CR and LF (`^M`, `^J`), which Enter sends: every
/// command line would lock. `refusal` says why.
func parseLockKey(_ text: String) -> UInt8? {
    guard let key = controlKey(text), refusal(of: key) == nil else { return nil }
    return key
}

/// Why `text` names a control key that `parseLockKey` refuses by design, or nil.
func lockKeyRefusal(_ text: String) -> String? {
    controlKey(text).flatMap(refusal(of:))
}

private func refusal(of key: UInt8) -> String? {
    switch key {
    case escapeKey: "ESC starts every escape sequence, so arrow keys would lock"
    case 0x0D, 0x0A: "Enter sends it, so every command line would lock"
    default: nil
    }
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

/// `text` made safe to print on a terminal: C0 controls and DEL in caret notation
/// (`^J`, `^[`, `^?`) and C1 controls as `\u{9B}`, so that text from the user or the
/// command cannot move the cursor or start an escape sequence where it is shown.
func terminalSafe(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        if scalar.isASCII, let caret = caretNotation(of: UInt8(scalar.value)) {
            result += caret
        } else if (0x80...0x9F).contains(scalar.value) {
            result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}

/// The caret notation of a control byte (`^A` for 0x01, `^?` for DEL), nil for any other
/// byte.
func caretNotation(of byte: UInt8) -> String? {
    switch byte {
    case 0x7F: "^?"
    case ..<0x20: "^" + String(UnicodeScalar(byte + 0x40))
    default: nil
    }
}

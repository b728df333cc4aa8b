/// The line editor of a password prompt: fed the raw bytes typed while
/// locked (or at a setup prompt), it never echoes and keeps the line in a
/// `SecretBuffer`.
///
/// Keys:
/// - CR or LF submits a non-empty line; on an empty line it is ignored.
/// - Backspace (BS) and DEL erase the last character: a whole UTF-8
///   character, not one byte.
/// - ^U and ^C clear the line. Every other C0 control byte is ignored.
/// - Escape sequences are ignored whole, even when split across feeds: CSI
///   (`ESC [ ... final`), SS3 (`ESC O x`), OSC, DCS, APC, PM and SOS strings
///   up to ST or BEL, `ESC x` pairs (Alt+key, including Alt+ a UTF-8
///   character), and `ESC` intermediates final (`ESC ( B`). CAN and SUB
///   abort a sequence, ESC starts a new one, as on a VT100
///   (https://vt100.net/emu/dec_ansi_parser).
/// - Departures from that parser, for a keyboard rather than a screen: DEL
///   right after ESC ends the pair (Alt+Backspace), and a byte of 0x80 or
///   more inside a CSI, SS3 or intermediate sequence ends the broken
///   sequence and is kept as typed text.
/// - Bracketed-paste markers (`ESC[200~`, `ESC[201~`) are CSI sequences like
///   any other: ignored, while the pasted text between them is taken as
///   typed, so a password manager's paste works (and a pasted line break
///   submits). The lock screen turns bracketed paste off anyway.
/// - A lone ESC key swallows the next key: without timing, ESC x cannot be
///   told from Alt+x.
/// - The line holds at most `maximumLength` bytes; further bytes are dropped.
struct PasswordLineEditor {
    enum Event: Equatable {
        /// The line changed.
        case edited
        /// Enter on a non-empty line: the line is in `line` until `reset()`.
        case submitted
    }

    /// Where the editor is in an escape sequence.
    private enum State {
        case ground
        /// After ESC.
        case escape
        /// After ESC and one or more intermediate bytes (0x20-0x2F).
        case escapeIntermediate
        /// After ESC followed by a byte of 0x80 or more: Alt with a UTF-8
        /// character, whose continuation bytes are swallowed too.
        case escapedCharacter
        /// After ESC [.
        case controlSequence
        /// After ESC O.
        case singleShift
        /// Inside OSC, DCS, APC, PM or SOS, up to ST or BEL.
        case string
        /// ESC inside a string: ST if a backslash follows.
        case stringEscape
    }

    /// One byte more than any password can be: a longer line stays too long
    /// (a wrong password, a refused new one) rather than being cut down to a
    /// prefix that could match.
    static let maximumLength = PasswordHash.longestPassword + 1

    let line: SecretBuffer
    private var state = State.ground

    init(maximumLength: Int = PasswordLineEditor.maximumLength) {
        line = SecretBuffer(capacity: maximumLength)
    }

    /// Feeds typed bytes. Stops at the first submitted line and returns
    /// `(.submitted, bytes consumed)`, so the caller can drop the rest of the
    /// burst; `(.edited, bytes.count)` when the line changed; nil when nothing
    /// of note happened.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> (Event, Int)? {
        var edited = false
        for (index, byte) in bytes.enumerated() {
            switch take(byte) {
            case .none: break
            case .edited: edited = true
            case .submitted: return (.submitted, index + 1)
            }
        }
        return edited ? (.edited, bytes.count) : nil
    }

    /// Clears the line (zeroed) and forgets any half-read escape sequence.
    mutating func reset() {
        line.clear()
        state = .ground
    }

    private mutating func take(_ byte: UInt8) -> Event? {
        switch byte {
        case ASCII.cancel, ASCII.substitute:
            state = .ground
            return nil
        case ASCII.escape:
            state = state == .string ? .stringEscape : .escape
            return nil
        default:
            break
        }
        switch state {
        case .ground:
            return byte < 0x20 || byte == ASCII.delete ? control(byte) : insert(byte)
        case .escape:
            switch byte {
            case UInt8(ascii: "["): state = .controlSequence
            case UInt8(ascii: "O"): state = .singleShift
            case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
                state = .string
            case 0x20...0x2F: state = .escapeIntermediate
            case 0x30...0x7F: state = .ground
            case 0x80...: state = .escapedCharacter
            default: return control(byte)
            }
            return nil
        case .escapeIntermediate:
            switch byte {
            case 0x20...0x2F: return nil
            case 0x30...0x7E:
                state = .ground
                return nil
            case ASCII.delete: return nil
            case 0x80...:
                state = .ground
                return take(byte)
            default: return control(byte)
            }
        case .escapedCharacter:
            if UTF8.isContinuation(byte) { return nil }
            state = .ground
            return take(byte)
        case .controlSequence, .singleShift:
            switch byte {
            case 0x30...0x3F:
                return nil
            case 0x20...0x2F:
                if state == .singleShift { state = .ground }
                return nil
            case 0x40...0x7E:
                state = .ground
                return nil
            case ASCII.delete:
                return nil
            case 0x80...:
                state = .ground
                return take(byte)
            default:
                return control(byte)
            }
        case .string:
            switch byte {
            case ASCII.bell:
                state = .ground
                return nil
            // A terminal never puts these in the strings it sends, but a
            // person pressing Alt+X or Alt+] starts one that never ends: the
            // editing keys must still work.
            case ASCII.carriageReturn, ASCII.lineFeed, ASCII.endOfText, ASCII.negativeAcknowledge:
                state = .ground
                return control(byte)
            default:
                return nil
            }
        case .stringEscape:
            if byte == UInt8(ascii: "\\") {
                state = .ground
                return nil
            }
            state = .escape
            return take(byte)
        }
    }

    /// A C0 control byte or DEL: the editing keys act, the rest are ignored.
    private func control(_ byte: UInt8) -> Event? {
        switch byte {
        case ASCII.carriageReturn, ASCII.lineFeed:
            return line.isEmpty ? nil : .submitted
        case ASCII.backspace, ASCII.delete:
            return eraseCharacter() ? .edited : nil
        case ASCII.endOfText, ASCII.negativeAcknowledge:
            guard !line.isEmpty else { return nil }
            line.clear()
            return .edited
        default:
            return nil
        }
    }

    private func insert(_ byte: UInt8) -> Event? {
        line.append(byte) ? .edited : nil
    }

    /// Removes the last UTF-8 character: trailing continuation bytes and the
    /// byte that leads them, at most four bytes.
    private func eraseCharacter() -> Bool {
        guard !line.isEmpty else { return false }
        for _ in 0..<4 {
            guard let last = line.last else { break }
            line.removeLast()
            if !UTF8.isContinuation(last) { break }
        }
        return true
    }
}

/// The control bytes the editor acts on.
private enum ASCII {
    static let endOfText: UInt8 = 0x03  // ^C
    static let bell: UInt8 = 0x07
    static let backspace: UInt8 = 0x08
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let negativeAcknowledge: UInt8 = 0x15  // ^U
    static let cancel: UInt8 = 0x18
    static let substitute: UInt8 = 0x1A
    static let escape: UInt8 = 0x1B
    static let delete: UInt8 = 0x7F
}

/// Tells input the terminal sent by itself, answering a program's query, from keys a
/// person typed: only keys are activity, so that a program that polls the terminal does
/// not keep an idle session awake.
///
/// Recognised replies, with 7-bit introducers only (ESC [, ESC ], ESC P, ESC _):
///
/// - `CSI Pr ; Pc R` cursor position; `CSI ? Pr ; Pc (; Pp) R` DECXCPR
/// - `CSI ? Ps… c` DA1, `CSI > Ps… c` DA2, `DCS ! | hex ST` DA3
/// - `CSI 0 n`, `CSI 3 n` DSR status; `CSI ? Ps… n` DEC-specific DSR
/// - `CSI ? Pd ; Ps $ y`, `CSI Pd ; Ps $ y` DECRPM mode reports
/// - `CSI I`, `CSI O` focus in / out
/// - `CSI ? flags u` kitty keyboard flags
/// - `CSI 1 t`, `CSI 2 t`; `CSI Ps ; a ; b t` for Ps 3, 4, 5, 6, 8, 9 (xterm window reports)
/// - `CSI > Pp (; Pv) m` XTQMODKEYS; `CSI ? Pi ; Ps ; Pv… S` XTSMGRAPHICS
/// - `OSC 4 ; n ; rgb:… ST`, `OSC 5 ; n ; rgb:… ST`, `OSC 10…19 ; rgb:… ST` colours
///   (`rgba:` too, several per sequence too, ST or BEL)
/// - `OSC 52 ; selections ; base64 ST` clipboard contents
/// - `OSC l title ST`, `OSC L label ST` window title and icon label (xterm's `CSI 21 t`,
///   `CSI 20 t`)
/// - `DCS > | text ST` XTVERSION, `DCS 0|1 $ r text ST` DECRQSS, `DCS 0|1 + r text ST`
///   XTGETTCAP
/// - `APC G text ST` kitty graphics replies
///
/// ST is `ESC \`; OSC replies may end with BEL as xterm allows. 8-bit C1 introducers
/// (0x9B, 0x9D, 0x90, 0x9C) are not treated as replies: terminals send them only when
/// asked to, and in UTF-8 input those bytes are parts of characters. No key sends
/// any of these sequences except where a key and a reply share an encoding (xterm's
/// Ctrl+F3 is `CSI 1;5R`, a cursor position report); such a key counts as a reply.
public enum TerminalReplies {
    /// True when every byte of `chunk` belongs to one or more complete replies the terminal
    /// sends by itself in answer to a query (not keys typed by a person). Empty chunk: false.
    /// Does not allocate.
    public static func consistsOnlyOfReplies(_ chunk: UnsafeRawBufferPointer) -> Bool {
        var scanner = ReplyScanner(bytes: chunk)
        guard !scanner.atEnd else { return false }
        while !scanner.atEnd {
            guard scanner.scanReply() else { return false }
        }
        return true
    }
}

/// Byte classes for the scanner, kept in a namespace so they cannot clash with
/// helpers elsewhere in the module.
private enum ReplyByte {
    static let bell: UInt8 = 0x07
    static let escape: UInt8 = 0x1B

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    static func isPrintable(_ byte: UInt8) -> Bool {
        (0x20...0x7E).contains(byte)
    }

    /// The clipboard, primary, secondary, select and cut buffers of OSC 52.
    static func isSelection(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "c"), UInt8(ascii: "p"), UInt8(ascii: "q"), UInt8(ascii: "s"),
            UInt8(ascii: "0")...UInt8(ascii: "7"):
            true
        default:
            false
        }
    }

    static func isBase64(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
    }
}

/// A control sequence's parts, as far as replies need them.
private struct ControlSequence {
    var marker: Unicode.Scalar = "\0"  // a private-use prefix (< = > ?) or none
    var parameterCount = 0
    var firstParameter = 0
    var intermediate: Unicode.Scalar = "\0"  // at most one, 0x20-0x2F
    var final: Unicode.Scalar = "\0"

    var isReply: Bool {
        switch (marker, intermediate, final) {
        case ("\0", "\0", "R"):
            return parameterCount == 2
        case ("?", "\0", "R"):
            return parameterCount == 2 || parameterCount == 3
        case ("?", "\0", "c"), (">", "\0", "c"), ("?", "\0", "n"):
            return parameterCount >= 1
        case ("\0", "\0", "n"):
            return parameterCount == 1 && (firstParameter == 0 || firstParameter == 3)
        case ("?", "$", "y"), ("\0", "$", "y"):
            return parameterCount == 2
        case ("\0", "\0", "I"), ("\0", "\0", "O"):
            return parameterCount == 0
        case ("?", "\0", "u"):
            return parameterCount == 1
        case ("\0", "\0", "t"):
            switch firstParameter {
            case 1, 2: return parameterCount == 1
            case 3, 4, 5, 6, 8, 9: return parameterCount == 3
            default: return false
            }
        case (">", "\0", "m"):
            return parameterCount == 1 || parameterCount == 2
        case ("?", "\0", "S"):
            return parameterCount == 3 || parameterCount == 4
        default:
            return false
        }
    }
}

private struct ReplyScanner {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var atEnd: Bool { position == bytes.count }

    private var current: UInt8? { atEnd ? nil : bytes[position] }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        position += 1
        return true
    }

    private mutating func take(_ character: Unicode.Scalar) -> Bool {
        take(UInt8(ascii: character))
    }

    /// Skips bytes while `matches` holds; returns how many.
    private mutating func skip(while matches: (UInt8) -> Bool) -> Int {
        let start = position
        while let byte = current, matches(byte) { position += 1 }
        return position - start
    }

    /// Decimal digits, at least one; a huge value saturates rather than overflowing.
    private mutating func scanNumber() -> Int? {
        var value = 0
        var digits = 0
        while let byte = current, ReplyByte.isDigit(byte) {
            value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
            digits += 1
            position += 1
        }
        return digits > 0 ? value : nil
    }

    /// One complete reply from the current position; false (position undefined) if the
    /// bytes there are anything else.
    mutating func scanReply() -> Bool {
        guard take(ReplyByte.escape), let introducer = current else { return false }
        position += 1
        switch Unicode.Scalar(introducer) {
        case "[": return scanControlSequence()?.isReply ?? false
        case "]": return scanOperatingSystemReply()
        case "P": return scanDeviceControlReply()
        case "_": return scanGraphicsReply()
        default: return false
        }
    }

    /// The rest of a CSI sequence whose parameters are numbers separated by `;`, none
    /// empty; nil for anything else, including a sequence cut short.
    private mutating func scanControlSequence() -> ControlSequence? {
        var sequence = ControlSequence()
        if let byte = current, (UInt8(ascii: "<")...UInt8(ascii: "?")).contains(byte) {
            sequence.marker = Unicode.Scalar(byte)
            position += 1
        }
        if let byte = current, ReplyByte.isDigit(byte) {
            repeat {
                guard let value = scanNumber() else { return nil }
                if sequence.parameterCount == 0 { sequence.firstParameter = value }
                sequence.parameterCount += 1
            } while take(";")
        }
        if let byte = current, (0x20...0x2F).contains(byte) {
            sequence.intermediate = Unicode.Scalar(byte)
            position += 1
        }
        guard let final = current, (0x40...0x7E).contains(final) else { return nil }
        position += 1
        sequence.final = Unicode.Scalar(final)
        return sequence
    }

    /// A colour, clipboard or title report, ended by BEL or ST.
    private mutating func scanOperatingSystemReply() -> Bool {
        let isReply = take("l") || take("L") ? scanTitleReport() : scanNumberedReply()
        return isReply && (take(ReplyByte.bell) || scanStringTerminator())
    }

    /// A title as xterm reports it: text without controls, UTF-8 included.
    private mutating func scanTitleReport() -> Bool {
        _ = skip(while: { $0 >= 0x20 && $0 != 0x7F })
        return true
    }

    /// OSC 4/5 (palette) or 10-19 (dynamic colours) carrying colour values, or OSC 52
    /// carrying the clipboard (empty when it is).
    private mutating func scanNumberedReply() -> Bool {
        guard let selector = scanNumber(), take(";") else { return false }
        switch selector {
        case 52:
            _ = skip(while: ReplyByte.isSelection)
            guard take(";") else { return false }
            _ = skip(while: ReplyByte.isBase64)
        case 4, 5:
            repeat {
                guard scanNumber() != nil, take(";"), scanColour() else { return false }
            } while take(";")
        case 10...19:
            repeat {
                guard scanColour() else { return false }
            } while take(";")
        default:
            return false
        }
        return true
    }

    /// `rgb:` or `rgba:` and hex digits with `/` between components.
    private mutating func scanColour() -> Bool {
        guard take("r"), take("g"), take("b") else { return false }
        _ = take("a")
        guard take(":") else { return false }
        return skip(while: { ReplyByte.isHexDigit($0) || $0 == UInt8(ascii: "/") }) > 0
    }

    /// DA3, XTVERSION, DECRQSS or XTGETTCAP.
    private mutating func scanDeviceControlReply() -> Bool {
        if take("!") {
            guard take("|") else { return false }
            _ = skip(while: ReplyByte.isHexDigit)
        } else if take(">") {
            guard take("|") else { return false }
            _ = skip(while: ReplyByte.isPrintable)
        } else if take("0") || take("1") {
            guard take("$") || take("+"), take("r") else { return false }
            _ = skip(while: ReplyByte.isPrintable)
        } else {
            return false
        }
        return scanStringTerminator()
    }

    /// A kitty graphics protocol answer: `APC G key=value…;message ST`.
    private mutating func scanGraphicsReply() -> Bool {
        guard take("G") else { return false }
        _ = skip(while: ReplyByte.isPrintable)
        return scanStringTerminator()
    }

    private mutating func scanStringTerminator() -> Bool {
        take(ReplyByte.escape) && take("\\")
    }
}

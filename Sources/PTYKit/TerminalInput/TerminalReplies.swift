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
/// A terminal's reply may reach a program in several reads (a 20 KB clipboard in
/// 4 KiB reads), so `TerminalReplyScanner` follows a reply across reads: a reply cut
/// across reads is still a reply, and a key typed in the middle of one (any byte the
/// reply cannot go on with) is still a key, as are the bytes of the reply so far.
/// What ends a read in the middle of a reply counts only once the next read says
/// what it was: a lone ESC (the Escape key) counts when the next key comes.
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
        var scanner = TerminalReplyScanner()
        return !chunk.isEmpty && !scanner.holdsKeys(chunk) && !scanner.isInsideReply
    }
}

/// Tells keys from the terminal's replies in input read a chunk at a time, keeping
/// its place inside a reply from one read to the next: a state machine over the
/// replies `TerminalReplies` lists, in which each byte goes on with a reply,
/// completes one, or is a key. Does not allocate.
public struct TerminalReplyScanner: Sendable {
    private var state = State.ground
    /// The control sequence being read.
    private var sequence = ControlSequence()
    /// The number being read: a parameter, or an OSC reply's kind.
    private var number = 0

    public init() {}

    /// Reads the next chunk of input; true when it holds a key: a byte that is not
    /// part of a reply, or one that shows that what looked like the start of a reply
    /// (in this read or earlier ones) was not one.
    public mutating func holdsKeys(_ chunk: UnsafeRawBufferPointer) -> Bool {
        var keys = false
        var index = 0
        while index < chunk.count {
            if state == .ground {
                // Up to the next ESC, everything is keys.
                guard let escape = chunk[index...].firstIndex(of: ReplyByte.escape) else { return true }
                if escape > index { keys = true }
                state = .escape
                index = escape + 1
                continue
            }
            if step(chunk[index]) { keys = true }
            index += 1
        }
        return keys
    }

    /// Whether the input so far ended inside what may still be a reply.
    public var isInsideReply: Bool { state != .ground }

    /// Forgets a reply in progress: the input went elsewhere meanwhile.
    public mutating func reset() {
        state = .ground
    }

    private enum State: Equatable, Sendable {
        case ground
        /// ESC: the introducer of a reply may follow.
        case escape
        /// After CSI; after its private marker; in a parameter; after `;`; after
        /// the intermediate byte.
        case csiEntry, csiMarker, csiParameter, csiSeparator, csiIntermediate
        /// After OSC; in the number that says which reply; in a title report.
        case oscEntry, oscKind, oscTitle
        /// OSC 52: in the selections; in the base64 contents.
        case clipboardSelections, clipboardData
        /// OSC 4 and 5: before a colour's index; in it.
        case paletteIndexStart, paletteIndex
        /// In a colour value (`rgb:` or `rgba:` then hex digits and `/`), of a
        /// palette list (OSC 4, 5) or a dynamic one (OSC 10-19).
        case colour(ColourPart, palette: Bool)
        /// After DCS; after `DCS !` or `DCS >`; after `DCS 0` or `DCS 1`, and its
        /// `$` or `+`; in DA3's hex; in XTVERSION's, DECRQSS' or XTGETTCAP's text.
        case dcsEntry, dcsBang, dcsGreater, dcsSelector, dcsSelectorMark, da3Text, dcsText
        /// After APC; in a kitty graphics reply's text.
        case apcEntry, apcText
        /// ESC where a string reply may end (ST is `ESC \`).
        case stringTerminator
    }

    private enum ColourPart: Equatable, Sendable {
        case r, g, b, alphaOrColon, colon, firstDigit, digits
    }

    /// The byte after the current state; true when it shows a key.
    private mutating func step(_ byte: UInt8) -> Bool {
        switch state {
        case .ground:
            // Not reached: `holdsKeys` skips ground bytes itself.
            guard byte == ReplyByte.escape else { return true }
            state = .escape
        case .escape:
            switch Unicode.Scalar(byte) {
            case "[":
                sequence = ControlSequence()
                state = .csiEntry
            case "]": state = .oscEntry
            case "P": state = .dcsEntry
            case "_": state = .apcEntry
            default: return broken(at: byte)
            }
        case .csiEntry, .csiMarker, .csiParameter, .csiSeparator, .csiIntermediate:
            return controlSequence(byte)
        case .oscEntry:
            if byte == UInt8(ascii: "l") || byte == UInt8(ascii: "L") {
                state = .oscTitle
            } else if ReplyByte.isDigit(byte) {
                number = digit(byte)
                state = .oscKind
            } else {
                return broken(at: byte)
            }
        case .oscKind:
            if ReplyByte.isDigit(byte) {
                number = accumulate(number, byte)
            } else if byte == UInt8(ascii: ";") {
                switch number {
                case 52: state = .clipboardSelections
                case 4, 5: state = .paletteIndexStart
                case 10...19: state = .colour(.r, palette: false)
                default: return broken(at: byte)
                }
            } else {
                return broken(at: byte)
            }
        case .oscTitle:
            // Text without controls, UTF-8 included.
            guard byte < 0x20 || byte == 0x7F else { return false }
            return stringEnd(byte, bellEnds: true)
        case .clipboardSelections:
            if byte == UInt8(ascii: ";") {
                state = .clipboardData
            } else if !ReplyByte.isSelection(byte) {
                return broken(at: byte)
            }
        case .clipboardData:
            guard !ReplyByte.isBase64(byte) else { return false }
            return stringEnd(byte, bellEnds: true)
        case .paletteIndexStart:
            guard ReplyByte.isDigit(byte) else { return broken(at: byte) }
            state = .paletteIndex
        case .paletteIndex:
            if byte == UInt8(ascii: ";") {
                state = .colour(.r, palette: true)
            } else if !ReplyByte.isDigit(byte) {
                return broken(at: byte)
            }
        case .colour(let part, let palette):
            return colour(byte, part, palette: palette)
        case .dcsEntry:
            switch Unicode.Scalar(byte) {
            case "!": state = .dcsBang
            case ">": state = .dcsGreater
            case "0", "1": state = .dcsSelector
            default: return broken(at: byte)
            }
        case .dcsBang, .dcsGreater:
            guard byte == UInt8(ascii: "|") else { return broken(at: byte) }
            state = state == .dcsBang ? .da3Text : .dcsText
        case .dcsSelector:
            guard byte == UInt8(ascii: "$") || byte == UInt8(ascii: "+") else { return broken(at: byte) }
            state = .dcsSelectorMark
        case .dcsSelectorMark:
            guard byte == UInt8(ascii: "r") else { return broken(at: byte) }
            state = .dcsText
        case .da3Text:
            guard !ReplyByte.isHexDigit(byte) else { return false }
            return stringEnd(byte, bellEnds: false)
        case .dcsText, .apcText:
            guard !ReplyByte.isPrintable(byte) else { return false }
            return stringEnd(byte, bellEnds: false)
        case .apcEntry:
            guard byte == UInt8(ascii: "G") else { return broken(at: byte) }
            state = .apcText
        case .stringTerminator:
            guard byte == UInt8(ascii: "\\") else { return broken(at: byte) }
            state = .ground
        }
        return false
    }

    /// A CSI sequence whose parameters are numbers separated by `;`, none empty, with
    /// at most one intermediate byte; judged by `ControlSequence.isReply` at its end.
    private mutating func controlSequence(_ byte: UInt8) -> Bool {
        if ReplyByte.isDigit(byte), state != .csiIntermediate {
            if state != .csiParameter {
                sequence.parameterCount += 1
                number = 0
            }
            number = accumulate(number, byte)
            if sequence.parameterCount == 1 { sequence.firstParameter = number }
            state = .csiParameter
        } else if byte == UInt8(ascii: ";"), state == .csiParameter {
            state = .csiSeparator
        } else if (UInt8(ascii: "<")...UInt8(ascii: "?")).contains(byte), state == .csiEntry {
            sequence.marker = Unicode.Scalar(byte)
            state = .csiMarker
        } else if (0x20...0x2F).contains(byte), state != .csiSeparator, state != .csiIntermediate {
            sequence.intermediate = Unicode.Scalar(byte)
            state = .csiIntermediate
        } else if (0x40...0x7E).contains(byte), state != .csiSeparator {
            sequence.final = Unicode.Scalar(byte)
            state = .ground
            return !sequence.isReply
        } else {
            return broken(at: byte)
        }
        return false
    }

    /// `rgb:` or `rgba:` and hex digits with `/` between components; then `;` and
    /// the next colour (of a palette list: its index first), or the end.
    private mutating func colour(_ byte: UInt8, _ part: ColourPart, palette: Bool) -> Bool {
        let next: ColourPart
        switch part {
        case .r where byte == UInt8(ascii: "r"): next = .g
        case .g where byte == UInt8(ascii: "g"): next = .b
        case .b where byte == UInt8(ascii: "b"): next = .alphaOrColon
        case .alphaOrColon where byte == UInt8(ascii: "a"): next = .colon
        case .alphaOrColon where byte == UInt8(ascii: ":"), .colon where byte == UInt8(ascii: ":"):
            next = .firstDigit
        case .firstDigit where ReplyByte.isHexDigit(byte) || byte == UInt8(ascii: "/"),
            .digits where ReplyByte.isHexDigit(byte) || byte == UInt8(ascii: "/"):
            next = .digits
        case .digits where byte == UInt8(ascii: ";"):
            state = palette ? .paletteIndexStart : .colour(.r, palette: false)
            return false
        case .digits:
            return stringEnd(byte, bellEnds: true)
        default:
            return broken(at: byte)
        }
        state = .colour(next, palette: palette)
        return false
    }

    /// At the end of a string reply's text: BEL (where allowed) ends it, ESC may
    /// start ST; any other byte is a key.
    private mutating func stringEnd(_ byte: UInt8, bellEnds: Bool) -> Bool {
        if bellEnds && byte == ReplyByte.bell {
            state = .ground
            return false
        }
        guard byte == ReplyByte.escape else { return broken(at: byte) }
        state = .stringTerminator
        return false
    }

    /// `byte` cannot go on with the reply begun: it was no reply, and this byte is a
    /// key, or (ESC) the start of what may be the next reply.
    private mutating func broken(at byte: UInt8) -> Bool {
        state = byte == ReplyByte.escape ? .escape : .ground
        return true
    }

    private func digit(_ byte: UInt8) -> Int {
        Int(byte - UInt8(ascii: "0"))
    }

    /// A huge value saturates rather than overflowing.
    private func accumulate(_ value: Int, _ byte: UInt8) -> Int {
        min(value * 10 + digit(byte), 1_000_000)
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
private struct ControlSequence: Sendable {
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

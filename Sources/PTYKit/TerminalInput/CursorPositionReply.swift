/// Takes the terminal's answer to one cursor position query (DSR 6, `CSI 6 n`) out of its
/// input: the first `CSI Pr ; Pc R` (7-bit CSI, 1 to 7 digits each), wherever it falls in a
/// read, and only that one; every other byte is passed on as it came, in order. A reply
/// cut across reads is still a reply: what may be its start at the end of a read is held
/// (`held`) until the next read says, or `flush` gives it back.
///
/// `TerminalReplyScanner` says whether a read holds keys; this cuts one reply out of it,
/// which needs where it begins and ends. Terminals answer queries in the order they were
/// asked, so the first report after the query is its answer, even when the program asked
/// the same meanwhile. A key that sends the same bytes (xterm's Ctrl+F3 is `CSI 1 ; 5 R`)
/// cannot be told from it, as `TerminalReplies` says.
public struct CursorPositionReply: Sendable {
    /// The bytes at the end of the last read that may begin the reply.
    public private(set) var held: [UInt8] = []
    /// What is held has got as far as `ESC [` and a digit: no lone Escape key, and keys
    /// that send such bytes send them whole, so it is the reply's start, whose rest a busy
    /// machine or a slow link may bring later than a key's.
    public var holdsBegunReply: Bool {
        held.count >= 3 && held[2] &- UInt8(ascii: "0") < 10
    }

    /// The reply, once found (1-based, as the terminal sends it).
    public private(set) var position: (row: Int, column: Int)?

    public init() {}

    /// The bytes of `chunk` (after any held ones) that are not the reply, in order. Until
    /// the reply is found, a possible start of it at the end is held back if `holding`.
    /// Once found, everything passes.
    public mutating func take(_ chunk: UnsafeRawBufferPointer, holding: Bool) -> [UInt8] {
        var bytes = held
        bytes.append(contentsOf: chunk)
        clearHeld()
        guard position == nil else { return bytes }
        var start = 0
        while let escape = bytes[start...].firstIndex(of: 0x1B) {
            switch Self.match(bytes, at: escape) {
            case .reply(let end, let row, let column):
                position = (row, column)
                bytes.removeSubrange(escape..<end)
                return bytes
            case .partial where holding:
                held = Array(bytes[escape...])
                bytes.removeSubrange(escape...)
                return bytes
            case .partial, .none:
                start = escape + 1
            }
        }
        return bytes
    }

    /// Gives back what was held, as keys.
    public mutating func flush() -> [UInt8] {
        defer { clearHeld() }
        return held
    }

    /// Zeroes the held bytes before letting them go: they are typed input.
    private mutating func clearHeld() {
        for index in held.indices { held[index] = 0 }
        held.removeAll()
    }

    private enum Match {
        case reply(end: Int, row: Int, column: Int)
        /// The bytes run out while they could still be the reply.
        case partial
        case none
    }

    private static let maximumDigits = 7

    private static func match(_ bytes: [UInt8], at start: Int) -> Match {
        var index = start + 1
        guard index < bytes.count else { return .partial }
        guard bytes[index] == UInt8(ascii: "[") else { return .none }
        index += 1
        var numbers = [0, 0]
        for part in 0..<2 {
            var digits = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                digits += 1
                guard digits <= maximumDigits else { return .none }
                numbers[part] = numbers[part] * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index < bytes.count else { return .partial }
            guard digits > 0 else { return .none }
            let expected = part == 0 ? UInt8(ascii: ";") : UInt8(ascii: "R")
            guard bytes[index] == expected else { return .none }
            index += 1
        }
        return .reply(end: index, row: numbers[0], column: numbers[1])
    }
}

import Testing

/// Bytes the screen model is tried on: the cases and recordings the suite against tmux
/// (the end-to-end tier) compares with a real terminal, which the fast paths' tests (the
/// unit and differential tiers) feed too, and random bytes.
public enum ScreenSamples {
    public struct Case: Sendable, CustomTestStringConvertible {
        public let name: String
        public let input: [UInt8]
        public var rows = 8
        public var columns = 20
        public var testDescription: String { name }
    }

    /// Bytes on which xterm and tmux agree (so the model, which follows xterm, can be
    /// checked against tmux).
    public static let cases: [Case] = [
        Case(name: "text and wrap", input: bytes(#"hello world, this wraps around\r\nsecond\tline\r\n"#)),
        Case(name: "pending wrap", input: bytes(#"01234567890123456789"#)),
        Case(name: "pending wrap, wide", input: bytes("012345678901234567漢")),
        Case(
            name: "colours",
            input: bytes(#"\e[1;31mred\e[0;42;97mgreen bg\e[38;5;208m256\e[38;2;10;20;30mrgb\e[48;5;17mx\e[m"#)),
        Case(
            name: "attributes",
            input: bytes(#"\e[1mB\e[2mD\e[3mI\e[5mK\e[7mR\e[8mH\e[9mS\e[53mO\e[22;23;25;27;28;29;55mN\e[m"#)),
        Case(
            name: "underlines",
            input: bytes(#"\e[4ma\e[4:2mb\e[4:3mc\e[4:4md\e[4:5me\e[24m\e[58;5;9;4mf\e[59mg\e[m"#)),
        Case(name: "colon colours", input: bytes(#"\e[38:2::1:2:3mA\e[48:5:99mB\e[m"#)),
        // On cells written before, within a row: tmux's capture leaves out cells past the last
        // one written, and rows erased whole.
        Case(
            name: "erase with background",
            input: bytes(#"\e#8\e[44m\e[1;5H\e[K\e[2;3H\e[1K\e[3;1H\e[5X\e[8;3H\e[J\e[m"#)),
        Case(
            name: "insert and delete",
            input: bytes(#"0123456789\e[1;3H\e[2@\e[2;1Habcdef\e[2;2H\e[3P\e[4h\e[1;1HXY\e[4l"#)),
        Case(name: "lines", input: bytes(#"1\r\n2\r\n3\r\n4\r\n5\e[2;1H\e[2L\e[5;1H\e[M\e[3S\e[T"#)),
        Case(
            name: "origin mode and region",
            input: bytes(#"1\r\n2\r\n3\r\n4\r\n5\r\n6\e[2;5r\e[?6h\e[1;1HA\e[9;1HB\n\nC\e[2;4H\eMD"#)),
        // (Not with a background: tmux's capture leaves out rows erased whole.)
        Case(name: "DECCOLM", input: bytes(#"abc\r\ndef\r\nghi\e[2;5r\e[?6h\e[3;3H\e[?3hX\e[?3lY"#)),
        Case(name: "region scrolls", input: bytes(#"\e[3;6r\e[6;1Ha\nb\nc\nd\e[3;1H\eM\eMe\e[r"#)),
        Case(name: "DEC graphics", input: bytes(#"\e(0lqqk\r\nx  x\r\nmqqj\e(B ok \e)0\x0Eaa\x0Fbb"#)),
        // (Not over the second half of a wide character: tmux 3.3 keeps both there.)
        Case(
            name: "wide and combining",
            input: bytes("漢字 e\u{301}t\u{308}e\u{20DD} 😀x\r\n012345678901234567890漢\u{1b}[1;1HZ")),
        Case(name: "tabs", input: bytes(#"a\tb\tc\r\n\e[3g\e[5G\eH\e[12G\eH\r\t1\t2\t3\e[2;15H\e[0g\r\n\t\tz"#)),
        Case(name: "cursor save", input: bytes(#"\e[3;5H\e[1;33m\e7\e[m\e[7;7HX\e8Y\e[s\e[1;1H\e[uZ"#)),
        Case(name: "alternate screen", input: bytes(#"main text\e[?1049h\e[Halt text\e[31m\e[5;5Hx"#)),
        Case(name: "alternate screen left", input: bytes(#"main text\e[?1049h\e[Halt text\e[?1049lback"#)),
        // One DECSC slot for both screens, and 1049's own (xterm keeps a slot per screen).
        Case(
            name: "cursor saved across screens",
            input: bytes(#"\e[2;3H\e[32m\e7\e[?1049h\e[3;5H\e[35m\e7\e[m\e[?1049l\e8X\e[1;1H\e[?1049h\e[?1049lY"#)),
        Case(
            name: "1049 left from the main screen",
            input: bytes(#"\e[2;2H\e[?1049h\e[?1049l\e[4;4H\e7\e[?1049lX\e[?47h\e[2;6H\e7\e[?47l\e8Y"#)),
        Case(name: "modes", input: bytes(#"\e[?1h\e=\e[?1002h\e[?1006h\e[?25l\e[?7lno wrap at all here, no\e[4h"#)),
        Case(name: "REP and DECALN", input: bytes(#"\e#8\e[3;3Ha\e[5b\e[K"#)),
        Case(name: "scrolled off", input: bytes((1...40).map { "line \($0)\r\n" }.joined() + "end")),
        Case(name: "cursor moves", input: bytes(#"\e[5;5H\e[2AU\e[3BD\e[4CR\e[2DL\e[EN\e[2FP\e[10GG\e[3dV\e[2`H"#)),
    ]

    /// Programs recorded with script(1) in an 80x24 tmux pane with TERM=xterm-256color
    /// (Tests/ScreenRecordings): vim with a message on its last line, less, top, a shell
    /// with a coloured `ls`.
    public static let recordings = ["vim", "less", "top", "shell"]

    public static func recording(_ name: String) throws -> [UInt8] {
        try readFileBytes(packageDirectory + "/Tests/ScreenRecordings/\(name).typescript")
    }

    /// What `cat` of a binary file prints: every byte value alike.
    public static func randomBytes(count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    /// Text in which most of what is not printable ASCII is a byte that is no UTF-8 of its
    /// own: C1 controls (raw and encoded), stray continuation bytes, leads cut short by
    /// text, controls or escapes, overlong forms, surrogates, DEL, CAN and SUB; with now and
    /// then a complete character, a line feed or an escape sequence.
    public static func strayBytes(count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        let pieces: [[UInt8]] = [
            [0x9B], [0x90], [0x9D], [0x84, 0x85], [0xC2, 0x9B], [0xC2, 0x84], [0x80, 0xBF], [0xC3], [0xE2, 0x9B],
            [0xF0, 0x9F, 0x98], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF5, 0x80], [0xFF, 0xFE],
            [0x7F], [0x18], [0x1A], [0x1B, 0x9B], [0x1B, 0xC3], [0xE2, 0x1B, 0x5B, 0x6D], [0xC3, 0x0A], [0xC3, 0x41],
            [0xE2, 0x9B, 0x84], [0xC3, 0xA9], bytes(#"\e[1;31m"#), [0x0D, 0x0A], [0x07], [0x08], [0x09],
        ]
        var input: [UInt8] = []
        while input.count < count {
            let pick = random.next()
            if pick % 3 == 0 {
                input += (0..<Int((pick >> 8) % 6)).map { _ in UInt8(33 + random.next() % 94) }
            } else {
                input += pieces[Int((pick >> 16) % UInt64(pieces.count))]
            }
        }
        return input
    }
}

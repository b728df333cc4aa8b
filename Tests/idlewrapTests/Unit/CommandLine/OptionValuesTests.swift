import Testing

@testable import idlewrap

/// Nanoseconds: the tables below give durations in them, as the parser counts.
private let second: Int64 = 1_000_000_000
private let millisecond: Int64 = 1_000_000

@Suite("DURATION values")
struct DurationValueTests {
    @Test(
        "valid durations",
        arguments: [
            ("off", 0),
            ("0", 0),
            ("0s", 0),
            ("0.0", 0),
            ("0ms", 0),
            ("0h0m0s", 0),
            ("00", 0),
            ("90", 90 * second),
            ("1.5", 1_500 * millisecond),
            (".5", 500 * millisecond),
            ("007", 7 * second),
            ("250ms", 250 * millisecond),
            ("1.5s", 1_500 * millisecond),
            ("5m", 300 * second),
            ("2h", 7_200 * second),
            ("1h30m", 5_400 * second),
            ("1h30m15s", 5_415 * second),
            ("1h1m1s1ms", 3_661 * second + millisecond),
            ("2m.5s", 120 * second + 500 * millisecond),
            ("1.25h", 4_500 * second),
            ("0.001ms", 1_000),
            ("1.000000001s", second + 1),
            ("0.5ms", 500_000),
            ("15m30s", 930 * second),
        ] as [(String, Int64)])
    func valid(text: String, expected: Int64) {
        #expect(parseDuration(text) == .nanoseconds(expected))
    }

    @Test("a fraction finer than a nanosecond rounds up, so it is never off")
    func roundsUp() {
        #expect(parseDuration("0.0000000001s") == .nanoseconds(1))
        #expect(parseDuration("0.0000001ms") == .nanoseconds(1))
        #expect(parseDuration("1.0000000001") == .nanoseconds(second + 1))
        #expect(parseDuration("0.00000000000000000000001h") == .nanoseconds(1))
        #expect(parseDuration("0.000000000000000000000000s") == .nanoseconds(0))
        // One third of a second is 333333333.33… ns.
        #expect(parseDuration("0.3333333333333333333333s") == .nanoseconds(333_333_334))
    }

    @Test("the largest value that fits, and the first that does not")
    func overflow() {
        #expect(parseDuration("9223372036.854775807s") == .nanoseconds(Int64.max))
        #expect(parseDuration("9223372036.854775807") == .nanoseconds(Int64.max))
        #expect(parseDuration("9223372036.8547758071s") == nil)
        #expect(parseDuration("9223372036.854775808s") == nil)
        #expect(parseDuration("2562047h47m16.854775807s") == .nanoseconds(Int64.max))
        #expect(parseDuration("2562048h") == nil)
        #expect(parseDuration("99999999999999999999999999999h") == nil)
        #expect(parseDuration("9223372036854775808ms") == nil)
        #expect(parseDuration("9999999999999999999999999999999999999999") == nil)
    }

    @Test(
        "invalid durations",
        arguments: [
            "", " ", "abc", "Off", "OFF", "never", "-1", "-5m", "+5m", "5 m", " 5m", "5m ",
            "1.", ".", ".s", "s", "m", "ms", "h", "5x", "5sec", "5min", "1d", "5S", "5M",
            "5H", "5MS", "1e3", "0x10", "1,5", "1_000", "1h30", "30m1h", "1m30m", "1s1s",
            "5ms1s", "1s5ms5ms", "1..5", "1.5.5", "1h 30m", "5mm", "5sm", "5\u{0}", "٣",
            "1h-30m", "inf", "nan",
        ])
    func invalid(text: String) {
        #expect(parseDuration(text) == nil)
    }
}

@Suite("SIZE values")
struct SizeValueTests {
    @Test(
        "valid sizes",
        arguments: [
            ("0", 0),
            ("1", 1),
            ("512", 512),
            ("0010", 10),
            ("1k", 1_024),
            ("1K", 1_024),
            ("64k", 65_536),
            ("8M", 8 << 20),
            ("8m", 8 << 20),
            ("2G", 2 << 30),
            ("2g", 2 << 30),
            ("0G", 0),
            ("9223372036854775807", Int.max),
            ("8589934591G", 8_589_934_591 << 30),
        ] as [(String, Int)])
    func valid(text: String, expected: Int) {
        #expect(parseSize(text) == expected)
    }

    @Test(
        "invalid sizes",
        arguments: [
            "", "K", "M", "-1", "+1", "-1K", "1.5", "1.5M", "1,5M", "1KB", "1kb", "1KiB", "1T",
            "1B", "1b", "1 K", " 1", "1 ", "K1", "0x10", "1e6", "abc", "1MK",
            "9223372036854775808", "8589934592G", "9007199254740992M", "99999999999999999999",
        ])
    func invalid(text: String) {
        #expect(parseSize(text) == nil)
    }
}

@Suite("KEY values")
struct LockKeyValueTests {
    @Test(
        "caret notation and literal control bytes",
        arguments: [
            ("^@", 0x00),
            ("^A", 0x01),
            ("^a", 0x01),
            ("^C", 0x03),
            ("^Z", 0x1A),
            ("^z", 0x1A),
            ("^\\", 0x1C),
            ("^]", 0x1D),
            ("^^", 0x1E),
            ("^_", 0x1F),
            ("^?", 0x7F),
            ("\u{1D}", 0x1D),
            ("\u{01}", 0x01),
            ("\u{7F}", 0x7F),
        ] as [(String, UInt8)])
    func valid(text: String, expected: UInt8) {
        #expect(parseLockKey(text) == expected)
    }

    @Test("every letter in either case names its control byte, but Enter's (^J, ^M)")
    func letters() {
        for (offset, letter) in "ABCDEFGHIJKLMNOPQRSTUVWXYZ".enumerated() where !"JM".contains(letter) {
            #expect(parseLockKey("^\(letter)") == UInt8(offset + 1))
            #expect(parseLockKey("^\(letter.lowercased())") == UInt8(offset + 1))
        }
    }

    @Test("ESC is refused, and recognised as such, in both spellings")
    func escape() {
        #expect(parseLockKey("^[") == nil)
        #expect(parseLockKey("\u{1B}") == nil)
        #expect(lockKeyRefusal("^[")?.hasPrefix("ESC starts") == true)
        #expect(lockKeyRefusal("\u{1B}")?.hasPrefix("ESC starts") == true)
        #expect(lockKeyRefusal("^]") == nil)
        #expect(lockKeyRefusal("x") == nil)
    }

    @Test("CR and LF, which Enter sends, are refused in every spelling")
    func enter() {
        for text in ["^M", "^m", "\r", "^J", "^j", "\n"] {
            #expect(parseLockKey(text) == nil)
            #expect(lockKeyRefusal(text) == "Enter sends it, so every command line would lock")
        }
    }

    @Test(
        "invalid keys",
        arguments: [
            "", "^", "a", "A", "]", " ", "^^^", "^AB", "^ ", "^1", "^`", "^{", "^~", "^!",
            "C-a", "Ctrl+A", "\\x1d", "0x1d", "29", "^[[A", "\u{1B}[A", "é", "^é", "\u{80}",
            "\u{1D}\u{1D}", "^]x",
        ])
    func invalid(text: String) {
        #expect(parseLockKey(text) == nil)
    }

    @Test("caret notation round-trips every control byte")
    func caretRoundTrip() throws {
        for byte in Array(UInt8(0)...0x1F) + [0x7F] where ![0x1B, 0x0D, 0x0A].contains(byte) {
            let notation = try #require(caretNotation(of: byte))
            #expect(parseLockKey(notation) == byte)
        }
        #expect(caretNotation(of: 0x20) == nil)
        #expect(caretNotation(of: UInt8(ascii: "A")) == nil)
        #expect(caretNotation(of: 0x80) == nil)
    }
}

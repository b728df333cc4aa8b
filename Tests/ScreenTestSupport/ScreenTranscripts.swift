import Testing

/// One libvterm `t/*.test`-style case for the grid: bytes pushed into a 5x10 screen, then
/// the rows (trailing blanks cut) and the cursor expected. Each is fed whole, split at every
/// byte and byte by byte, and its repaint fed to a fresh model must give the same state.
public struct ScreenCase: Sendable, CustomTestStringConvertible {
    public let input: String
    public let rows: [String]
    public let cursor: (row: Int, column: Int)
    public let pendingWrap: Bool

    public init(_ input: String, _ rows: [String], cursor: (Int, Int), pendingWrap: Bool = false) {
        self.input = input
        self.rows = rows + [String](repeating: "", count: max(0, 5 - rows.count))
        self.cursor = cursor
        self.pendingWrap = pendingWrap
    }

    public var testDescription: String { "PUSH \"\(input)\"" }
}

/// The grid's transcripts, by what they exercise: `ScreenTranscriptTests` checks each, and
/// the fast paths' tests (ScreenDifferentialTests) feed them too.
public enum ScreenTranscripts {
    public static let text: [ScreenCase] = [
        ScreenCase(#"hello"#, ["hello"], cursor: (0, 5)),
        ScreenCase(#"hello\r\nworld"#, ["hello", "world"], cursor: (1, 5)),
        ScreenCase(#"abc\bX"#, ["abX"], cursor: (0, 3)),
        ScreenCase(#"\bX"#, ["X"], cursor: (0, 1)),
        ScreenCase(#"a\nb"#, ["a", " b"], cursor: (1, 2)),  // LF does not return the carriage
        ScreenCase(#"\e[20ha\nb"#, ["a", "b"], cursor: (1, 1)),  // LNM: it does
        ScreenCase(#"a\tb\tc"#, ["a       bc"], cursor: (0, 9), pendingWrap: true),
        ScreenCase(#"0123456789"#, ["0123456789"], cursor: (0, 9), pendingWrap: true),
        ScreenCase(#"0123456789X"#, ["0123456789", "X"], cursor: (1, 1)),
        ScreenCase(#"0123456789\rX"#, ["X123456789"], cursor: (0, 1)),
        ScreenCase(#"0123456789\bX"#, ["012345678X"], cursor: (0, 9), pendingWrap: true),
        // tmux: erasing with a wrap pending erases nothing there and keeps the wrap.
        ScreenCase(#"0123456789\e[KX"#, ["0123456789", "X"], cursor: (1, 1)),
        ScreenCase(#"0123456789\e[XX"#, ["0123456789", "X"], cursor: (1, 1)),
        ScreenCase(#"0123456789\e[1KX"#, ["", "X"], cursor: (1, 1)),
        ScreenCase(#"\e[?7l0123456789XYZ"#, ["012345678Z"], cursor: (0, 9)),
        ScreenCase(#"\e[?7l0123456789\e[?7hX"#, ["012345678X"], cursor: (0, 9), pendingWrap: true),
        ScreenCase(#"1\r\n2\r\n3\r\n4\r\n5\r\n6"#, ["2", "3", "4", "5", "6"], cursor: (4, 1)),
        ScreenCase(#"abc\x7Fd\x00e"#, ["abcde"], cursor: (0, 5)),
        ScreenCase(#"a\e[5bX"#, ["aaaaaaX"], cursor: (0, 7)),  // REP
        ScreenCase(#"a\r\e[5b"#, ["a"], cursor: (0, 0)),  // REP after CR: nothing (tmux)
        ScreenCase(
            #"\e[3;3H\e#8"#, ["EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE"], cursor: (0, 0)),
    ]

    public static let cursorMovement: [ScreenCase] = [
        ScreenCase(#"\e[3;4HX"#, ["", "", "   X"], cursor: (2, 4)),
        ScreenCase(#"\e[99;99HX"#, ["", "", "", "", "         X"], cursor: (4, 9), pendingWrap: true),
        ScreenCase(#"\e[3;4H\e[AX"#, ["", "   X"], cursor: (1, 4)),
        ScreenCase(#"\e[3;4H\e[2BX"#, ["", "", "", "", "   X"], cursor: (4, 4)),
        ScreenCase(#"\e[3;4H\e[2CX\e[3DY"#, ["", "", "   Y X"], cursor: (2, 4)),
        ScreenCase(#"\e[3;4H\e[EX\e[2FY"#, ["", "Y", "", "X"], cursor: (1, 1)),
        ScreenCase(#"\e[5GX\e[3dY"#, ["    X", "", "     Y"], cursor: (2, 6)),
        ScreenCase(#"\e[2;2H\e[3`X\e[aY\e[eZ"#, ["", "  X Y", "     Z"], cursor: (2, 6)),
        ScreenCase(#"\e[4;6H\e[3jX\e[2kY\e[9k\e[jZ"#, ["   Z", "   Y", "", "  X"], cursor: (0, 4)),  // HPB, VPB
        ScreenCase(#"\e[f\e[0;0HX"#, ["X"], cursor: (0, 1)),
        ScreenCase(#"\e[2;2H\e7\e[5;5H\e8X"#, ["", " X"], cursor: (1, 2)),
        ScreenCase(#"\e[2;2H\e[s\e[5;5H\e[uX"#, ["", " X"], cursor: (1, 2)),
        ScreenCase(#"\e[2;2H\e[?1048h\e[5;5H\e[?1048lX"#, ["", " X"], cursor: (1, 2)),
        ScreenCase(#"0123456789\e7\e[HA\e8B"#, ["A123456789", "B"], cursor: (1, 1)),  // DECSC keeps the pending wrap
        ScreenCase(#"\e8X"#, ["X"], cursor: (0, 1)),  // DECRC without DECSC: home
    ]

    public static let tabs: [ScreenCase] = [
        ScreenCase(#"\tX"#, ["        X"], cursor: (0, 9)),
        ScreenCase(#"\t\tX"#, ["         X"], cursor: (0, 9), pendingWrap: true),
        ScreenCase(#"\e[3g\e[3G\eH\e[1G\tX"#, ["  X"], cursor: (0, 3)),  // HTS at 3 after TBC 3
        ScreenCase(#"\e[3G\eH\e[1G\tX\e[3G\e[g\e[1G\tY"#, ["  X     Y"], cursor: (0, 9)),
        ScreenCase(#"\e[2IX\e[ZY"#, ["        YX"], cursor: (0, 9)),
    ]

    public static let erasing: [ScreenCase] = [
        ScreenCase(#"0123456789\e[1;5H\e[K"#, ["0123"], cursor: (0, 4)),
        ScreenCase(#"0123456789\e[1;5H\e[1K"#, ["     56789"], cursor: (0, 4)),
        ScreenCase(#"0123456789\e[1;5H\e[2K"#, [""], cursor: (0, 4)),
        ScreenCase(#"0123456789\e[1;3H\e[4X"#, ["01    6789"], cursor: (0, 2)),
        ScreenCase(#"a\r\nb\r\nc\e[2;1H\e[J"#, ["a"], cursor: (1, 0)),
        ScreenCase(#"a\r\nb\r\nc\e[2;1H\e[1J"#, ["", "", "c"], cursor: (1, 0)),
        ScreenCase(#"a\r\nb\r\nc\e[2J"#, [""], cursor: (2, 1)),
        ScreenCase(#"a\r\nb\e[3J"#, ["a", "b"], cursor: (1, 1)),
        // DECCOLM clears and homes in the region, which it keeps (tmux).
        ScreenCase(#"a\r\nb\r\nc\e[2;4r\e[?6h\e[3;2H\e[?3hX\e[9;1HY"#, ["", "X", "", "Y"], cursor: (3, 1)),
    ]

    public static let editing: [ScreenCase] = [
        ScreenCase(#"0123456789\e[1;3H\e[2@"#, ["01  234567"], cursor: (0, 2)),
        ScreenCase(#"0123456789\e[1;3H\e[2P"#, ["01456789"], cursor: (0, 2)),
        ScreenCase(#"0123456789\e[1;3H\e[4hXY"#, ["01XY234567"], cursor: (0, 4)),
        ScreenCase(#"0123456789\e[1;3H\e[4hXY\e[4lZ"#, ["01XYZ34567"], cursor: (0, 5)),
        ScreenCase(#"a\r\nb\r\nc\e[2;1H\e[L"#, ["a", "", "b", "c"], cursor: (1, 0)),
        ScreenCase(#"a\r\nb\r\nc\e[1;3H\e[M"#, ["b", "c"], cursor: (0, 0)),
        // ICH with a wrap pending clears it, as DCH and xterm's ICH (the Ghostty oracle).
        ScreenCase(#"0123456789\e[@X"#, ["012345678X"], cursor: (0, 9), pendingWrap: true),
        ScreenCase(#"a\r\nb\r\nc\e[2S"#, ["c"], cursor: (2, 1)),
        ScreenCase(#"a\r\nb\r\nc\e[T"#, ["", "a", "b", "c"], cursor: (2, 1)),
    ]

    public static let regions: [ScreenCase] = [
        ScreenCase(#"1\r\n2\r\n3\r\n4\r\n5\e[2;4r\e[4;1H\nX"#, ["1", "3", "4", "X", "5"], cursor: (3, 1)),
        ScreenCase(#"1\r\n2\r\n3\r\n4\r\n5\e[2;4r\e[2;1H\eMX"#, ["1", "X", "2", "3", "5"], cursor: (1, 1)),
        ScreenCase(#"\e[2;4r\e[?6hX\e[5;1HY"#, ["", "X", "", "Y"], cursor: (3, 1)),
        ScreenCase(#"\e[2;4r\e[?6h\e[2;2HX\e[?6lY"#, ["Y", "", " X"], cursor: (0, 1)),
        ScreenCase(
            #"1\r\n2\r\n3\e[2;3r\e[2;1H\e[2L"#, ["1", "", "", "", ""].enumerated().map { $0 == 0 ? $1 : "" },
            cursor: (1, 0)),
        ScreenCase(#"\e[3;2r\e[3;3HX"#, ["", "", "  X"], cursor: (2, 3)),  // top >= bottom: ignored
        // A cursor saved in origin mode is restored where it was (found by the fuzz target).
        ScreenCase(#"\e[2;4r\e[?6h\e[2;2H\e7\e[HX\e8Y"#, ["", "X", " Y"], cursor: (2, 2)),
        // DECSLRM: text wraps at the right margin to the left one.
        ScreenCase(#"\e[?69h\e[3;6s\e[1;6HABCDEF"#, ["     A", "  BCDE", "  F"], cursor: (2, 3)),
        ScreenCase(#"0123456789\e[?69h\e[3;6s\e[1;3H\e[2P"#, ["0145  6789"], cursor: (0, 2)),
        ScreenCase(#"\e[?69h\e[3;6s\e[?69lXYZ"#, ["XYZ"], cursor: (0, 3)),
        ScreenCase(#"\e[?69h\e[3;6s\e[?6h\e[1;1HX"#, ["  X"], cursor: (0, 3)),
        // Outside the left and right margins LF and RI do not scroll; HPR goes past the
        // right margin to the screen's edge (xterm, and Ghostty: the oracle's fuzz corpus).
        ScreenCase(#"\e[5;1Habcdefghij\e[?69h\e[3;6s\e[5;1H\nX"#, ["", "", "", "", "Xbcdefghij"], cursor: (4, 1)),
        ScreenCase(#"abcdefghij\e[?69h\e[3;6s\e[1;1H\eMX"#, ["Xbcdefghij"], cursor: (0, 1)),
        ScreenCase(#"\e[?69h\e[3;6s\e[1;5H\e[9aX"#, ["         X"], cursor: (0, 9), pendingWrap: true),
        // So VPR goes past the bottom margin (tmux 3.3 ignores HPR and VPR).
        ScreenCase(#"\e[1;3r\e[2;1H\e[5eX"#, ["", "", "", "", "X"], cursor: (4, 1)),
        // A wide character across a margin is blanked before cells move between the margins,
        // so that no half moves away from the other (fuzz).
        ScreenCase("\u{1b}[2;2H漢x\u{1b}[?69h\u{1b}[3;10s\u{1b}[S", ["   x"], cursor: (0, 0)),
        // So it is before ICH, DCH and insert mode move cells (fuzz).
        ScreenCase("\u{1b}[?69habcd漢\u{1b}[;5s\u{1b}[@", [" abcd"], cursor: (0, 0)),
        ScreenCase("\u{1b}[?69habcd漢\u{1b}[;5s\u{1b}[P", ["bcd"], cursor: (0, 0)),
        ScreenCase("\u{1b}[?69he\u{1b}[4h]4;漢\u{1b}[;5s#", ["#e]4;"], cursor: (0, 1)),
    ]

    public static let charsets: [ScreenCase] = [
        ScreenCase(#"\e(0lqk\e(Bx"#, ["┌─┐x"], cursor: (0, 4)),
        ScreenCase(#"\e)0a\x0Eq\x0Fq"#, ["a─q"], cursor: (0, 3)),
        ScreenCase(#"\e(A#\e(B#"#, ["£#"], cursor: (0, 2)),
        ScreenCase(#"\e(0\e7\e(B\e8q"#, ["─"], cursor: (0, 1)),  // DECSC saves the sets
        // The saved cursor's set is not the one the edge cell is printed again in (fuzz).
        ScreenCase(#"\e(0\e7\e(Babcdefghij\a"#, ["abcdefghij"], cursor: (0, 9), pendingWrap: true),
    ]

    public static let wide: [ScreenCase] = [
        ScreenCase("漢字", ["漢字"], cursor: (0, 4)),
        ScreenCase("012345678漢", ["012345678", "漢"], cursor: (1, 2)),
        ScreenCase("01234567漢", ["01234567漢"], cursor: (0, 9), pendingWrap: true),
        ScreenCase(#"漢字\e[1;2HX"#, [" X字"], cursor: (0, 2)),
        ScreenCase(#"漢字\e[1;1HX"#, ["X 字"], cursor: (0, 1)),
        ScreenCase(#"漢字\e[1;2H\e[P"#, [" 字"], cursor: (0, 1)),
        ScreenCase(#"漢字\e[1;2H\e[4hx"#, [" x 字"], cursor: (0, 2)),  // inserted at a second half (fuzz)
        ScreenCase("e\u{301}a", ["e\u{301}a"], cursor: (0, 2)),
        ScreenCase("e\u{301}\u{301}", ["e\u{301}\u{301}"], cursor: (0, 1)),  // the first cluster has id 0 (fuzz)
        ScreenCase("\u{301}a", ["a"], cursor: (0, 1)),  // nothing to join at the start
        ScreenCase("漢\u{301}", ["漢\u{301}"], cursor: (0, 2)),
        ScreenCase("0123456789\u{301}", ["012345678" + "9\u{301}"], cursor: (0, 9), pendingWrap: true),
        ScreenCase(#"\xC3(\xE2\x82a\xF0\x9F\x98\x80"#, ["(a😀"], cursor: (0, 4)),
        ScreenCase(#"\xED\xA0\x80\xC0\xAF\xF8x"#, ["x"], cursor: (0, 1)),  // surrogate, overlong, bad lead
        ScreenCase("\u{85}\u{2028}x", ["x"], cursor: (0, 1)),  // not printable
    ]

    public static let screens: [ScreenCase] = [
        ScreenCase(#"main\e[?1049halt"#, ["    alt"], cursor: (0, 7)),
        ScreenCase(#"main\e[?1049halt\e[?1049l"#, ["main"], cursor: (0, 4)),
        ScreenCase(#"main\e[?1049h\e[2;2H\e[?1049lX"#, ["mainX"], cursor: (0, 5)),
        ScreenCase(#"main\e[?47halt"#, ["    alt"], cursor: (0, 7)),  // 47: no cursor save, no clear
        ScreenCase(#"\e[?47halt\e[?47l\r\nm\e[?47h"#, ["alt"], cursor: (1, 1)),  // 47 keeps what it showed
        ScreenCase(#"\e[?1047halt\e[?1047l\e[?47h"#, [""], cursor: (0, 3)),  // 1047 clears as it leaves
        ScreenCase(#"\e[?1049h\e[41m\e[?1049l\e[?1049hX"#, ["X"], cursor: (0, 1)),
        // The saved cursor's hyperlink does not leak onto the alternate screen's blanks (fuzz).
        ScreenCase(#"\e]8;;http://x\e\\\e[?1049h\e[2;3Hab"#, ["", "  ab"], cursor: (1, 4)),
        // Margins set on the alternate screen keep the wrap 1049 saved pending at the old
        // right margin (fuzz).
        ScreenCase(#"\e[?69h\e[;6sabcdef\e[?1049h\e[2;8sX"#, ["X"], cursor: (0, 1)),
        // Restored there, such a wrap is dropped: no repaint could leave a terminal waiting
        // to wrap short of its margin.
        ScreenCase(#"\e[?69h\e[;6sabcdef\e[?1049h\e[2;8s\e[?1049lX"#, ["abcdeX"], cursor: (0, 6)),
        ScreenCase(#"\e[?69h\e[;6sabcdef\e7\e[2;8s\e8X"#, ["abcdeX"], cursor: (0, 6)),
        // As tmux: DECSC has one slot for both screens, and 1049 one of its own for the
        // position and the pen, which its leaving restores even from the main screen
        // (xterm: a DECSC slot per screen, 1049 saving into the main one's).
        ScreenCase(#"\e[2;3H\e7\e[?1049h\e[3;5H\e7\e[?1049l\e8X"#, ["", "", "    X"], cursor: (2, 5)),
        ScreenCase(#"\e[2;2H\e[?1049h\e[?1049l\e[4;4H\e7\e[?1049lX"#, ["", " X"], cursor: (1, 2)),
        ScreenCase(#"\e[?47h\e[2;6H\e7\e[?47l\e8X"#, ["", "     X"], cursor: (1, 6)),
    ]

    /// REP as the first sequence after a repaint (the first output after an unlock): the
    /// repaint ends by printing the last character again where it is, so REP repeats it
    /// as it would have (fuzz, lock-controller). Each case ends with the REP.
    public static let repeatAfterRepaint: [ScreenCase] = [
        ScreenCase(#"ab\e[3b"#, ["abbbb"], cursor: (0, 5)),
        ScreenCase(#"a\e[2b\e[3b"#, ["aaaaaa"], cursor: (0, 6)),
        ScreenCase(#"0123456789\e[3b"#, ["0123456789", "9"], cursor: (1, 1)),  // the pending wrap (once: tmux)
        ScreenCase(#"\e[?7l012345678\e[3b"#, ["0123456788"], cursor: (0, 9)),  // autowrap off
        ScreenCase(#"\e[?7l0123456789\e[3b"#, ["0123456789"], cursor: (0, 9)),
        ScreenCase(#"0123456789\e[1;3H\e[4hX\e[3b"#, ["01XXXX2345"], cursor: (0, 6)),  // insert mode
        ScreenCase(#"\e(0q\e[3b"#, ["────"], cursor: (0, 4)),
        ScreenCase(#"\e)0\x0Eq\e[3b"#, ["────"], cursor: (0, 4)),
        ScreenCase(#"\e[?69h\e[3;6s\e[1;3Habcd\e[3b"#, ["  abcd", "  ddd"], cursor: (1, 5)),
        ScreenCase(#"\e[2;4r\e[?6h\e[2;2Hab\e[3b"#, ["", "", " abbbb"], cursor: (2, 6)),
        ScreenCase(#"\e[1;31m\e]8;;http://x\e\\a\e[3b"#, ["aaaa"], cursor: (0, 4)),
        ScreenCase(#"a\r\e[3b"#, ["a"], cursor: (0, 0)),  // nothing to repeat
    ]

    /// A combining mark joins a blank cell before it as the space it shows: the repaint
    /// draws blanks as spaces, and a mark after it joined the terminal's space but not the
    /// model's blank (fuzz, lock-controller). Each case ends with the mark.
    public static let markAfterBlank: [ScreenCase] = [
        ScreenCase("\t\u{301}", ["        \u{301}"], cursor: (0, 8)),
        ScreenCase("ab\u{1b}[4G\u{301}", ["ab \u{301}"], cursor: (0, 3)),
        ScreenCase("\u{1b}[41m\u{1b}[2K\u{1b}[m\u{1b}[3G\u{301}", ["  \u{301}"], cursor: (0, 2)),
    ]
}

import PTYKit
import Testing

/// One libvterm `t/02parser.test`-style case: bytes pushed, state expected afterwards.
struct Transcript: Sendable, CustomTestStringConvertible {
    let input: String
    let expected: Observed

    init(_ input: String, _ expected: Observed = Observed()) {
        self.input = input
        self.expected = expected
    }

    var testDescription: String { "PUSH \"\(input)\"" }
}

/// The mode-tracking transcripts the screen model must pass:
/// bytes pushed, the modes, titles and boundary expected after them.
enum ModeTranscripts {
    static let privateModes: [Transcript] = [
        Transcript(#"plain text\r\n\ttabbed"#),
        Transcript(#"\e[?1049h"#, Observed(modesOn: [25, 1049])),
        Transcript(#"\e[?1049h\e[?1049l"#),
        Transcript(#"\e[?47h"#, Observed(modesOn: [25, 47])),
        Transcript(#"\e[?1047h"#, Observed(modesOn: [25, 1047])),
        Transcript(#"\e[?1049h\e[?47l"#),
        Transcript(#"\e[?1049h\e[?47h\e[?1047l"#),
        Transcript(#"\e[?25l"#, Observed(modesOn: [])),
        Transcript(#"\e[?25l\e[?25h"#),
        Transcript(#"\e[?1h"#, Observed(modesOn: [1, 25])),
        Transcript(#"\e[?1h\e[?1l"#),
        Transcript(#"\e[?1000;1006h"#, Observed(modesOn: [25, 1000, 1006])),
        Transcript(#"\e[?1000;1006h\e[?1000;1006l"#),
        Transcript(#"\e[?9h"#, Observed(modesOn: [9, 25])),
        Transcript(#"\e[?1001h"#, Observed(modesOn: [25, 1001])),
        Transcript(#"\e[?1002h\e[?1005h"#, Observed(modesOn: [25, 1002, 1005])),
        Transcript(#"\e[?1003h\e[?1016h"#, Observed(modesOn: [25, 1003, 1016])),
        // One tracking mode at a time; resetting any of them stops tracking (xterm).
        Transcript(#"\e[?1000h\e[?1002h"#, Observed(modesOn: [25, 1002])),
        Transcript(#"\e[?1003h\e[?1000l"#),
        // One coordinate encoding at a time; only its own number resets it.
        Transcript(#"\e[?1006h\e[?1015h"#, Observed(modesOn: [25, 1015])),
        Transcript(#"\e[?1006h\e[?1015l"#, Observed(modesOn: [25, 1006])),
        Transcript(#"\e[?1004h\e[?2004h"#, Observed(modesOn: [25, 1004, 2004])),
        Transcript(#"\e[?2004h\e[?2004l"#),
        Transcript(#"\e[?1;25;1049;2004l"#, Observed(modesOn: [])),
        Transcript(#"\e[?1048h\e[?12h\e[?7727h"#),  // untracked private modes
        Transcript(#"\e[2004h\e[1049h"#),  // ANSI modes, not DEC private modes
        Transcript(#"\e[?2004s\e[?2004h\e[?2004r"#, Observed(modesOn: [25, 2004])),  // XTSAVE/XTRESTORE ignored
        Transcript(#"\e[?1049;25$p"#),  // DECRQM query
        Transcript(#"\e[?h\e[?;h"#),
        Transcript(#"\e[?0001049h"#, Observed(modesOn: [25, 1049])),
    ]

    static let keypadAndKeyboard: [Transcript] = [
        Transcript(#"\e="#, Observed(applicationKeypad: true)),
        Transcript(#"\e=\e>"#),
        Transcript(#"\e[?66h"#, Observed(applicationKeypad: true)),
        Transcript(#"\e=\e[?66l"#),
        Transcript(#"\e[>1u"#, Observed(kittyKeyboardFlags: 1)),
        Transcript(#"\e[>1u\e[>3u"#, Observed(kittyKeyboardFlags: 3)),
        Transcript(#"\e[>1u\e[>3u\e[<u"#, Observed(kittyKeyboardFlags: 1)),
        Transcript(#"\e[>1u\e[>3u\e[<2u"#),
        Transcript(#"\e[>1u\e[<5u"#),
        Transcript(#"\e[>1u\e[<0u"#, Observed(kittyKeyboardFlags: 1)),
        Transcript(#"\e[>1u\e[>u"#),  // push without flags pushes 0
        Transcript(#"\e[=5u"#, Observed(kittyKeyboardFlags: 5)),
        Transcript(#"\e[=5;1u\e[=2;2u"#, Observed(kittyKeyboardFlags: 7)),
        Transcript(#"\e[=7u\e[=2;3u"#, Observed(kittyKeyboardFlags: 5)),
        Transcript(#"\e[=7u\e[=1;9u"#, Observed(kittyKeyboardFlags: 7)),  // unknown mode
        Transcript(#"\e[>1u\e[=8;2u\e[<u"#),
        Transcript(#"\e[>1u\e[?u\e[u"#, Observed(kittyKeyboardFlags: 1)),  // query and SCORC
        // One stack per screen.
        Transcript(#"\e[>1u\e[?1049h"#, Observed(modesOn: [25, 1049])),
        Transcript(#"\e[>1u\e[?1049h\e[>4u"#, Observed(modesOn: [25, 1049], kittyKeyboardFlags: 4)),
        Transcript(#"\e[>1u\e[?1049h\e[>4u\e[?1049l"#, Observed(kittyKeyboardFlags: 1)),
        Transcript(#"\e[>1u\e[?1049h\e[>4u\e[?1049l\e[?47h"#, Observed(modesOn: [25, 47], kittyKeyboardFlags: 4)),
        Transcript(#"\e[>4;2m"#, Observed(modifyOtherKeys: 2)),
        Transcript(#"\e[>4;1m"#, Observed(modifyOtherKeys: 1)),
        Transcript(#"\e[>4;2m\e[>4m"#),
        Transcript(#"\e[>4;2m\e[>4;m"#),
        Transcript(#"\e[>4;2m\e[>4;0m"#),
        Transcript(#"\e[>4;2m\e[>m"#),
        Transcript(#"\e[>4;2m\e[>4n"#),
        Transcript(#"\e[>4;2m\e[>1;2m\e[>1n"#, Observed(modifyOtherKeys: 2)),  // other resources
        Transcript(#"\e[4;2m"#),  // SGR, no marker
    ]

    static let titles: [Transcript] = [
        Transcript(#"\e]0;hello\a"#, Observed(titleWasSet: true)),
        Transcript(#"\e]2;hello\e\\"#, Observed(titleWasSet: true)),
        Transcript(#"\e]2;héllo ⛄\a"#, Observed(titleWasSet: true)),
        Transcript(#"\e]2;\a"#, Observed(titleWasSet: true)),
        Transcript(#"\e]1;icon\a"#, Observed(titleWasSet: true)),  // the icon title shows as a tab title
        Transcript(#"\e]20;x\a\e]12;red\a\e]52;c;aGk=\a"#),
        Transcript(#"\e]2\a\e]2x;y\a"#),
        // tmux applies an OSC however it ends (xterm drops one cut by CAN or SUB).
        Transcript(#"\e]2;aborted\x18"#, Observed(titleWasSet: true)),
        Transcript(#"\e]2;aborted\x1A"#, Observed(titleWasSet: true)),
        Transcript(#"\e]5;aborted\x18"#),
        // tmux takes APC strings for pane titles, and ESC k strings for window names.
        Transcript(#"\e_secret title\e\\"#, Observed(titleWasSet: true)),
        Transcript(#"\e_secret title\x18"#, Observed(titleWasSet: true)),
        Transcript(#"\e_secret"#, Observed(atBoundary: false)),
        Transcript(#"\eksecret name\e\\"#, Observed(windowNameWasSet: true)),
        Transcript(#"\eksecret name\x1A"#, Observed(windowNameWasSet: true)),
        Transcript(#"\eksecret"#, Observed(atBoundary: false)),
        Transcript(#"\ek\e\\\ec"#, Observed(windowNameWasSet: true)),  // RIS keeps the name
        Transcript(#"\e]0;unfinished"#, Observed(atBoundary: false)),
        Transcript(#"\e]0;x\e[?1049h"#, Observed(modesOn: [25, 1049], titleWasSet: true)),  // ESC ends the OSC
        Transcript(#"\e]2;x\a\ec"#, Observed(titleWasSet: true)),
    ]

    static let resets: [Transcript] = [
        Transcript(
            #"\e[?1049h\e[?1000h\e[?1006h\e[?1004h\e[?2004h\e[?25l\e[?1h\e=\e[>4;2m\e[>1u\e[!p"#,
            Observed(modesOn: [25, 1049], kittyKeyboardFlags: 1)),
        Transcript(#"\e]2;t\a\e[?1049h\e[?1000h\e[?25l\e[>1u\e=\e[>4;2m\ec"#, Observed(titleWasSet: true)),
        Transcript(#"\e[>1u\e[?1049h\e[>2u\ec"#),
        Transcript(#"\e[?1049h\e[$p\e[!!p"#, Observed(modesOn: [25, 1049])),  // not DECSTR
        Transcript(#"\e=\e(c\e#c"#, Observed(applicationKeypad: true)),  // not RIS
    ]

    static let boundaries: [Transcript] = [
        Transcript(#"\e"#, Observed(atBoundary: false)),
        Transcript(#"\e["#, Observed(atBoundary: false)),
        Transcript(#"\e[?10"#, Observed(atBoundary: false)),
        Transcript(#"\e[?1049$"#, Observed(atBoundary: false)),
        Transcript(#"\e("#, Observed(atBoundary: false)),
        Transcript(#"\e(B\e7\e8\e\\"#),
        Transcript(#"\e[38:2:1:2:3m\e[1;31m"#),
        Transcript(#"\e[38:2:1"#, Observed(atBoundary: false)),
        Transcript(#"\eP1$r0m\e\\"#),
        Transcript(#"\ePq#0;2;0;0;0#0~~@@"#, Observed(atBoundary: false)),
        Transcript(#"\eP"#, Observed(atBoundary: false)),
        Transcript(#"\eP1;2"#, Observed(atBoundary: false)),
        Transcript(#"\eP\a"#, Observed(atBoundary: false)),  // BEL ends only OSC
        // tmux ends a DCS string only at ESC \: CAN, SUB and other escapes are payload.
        Transcript(#"\ePq\ex"#, Observed(atBoundary: false)),
        Transcript(#"\ePq\x18"#, Observed(atBoundary: false)),
        Transcript(#"\ePq\x1A\e[?1049h"#, Observed(atBoundary: false)),
        Transcript(#"\ePq\e\e\\"#, Observed(atBoundary: false)),
        Transcript(#"\ePq\e\e\\\e\\"#),
        Transcript(#"\ePtmux;\e\e_Gf=100;AAAA\e\e\\"#, Observed(atBoundary: false)),  // tmux passthrough
        Transcript(#"\ePtmux;\e\e_Gf=100;AAAA\e\e\\\e\\"#),
        Transcript(#"\eP1\x18\e[?1049h"#, Observed(modesOn: [25, 1049])),  // CAN ends it before the payload
        Transcript(#"\e_Gf=100;AAAA\e\\"#, Observed(titleWasSet: true)),
        Transcript(#"\e_Gf=100;AAAA\a"#, Observed(atBoundary: false)),
        Transcript(#"\e^privacy\e\\\eXstart of string\e\\"#),
        Transcript(#"\e]8;;http://example.com\e\\link\e]8;;\e\\"#),
        Transcript(#"héllo wörld ⛄ 𝄞"#),
        Transcript(#"\xC3"#, Observed(atBoundary: false)),
        Transcript(#"\xE2\x9B"#, Observed(atBoundary: false)),
        Transcript(#"\xE2\x9B\x84"#),
        Transcript(#"\xF0\x9D\x84"#, Observed(atBoundary: false)),
        Transcript(#"\xC3A"#),  // ASCII ends a partial character
        Transcript(#"\xE2\x9B\e[?1049h"#, Observed(modesOn: [25, 1049])),
        Transcript(#"\xE2\x9B\x18"#),
        Transcript(#"\xC3\xC3"#, Observed(atBoundary: false)),  // a new lead restarts
        Transcript(#"\x80\xBF\xC0\xC1\xF5\xFF"#),  // bytes that stand alone
        Transcript(#"\xF0\x80\x80"#, Observed(atBoundary: false)),  // counted like tmux
        Transcript(#"\xF0\x80\x80\x80A\xED\xA0\x80B"#),
    ]

    static let noC1: [Transcript] = [
        Transcript(#"\x9B?1049h"#),  // raw 8-bit CSI
        Transcript(#"\xC2\x9B?1049h"#),  // U+009B encoded in UTF-8
        Transcript(#"\x9D2;title\x9C"#),  // 8-bit OSC and ST
        Transcript(#"\x90q\x9C"#),  // 8-bit DCS
        Transcript(#"\xE2\x9B\x84\e[?2004h\xE2\x9B\x84"#, Observed(modesOn: [25, 2004])),
        Transcript(#"\e[?10\x9B49h"#, Observed(modesOn: [25, 1049])),  // ignored inside CSI
        Transcript(#"\e]2;\x9Ctitle\a"#, Observed(titleWasSet: true)),
    ]

}

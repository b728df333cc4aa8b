import PTYKit
import Testing

private func isReplies(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { TerminalReplies.consistsOnlyOfReplies($0) }
}

private func isReplies(_ text: String) -> Bool {
    isReplies(Array(text.utf8))
}

private func holdsKeys(_ scanner: inout TerminalReplyScanner, _ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.withUnsafeBytes { scanner.holdsKeys($0) }
}

private let escape = "\u{1B}"
private let csi = "\u{1B}["
private let osc = "\u{1B}]"
private let dcs = "\u{1B}P"
private let apc = "\u{1B}_"
private let st = "\u{1B}\\"
private let bell = "\u{7}"

/// One of each reply kind the classifier knows.
private let replies: [String] = [
    "\(csi)24;80R",  // cursor position
    "\(csi)1;1R",
    "\(csi)?24;80R",  // DECXCPR
    "\(csi)?24;80;1R",
    "\(csi)?1;2c",  // DA1
    "\(csi)?62;1;2;6;9;15;22c",
    "\(csi)?6c",
    "\(csi)>0;276;0c",  // DA2
    "\(csi)>1;10;0c",
    "\(dcs)!|00000000\(st)",  // DA3
    "\(dcs)!|7E565445\(st)",
    "\(csi)0n",  // DSR
    "\(csi)3n",
    "\(csi)?10n",  // DEC DSR (printer)
    "\(csi)?27;1;0;0n",  // keyboard
    "\(csi)?997;1n",  // colour scheme
    "\(csi)?2004;1$y",  // DECRPM, DEC mode
    "\(csi)?2026;2$y",
    "\(csi)4;2$y",  // DECRPM, ANSI mode
    "\(osc)4;1;rgb:cdcd/0000/0000\(st)",  // palette colour
    "\(osc)4;1;rgb:cdcd/0000/0000\(bell)",
    "\(osc)4;1;rgb:cd/00/00;2;rgb:00/cd/00\(st)",
    "\(osc)5;0;rgb:ffff/ffff/ffff\(bell)",
    "\(osc)10;rgb:ffff/ffff/ffff\(st)",  // foreground
    "\(osc)11;rgb:0000/0000/0000\(bell)",  // background
    "\(osc)11;rgba:0000/0000/0000/ffff\(st)",
    "\(osc)12;rgb:ff/ff/ff\(st)",  // cursor
    "\(osc)19;rgb:FFFF/FFFF/FFFF\(bell)",
    "\(osc)10;rgb:ffff/ffff/ffff;rgb:0000/0000/0000\(st)",
    "\(osc)52;c;aGVsbG8=\(st)",  // clipboard contents
    "\(osc)52;c;aGVsbG8gd29ybGQ=\(bell)",
    "\(osc)52;p;\(st)",  // an empty selection
    "\(osc)52;;SGk/+w==\(st)",
    "\(osc)lsecret title ⛄\(st)",  // window title report
    "\(osc)L\(bell)",  // icon label report
    "\(dcs)>|XTerm(388)\(st)",  // XTVERSION
    "\(dcs)>|tmux 3.4\(st)",
    "\(dcs)1$r0;1m\(st)",  // DECRQSS
    "\(dcs)1$r2 q\(st)",
    "\(dcs)0$r\(st)",
    "\(dcs)1+r544e=787465726d\(st)",  // XTGETTCAP
    "\(dcs)0+r636f6c6f7273\(st)",
    "\(csi)I",  // focus in
    "\(csi)O",  // focus out
    "\(csi)?0u",  // kitty keyboard flags
    "\(csi)?31u",
    "\(csi)4;600;800t",  // window size in pixels
    "\(csi)8;24;80t",  // text area in characters
    "\(csi)3;10;20t",  // window position
    "\(csi)6;16;8t",  // cell size
    "\(csi)9;50;200t",  // screen size in characters
    "\(csi)1t",  // not iconified
    "\(csi)2t",  // iconified
    "\(csi)>4;2m",  // XTQMODKEYS
    "\(csi)>4m",
    "\(csi)?1;0;256S",  // XTSMGRAPHICS
    "\(csi)?2;0;1000;800S",
    "\(apc)Gi=31;OK\(st)",  // kitty graphics
]

/// Keys and other input a person produces.
private let keys: [String] = [
    "a", "hello", " ", "\r", "\n", "\t", "\u{3}", "\u{7F}", "\u{1B}", "é", "日本",
    "\(csi)A", "\(csi)B", "\(csi)C", "\(csi)D",  // arrows
    "\(escape)OA", "\(escape)OP",  // application cursor key, F1
    "\(csi)1;5A", "\(csi)1;2D",  // modified arrows
    "\(csi)H", "\(csi)F", "\(csi)2~", "\(csi)3~", "\(csi)5~", "\(csi)15~", "\(csi)24;5~",
    "\(csi)Z",  // shift+tab
    "\(csi)1;5P", "\(csi)P",  // F1 variants
    "\(csi)M !!",  // X10 mouse
    "\(csi)<0;10;5M", "\(csi)<0;10;5m",  // SGR mouse
    "\(csi)200~pasted\(csi)201~",  // bracketed paste
    "\(csi)97;5u", "\(csi)13u", "\(csi)97u",  // kitty keyboard protocol keys
    "\(csi)27;5;97~",  // modifyOtherKeys
    "\(escape)a", "\(escape)[", "\(escape)]", "\(escape)P",  // Alt+key
    "\(escape)\(escape)",
    "\(escape)x\(csi)24;80R",
]

@Suite("Terminal replies")
struct TerminalRepliesTests {
    @Test("each reply alone", arguments: replies)
    func replyAlone(reply: String) {
        #expect(isReplies(reply))
    }

    @Test("each key alone", arguments: keys)
    func keyAlone(key: String) {
        #expect(!isReplies(key))
    }

    @Test("an empty chunk is not a reply")
    func empty() {
        #expect(!isReplies([]))
    }

    @Test("several replies in one chunk")
    func concatenated() {
        #expect(isReplies(replies.joined()))
        #expect(isReplies("\(csi)24;80R\(csi)?62;22c"))
        #expect(isReplies("\(csi)I\(csi)O\(csi)I"))
        #expect(isReplies("\(osc)11;rgb:0/0/0\(bell)\(csi)0n"))
        for (first, second) in zip(replies, replies.reversed()) {
            #expect(
                isReplies(first + second), "\(first.debugDescription) + \(second.debugDescription)")
        }
    }

    @Test("a reply together with a typed key is activity", arguments: replies)
    func mixedWithKey(reply: String) {
        #expect(!isReplies("a" + reply))
        #expect(!isReplies(reply + "a"))
        #expect(!isReplies(reply + "\(csi)A"))
        #expect(!isReplies("\(csi)A" + reply))
        #expect(!isReplies(reply + "\r" + reply))
        #expect(!isReplies(reply + "\u{1B}"))
    }

    @Test("every truncation of a reply is not a reply", arguments: replies)
    func truncated(reply: String) {
        let bytes = Array(reply.utf8)
        for length in 1..<bytes.count {
            let prefix = Array(bytes[..<length])
            #expect(
                !isReplies(prefix), "\(String(decoding: prefix, as: UTF8.self).debugDescription)")
        }
    }

    @Test(
        "sequences close to replies that are not",
        arguments: [
            "\(csi)24R", "\(csi)1;2;3R", "\(csi);80R", "\(csi)24;R", "\(csi)24;;80R",  // CPR shape
            "\(csi)?1R", "\(csi)?1;2;3;4R",
            "\(csi)c", "\(csi)0c", "\(csi)?c", "\(csi)>c", "\(csi)=1c",  // DA queries, not replies
            "\(csi)5n", "\(csi)6n", "\(csi)n", "\(csi)0;0n", "\(csi)?n",  // DSR queries
            "\(csi)?2004$y", "\(csi)?2004;1;1$y", "\(csi)?2004;1y", "\(csi)?2004;1$p",  // DECRQM
            "\(csi)1I", "\(csi)?I", "\(csi)1O",  // not focus
            "\(csi)?u", "\(csi)?1;2u", "\(csi)>1u", "\(csi)=1u",  // kitty flags set/push, not a reply
            "\(csi)t", "\(csi)7t", "\(csi)14t", "\(csi)18t", "\(csi)4;600t", "\(csi)8;24;80;1t",
            "\(csi)1;1t", "\(csi)22;0t",  // window operations, not reports
            "\(csi)>m", "\(csi)>4;2;1m", "\(csi)?1S", "\(csi)?1;0S",
            "\(csi)24:80R", "\(csi)24;80$$y", "\(csi)24;80\u{7}R",
            "\(osc)11;?\(st)", "\(osc)11;?\(bell)",  // colour queries
            "\(osc)11;#000000\(st)", "\(osc)11;rgb:\(st)", "\(osc)11;rgb:0/0/0",
            "\(osc)11;rgb:0/0/0\(escape)", "\(osc)11;rgb:0/0/0\(escape)x",
            "\(osc)11;rgb:0/0/0;\(st)", "\(osc)11;rgb:0/0/0\(bell)\(bell)",
            "\(osc)11;rgb:0/0/0 \(st)", "\(osc)11;rgb:g/0/0\(st)",
            "\(osc)4;rgb:0/0/0\(st)", "\(osc)4;1\(st)", "\(osc)4;1;rgb:0/0/0;2\(st)",
            "\(osc)20;rgb:0/0/0\(st)", "\(osc)9;rgb:0/0/0\(st)",
            // clipboard shapes
            "\(osc)52;c;?\(st)", "\(osc)52;c\(st)", "\(osc)52;x;aGk=\(st)", "\(osc)52;c;aG k=\(st)",
            "\(osc)52;c;aGk=", "\(osc)52;c;aGk=\(escape)", "\(osc)52;c;aGk=;\(st)",
            "\(osc)ltitle", "\(osc)lti\u{1}tle\(st)", "\(osc)l\(escape)x", "\(osc)m\(st)",  // title reports
            "\(osc)0;title\(bell)", "\(osc);rgb:0/0/0\(st)",
            "\(dcs)>|XTerm(388)\(bell)", "\(dcs)2$r0m\(st)", "\(dcs)1$q\(st)", "\(dcs)1+q\(st)",
            "\(dcs)!|zz\(st)", "\(dcs)!x\(st)", "\(dcs)>x\(st)", "\(dcs)q#0;2;0;0;0\(st)",
            "\(dcs)1$r\u{1}\(st)", "\(dcs)\(st)",
            "\(apc)Hi=1\(st)", "\(apc)\(st)", "\(apc)Gi=1\(bell)",
            "\u{9B}24;80R", "\u{9B}I", "\u{9D}11;rgb:0/0/0\u{9C}",  // 8-bit C1
            "\u{C2}\u{9B}24;80R",  // C1 CSI encoded in UTF-8
        ])
    func nearMisses(text: String) {
        #expect(!isReplies(text))
    }

    @Test("a reply cut across reads is a reply, wherever it is cut", arguments: replies)
    func acrossReads(reply: String) {
        let bytes = Array(reply.utf8)
        for cut in 1..<bytes.count {
            var scanner = TerminalReplyScanner()
            #expect(!holdsKeys(&scanner, bytes[..<cut]), "\(reply.debugDescription) cut at \(cut)")
            #expect(scanner.isInsideReply)
            #expect(!holdsKeys(&scanner, bytes[cut...]), "\(reply.debugDescription) cut at \(cut)")
            #expect(!scanner.isInsideReply)
        }
        var byByte = TerminalReplyScanner()
        #expect(!bytes.contains { holdsKeys(&byByte, [$0][...]) }, "\(reply.debugDescription) byte by byte")
        #expect(!byByte.isInsideReply)
    }

    @Test("a key typed in the middle of a reply is a key", arguments: replies)
    func keyInTheMiddle(reply: String) {
        let bytes = Array(reply.utf8)
        // Keys no reply can go on with.
        for key in ["\r", "\u{3}", "\u{7F}", "\u{4}"] {
            for cut in 1..<bytes.count {
                var scanner = TerminalReplyScanner()
                _ = holdsKeys(&scanner, bytes[..<cut])
                #expect(
                    holdsKeys(&scanner, Array(key.utf8)[...]), "\(key.debugDescription) in \(reply.debugDescription)")
            }
        }
    }

    @Test("what may still be a reply counts once the next read tells")
    func pendingUntilTheNextRead() {
        var scanner = TerminalReplyScanner()
        // The Escape key, then a letter: both keys, known at the letter.
        #expect(!holdsKeys(&scanner, Array("\u{1B}".utf8)[...]))
        #expect(holdsKeys(&scanner, Array("j".utf8)[...]))
        // Alt+[ then a whole reply: Alt+[ was a key.
        #expect(!holdsKeys(&scanner, Array("\(csi)".utf8)[...]))
        #expect(holdsKeys(&scanner, Array("\(csi)24;80R".utf8)[...]))
        #expect(!scanner.isInsideReply)
        // A reply begun after keys in the same read goes on in the next.
        #expect(holdsKeys(&scanner, Array("x\(osc)52;c;aGVs".utf8)[...]))
        #expect(!holdsKeys(&scanner, Array("bG8=\(st)".utf8)[...]))
        // Forgotten after a reset: the rest of it is keys.
        #expect(!holdsKeys(&scanner, Array("\(osc)52;c;aGVs".utf8)[...]))
        scanner.reset()
        #expect(holdsKeys(&scanner, Array("bG8=\(st)".utf8)[...]))
    }

    @Test("a key encoded exactly like a reply counts as a reply (the safe side)")
    func keyShapedLikeReply() {
        #expect(isReplies("\(csi)1;5R"))  // xterm Ctrl+F3
    }

    @Test("very long parameters saturate instead of overflowing")
    func longParameters() {
        let digits = String(repeating: "9", count: 100)
        #expect(isReplies("\(csi)\(digits);\(digits)R"))
        #expect(isReplies("\(csi)?\(digits)c"))
        #expect(!isReplies("\(csi)\(digits)n"))
        #expect(!isReplies("\(csi)\(digits);1;1t"))
    }

    @Test("a reply inside a larger buffer is judged on the bytes given only")
    func bufferSlices() {
        let bytes = Array("x\(csi)24;80Ry".utf8)
        bytes.withUnsafeBytes { buffer in
            let inner = UnsafeRawBufferPointer(rebasing: buffer[1..<(buffer.count - 1)])
            #expect(TerminalReplies.consistsOnlyOfReplies(inner))
            let withTail = UnsafeRawBufferPointer(rebasing: buffer[1...])
            #expect(!TerminalReplies.consistsOnlyOfReplies(withTail))
        }
    }
}

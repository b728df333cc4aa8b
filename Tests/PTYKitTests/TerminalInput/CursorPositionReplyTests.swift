import PTYKit
import Testing

/// The answer to DSR 6 cut out of the terminal's input, keys around it kept in order.
struct CursorPositionReplyTests {
    func take(_ reply: inout CursorPositionReply, _ text: String, holding: Bool = true) -> String {
        String(decoding: Array(text.utf8).withUnsafeBytes { reply.take($0, holding: holding) }, as: UTF8.self)
    }

    @Test func theReplyGoesAndKeysAroundItStay() {
        var reply = CursorPositionReply()
        #expect(take(&reply, "ab\u{1B}[15;3Rcd") == "abcd")
        #expect(reply.position! == (15, 3))
    }

    @Test func onlyTheFirstReplyIsTaken() {
        var reply = CursorPositionReply()
        #expect(take(&reply, "\u{1B}[1;1R\u{1B}[2;2R") == "\u{1B}[2;2R")
        #expect(take(&reply, "\u{1B}[3;3R") == "\u{1B}[3;3R")
        #expect(reply.position! == (1, 1))
    }

    /// Split at every byte: the same keys, in the same order, and the same position.
    @Test func aReplyCutAcrossReadsIsStillOne() {
        let input = Array("typed\u{1B}[A\u{1B}\u{1B}[24;80Rmore\u{1B}[B".utf8)
        for cut in 0...input.count {
            var reply = CursorPositionReply()
            var keys = input[..<cut].withUnsafeBytes { reply.take($0, holding: true) }
            keys += input[cut...].withUnsafeBytes { reply.take($0, holding: true) }
            keys += reply.flush()
            #expect(String(decoding: keys, as: UTF8.self) == "typed\u{1B}[A\u{1B}more\u{1B}[B", "cut at \(cut)")
            #expect(reply.position.map { [$0.row, $0.column] } == [24, 80], "cut at \(cut)")
        }
    }

    /// A lone Escape, or ESC [, may be a key typed; ESC [ and a digit on is the reply's start.
    @Test func whatIsHeldIsABegunReplyOnceADigitFollowsTheBracket() {
        for (text, begun) in [("\u{1B}", false), ("\u{1B}[", false), ("\u{1B}[1", true), ("\u{1B}[12;4", true)] {
            var reply = CursorPositionReply()
            #expect(take(&reply, "x" + text) == "x")
            #expect(reply.holdsBegunReply == begun, "\(text.debugDescription)")
        }
        #expect(!CursorPositionReply().holdsBegunReply)
    }

    @Test func whatOnlyLooksLikeItsStartGoesOnWhenTheNextByteSays() {
        var reply = CursorPositionReply()
        #expect(take(&reply, "x\u{1B}[12") == "x")
        #expect(reply.held == Array("\u{1B}[12".utf8))
        #expect(take(&reply, "~") == "\u{1B}[12~")
        #expect(reply.position == nil)
        #expect(take(&reply, "\u{1B}") == "")
        #expect(reply.flush() == [0x1B])
    }

    @Test(arguments: ["\u{1B}[;1R", "\u{1B}[1R", "\u{1B}[1;R", "\u{1B}[?1;1R", "\u{1B}[12345678;1R", "\u{1B}[1;2;3R"])
    func otherSequencesAreKeys(text: String) {
        var reply = CursorPositionReply()
        #expect(take(&reply, text) == text)
        #expect(reply.position == nil)
    }

    @Test func withoutHoldingAPartialStartGoesOnAtOnce() {
        var reply = CursorPositionReply()
        #expect(take(&reply, "\u{1B}[1;", holding: false) == "\u{1B}[1;")
        #expect(reply.held.isEmpty)
    }
}

import Testing

@testable import TestSupport
@testable import idlewrap

@Suite struct PasswordLineEditorTests {
    /// What feeding some typed bytes left behind.
    struct Outcome: Equatable, CustomStringConvertible {
        var line: String
        var submitted: Bool
        /// Bytes used, counted across chunks; the rest of the burst is dropped.
        var consumed: Int

        var description: String { "line \(line.debugDescription) submitted \(submitted) consumed \(consumed)" }
    }

    /// Feeds `chunks` in order as separate reads, stopping at a submitted line.
    static func outcome(_ chunks: [[UInt8]]) -> Outcome {
        var editor = PasswordLineEditor()
        var consumed = 0
        for chunk in chunks {
            let result = chunk.withUnsafeBytes { editor.feed($0) }
            if let (event, count) = result, event == .submitted {
                return Outcome(line: lineText(editor), submitted: true, consumed: consumed + count)
            }
            consumed += chunk.count
        }
        return Outcome(line: lineText(editor), submitted: false, consumed: consumed)
    }

    static func lineText(_ editor: PasswordLineEditor) -> String {
        String(decoding: contents(of: editor.line), as: UTF8.self)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let typed: String
        let line: String
        let submittedAfter: Int?

        init(_ typed: String, _ line: String, submittedAfter: Int? = nil) {
            self.typed = typed
            self.line = line
            self.submittedAfter = submittedAfter
        }

        var testDescription: String { typed.debugDescription }

        var expected: Outcome {
            Outcome(line: line, submitted: submittedAfter != nil, consumed: submittedAfter ?? Array(typed.utf8).count)
        }
    }

    static let cases: [Case] = [
        Case("abc", "abc"),
        Case("abc\r", "abc", submittedAfter: 4),
        Case("abc\n", "abc", submittedAfter: 4),
        Case("\r\n\rabc", "abc"),
        Case("abc\rdef\r", "abc", submittedAfter: 4),
        Case("abc\r\n", "abc", submittedAfter: 4),
        Case("abc\u{7f}", "ab"),
        Case("abc\u{08}", "ab"),
        Case("\u{7f}\u{08}a", "a"),
        Case("ab\u{15}cd", "cd"),
        Case("ab\u{03}cd", "cd"),
        Case("a\u{01}\u{09}b\u{00}\u{1c}\u{1a}\u{04}c", "abc"),
        Case("aé\u{7f}", "a"),
        Case("a😀\u{7f}", "a"),
        Case("€ñ\u{7f}\u{7f}x", "x"),
        Case("pässwörd\r", "pässwörd", submittedAfter: 11),
        // Cursor keys, normal and application mode, with modifiers.
        Case("a\u{1b}[Ab", "ab"),
        Case("a\u{1b}OAb", "ab"),
        Case("a\u{1b}[1;5Cb", "ab"),
        Case("a\u{1b}[3~b", "ab"),
        Case("a\u{1b}O5Pb", "ab"),
        // Mouse (SGR), focus events, kitty keyboard protocol.
        Case("\u{1b}[<0;10;20Mx\u{1b}[<0;10;20m", "x"),
        Case("\u{1b}[Ix\u{1b}[O", "x"),
        Case("\u{1b}[97;5ux", "x"),
        // Strings: OSC ended by BEL or ST, DCS, APC.
        Case("a\u{1b}]11;rgb:0000/0000/0000\u{07}b", "ab"),
        Case("a\u{1b}]11;?\u{1b}\\b", "ab"),
        Case("a\u{1b}P1$r0m\u{1b}\\b", "ab"),
        Case("\u{1b}_Gi=1;OK\u{1b}\\x", "x"),
        // Enter, ^C and ^U end a string (a person pressing Alt+] or Alt+X
        // starts one that no terminal would end).
        Case("a\u{1b}]0;\r\u{7f}title\u{07}b", "a", submittedAfter: 6),
        Case("\u{1b}Xsecret\rsecret\r", "secret", submittedAfter: 16),
        Case("x\u{1b}]y\u{15}ab", "ab"),
        Case("x\u{1b}Py\u{03}ab", "ab"),
        // Alt+key, Alt+UTF-8 character, Alt+Backspace, designations.
        Case("a\u{1b}xb", "ab"),
        Case("a\u{1b}éb", "ab"),
        Case("ab\u{1b}\u{7f}c", "abc"),
        Case("a\u{1b}(Bb", "ab"),
        // Bracketed paste: the markers go, the pasted text stays.
        Case("\u{1b}[200~pasted\u{1b}[201~", "pasted"),
        Case("\u{1b}[200~pasted\r\u{1b}[201~", "pasted", submittedAfter: 13),
        // CAN and SUB abort a sequence; ESC starts a new one.
        Case("\u{1b}[12\u{18}ab", "ab"),
        Case("\u{1b}]2;x\u{1a}ab", "ab"),
        Case("\u{1b}[12\u{1b}[Aab", "ab"),
        // Controls inside a sequence still act, as on a VT100.
        Case("ab\u{1b}[1\r", "ab", submittedAfter: 6),
        // A byte of 0x80 or more ends a broken CSI and is kept.
        Case("\u{1b}[1é", "é"),
        Case("a\u{1b}(é", "aé"),
        Case("a\u{1b}Oé", "aé"),
    ]

    @Test(arguments: cases)
    func wholeBurst(_ example: Case) {
        #expect(Self.outcome([Array(example.typed.utf8)]) == example.expected)
    }

    @Test(arguments: cases)
    func splitAtEveryByte(_ example: Case) {
        let bytes = Array(example.typed.utf8)
        for split in 0...bytes.count {
            let chunks = [Array(bytes[..<split]), Array(bytes[split...])]
            #expect(Self.outcome(chunks) == example.expected, "split at \(split)")
        }
        #expect(Self.outcome(bytes.map { [$0] }) == example.expected, "a byte at a time")
    }

    @Test func reportsEventsAndConsumedBytes() {
        var editor = PasswordLineEditor()
        func feed(_ text: String) -> (PasswordLineEditor.Event, Int)? {
            Array(text.utf8).withUnsafeBytes { editor.feed($0) }
        }
        #expect(feed("\u{1b}[A") == nil)
        #expect(feed("\r") == nil)
        #expect(feed("\u{7f}\u{15}\u{03}") == nil)
        #expect(feed("ab") ?? (.submitted, 0) == (.edited, 2))
        #expect(feed("\u{1b}[B") == nil)
        #expect(feed("\u{7f}") ?? (.submitted, 0) == (.edited, 1))
        #expect(feed("c\rtyped after enter") ?? (.edited, 0) == (.submitted, 2))
        #expect(Self.lineText(editor) == "ac")
    }

    @Test func theLineHasABoundedLength() {
        var editor = PasswordLineEditor(maximumLength: 8)
        let typed = Array(String(repeating: "x", count: 20).utf8)
        let result = typed.withUnsafeBytes { editor.feed($0) }
        #expect(result ?? (.submitted, 0) == (.edited, 20))
        #expect(editor.line.count == 8)
        #expect(Array("y".utf8).withUnsafeBytes { editor.feed($0) } == nil)
        #expect(Array("\r".utf8).withUnsafeBytes { editor.feed($0) } ?? (.edited, 0) == (.submitted, 1))
    }

    @Test func resetClearsTheLineAndAHalfReadSequence() {
        var editor = PasswordLineEditor()
        _ = Array("secret\u{1b}[1".utf8).withUnsafeBytes { editor.feed($0) }
        let storage = editor.line.withBytes { UnsafeRawPointer($0.baseAddress!) }
        editor.reset()
        #expect(editor.line.isEmpty)
        #expect(storage.load(as: UInt8.self) == 0)
        _ = Array("Ab".utf8).withUnsafeBytes { editor.feed($0) }
        #expect(Self.lineText(editor) == "Ab")
    }
}

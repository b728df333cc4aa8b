import Testing

@testable import idlewrap

@Suite("Text replacement without the regex engine")
struct TextReplacementTests {
    @Test("every occurrence is replaced, left to right, never inside a replacement")
    func everyOccurrence() {
        #expect("it's Bob's".replacingEvery("'", with: #"'\''"#) == #"it'\''s Bob'\''s"#)
        #expect(#"a\b'c"#.replacingEvery("\\", with: "\\\\") == #"a\\b'c"#)
        #expect("a , b , c".replacingEvery(" ,", with: ",") == "a, b, c")
        #expect("aaa".replacingEvery("aa", with: "a") == "aa")
        #expect("::".replacingEvery(":", with: "\\:") == "\\:\\:")
    }

    @Test("text without the target, and empty text, come back as they were")
    func nothingToReplace() {
        #expect("plain".replacingEvery(":", with: "x") == "plain")
        #expect("".replacingEvery(":", with: "x") == "")
        #expect("é:e\u{301}".replacingEvery(":", with: "-") == "é-e\u{301}")
    }
}

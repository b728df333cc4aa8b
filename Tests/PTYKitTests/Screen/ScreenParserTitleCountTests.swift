import PTYKit
import Testing

@Suite("ScreenModel parser titleSets")
struct ScreenParserTitleCountTests {
    private func titleSets(_ text: String, split: Int? = nil) -> UInt {
        var parser = ModelStream()
        let all = bytes(text)
        let cut = split ?? all.count
        parser.feed(Array(all[..<cut]))
        parser.feed(Array(all[cut...]))
        return parser.titleSets
    }

    @Test func countsEachTitleSetHoweverItEnds() {
        #expect(titleSets(#"\e]0;one\a\e]2;two\e\\\e_three\e\\"#) == 3)
    }

    @Test func othersAreNotTitles() {
        #expect(titleSets(#"\e]4;1;rgb:ff/00/00\a\e]11;?\a\ekname\e\\plain"#) == 0)
    }

    @Test(arguments: 0...12)
    func aTitleSplitAnywhereCountsOnce(split: Int) {
        #expect(titleSets(#"a\e]2;title\e\\"#, split: split) == 1)
    }
}

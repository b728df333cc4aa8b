import Testing

@testable import PTYKit

/// The grid's transcripts (`ScreenTranscripts` in ScreenTestSupport), each fed whole, split
/// at every byte and byte by byte, and repainted onto a fresh model.
@Suite("Screen transcripts")
struct ScreenTranscriptTests {
    @Test(arguments: ScreenTranscripts.text) func plainText(_ testCase: ScreenCase) { check(testCase) }
    @Test(arguments: ScreenTranscripts.cursorMovement) func cursor(_ testCase: ScreenCase) { check(testCase) }
    @Test(arguments: ScreenTranscripts.tabs) func tabStops(_ testCase: ScreenCase) { check(testCase) }
    @Test(arguments: ScreenTranscripts.erasing) func erase(_ testCase: ScreenCase) { check(testCase) }
    @Test(arguments: ScreenTranscripts.editing) func insertAndDelete(_ testCase: ScreenCase) { check(testCase) }
    @Test(arguments: ScreenTranscripts.regions) func scrollRegionsAndMargins(_ testCase: ScreenCase) { check(testCase) }
    @Test(arguments: ScreenTranscripts.charsets) func characterSets(_ testCase: ScreenCase) { check(testCase) }
    @Test(arguments: ScreenTranscripts.wide) func wideAndCombining(_ testCase: ScreenCase) { check(testCase) }
    @Test(arguments: ScreenTranscripts.screens) func alternateScreens(_ testCase: ScreenCase) { check(testCase) }

    @Test(arguments: ScreenTranscripts.repeatAfterRepaint) func repeatAfterARepaint(_ testCase: ScreenCase) {
        check(testCase)
        checkAfterRepaint(testCase, last: 4)
    }

    @Test(arguments: ScreenTranscripts.markAfterBlank) func combiningMarkAfterABlank(_ testCase: ScreenCase) {
        check(testCase)
        checkAfterRepaint(testCase, last: 2)
    }

    /// The input but its `last` bytes, repainted onto a messy terminal, then those bytes:
    /// the same state as the input fed whole.
    private func checkAfterRepaint(
        _ testCase: ScreenCase, last: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let input = bytes(testCase.input)
        let before = ScreenModel(rows: 5, columns: 10)
        before.feed(input.dropLast(last))
        let terminal = ScreenModel(rows: 5, columns: 10)
        terminal.feed(bytes(#"\e[4h\e(0junk\e[?7l\e[?69h\e[2;3s\e[?6h\e[3;4r"#))
        terminal.feed(before.repaint())
        terminal.feed(input.suffix(last))
        let expected = ScreenModel(rows: 5, columns: 10)
        expected.feed(input)
        expectSameScreen(terminal, expected, "after the repaint", sourceLocation: sourceLocation)
    }

    private func check(_ testCase: ScreenCase, sourceLocation: SourceLocation = #_sourceLocation) {
        let model = screenEverySplit(bytes(testCase.input), sourceLocation: sourceLocation)
        #expect(model.lines == testCase.rows, sourceLocation: sourceLocation)
        #expect(model.cursor.row == testCase.cursor.row, "cursor row", sourceLocation: sourceLocation)
        #expect(model.cursor.column == testCase.cursor.column, "cursor column", sourceLocation: sourceLocation)
        #expect(model.cursor.pendingWrap == testCase.pendingWrap, "pending wrap", sourceLocation: sourceLocation)
    }
}

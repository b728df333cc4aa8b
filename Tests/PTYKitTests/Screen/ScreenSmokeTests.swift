import Testing

@testable import PTYKit

@Suite("Screen smoke")
struct ScreenSmokeTests {
    @Test func plainText() {
        let model = screenEverySplit(bytes(#"hello\r\nworld"#))
        #expect(model.lines == ["hello", "world", "", "", ""])
        #expect(model.cursor == (1, 5, false))
    }

    @Test func aSideTheTerminalDoesNotReportIsTakenAsAProgramTakesIt() {
        for (rows, columns, expected) in [(0, 0, (24, 80)), (0, 132, (24, 132)), (50, 0, (50, 80)), (1, 1, (1, 1))] {
            let model = ScreenModel(rows: rows, columns: columns)
            #expect((model.rows, model.columns) == expected)
            let resized = ScreenModel(rows: 10, columns: 10)
            resized.resize(rows: rows, columns: columns)
            #expect((resized.rows, resized.columns) == expected)
        }
    }
}

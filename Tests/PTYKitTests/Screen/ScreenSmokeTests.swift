import Testing

@testable import PTYKit

@Suite("Screen smoke")
struct ScreenSmokeTests {
    @Test func plainText() {
        let model = screenEverySplit(bytes(#"hello\r\nworld"#))
        #expect(model.lines == ["hello", "world", "", "", ""])
        #expect(model.cursor == (1, 5, false))
    }
}

import PTYKit
import Testing

@testable import idlewrap

@Suite("Command screen")
struct CommandScreenTests {
    @Test func aSideTheTerminalDoesNotReportIsTakenAsAProgramTakesIt() {
        #expect(CommandScreen.modelDimensions(WindowSize(rows: 0, columns: 0)) == (24, 80))
        #expect(CommandScreen.modelDimensions(WindowSize(rows: 0, columns: 132)) == (24, 132))
        #expect(CommandScreen.modelDimensions(WindowSize(rows: 50, columns: 0)) == (50, 80))
        #expect(CommandScreen.modelDimensions(WindowSize(rows: 1, columns: 1)) == (1, 1))
    }
}

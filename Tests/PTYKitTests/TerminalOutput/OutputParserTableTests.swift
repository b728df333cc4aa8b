@testable import PTYKit
import Testing

@Suite("OutputParser transition table")
struct OutputParserTableTests {
    @Test(arguments: OutputParser.State.allCases)
    func everyByteHasExactlyOneRow(_ state: OutputParser.State) {
        var rowsPerByte = [Int](repeating: 0, count: 256)
        for row in OutputParser.rows(for: state) {
            for byte in row.bytes {
                rowsPerByte[Int(byte)] += 1
            }
        }
        let anywhereBytes = Set(OutputParser.anywhereRows.flatMap { $0.bytes })
        // Only an OSC string overrides an anywhere row: ESC also ends the string there.
        let overridden: Set<UInt8> = state == .oscString ? [0x1B] : []
        for byte in UInt8.min...UInt8.max {
            let expected = anywhereBytes.contains(byte) && !overridden.contains(byte) ? 0 : 1
            #expect(rowsPerByte[Int(byte)] == expected, "byte \(byte) in \(state)")
        }
    }

    @Test(arguments: OutputParser.State.allCases)
    func cancelSubstituteAndEscapeWorkEverywhere(_ state: OutputParser.State) {
        let table = OutputParser.transitions
        let row = Int(state.rawValue) << 8
        #expect(table[row | 0x18].next == .ground)
        #expect(table[row | 0x1A].next == .ground)
        #expect(table[row | 0x1B].next == .escape)
    }

    @Test(arguments: OutputParser.State.allCases)
    func noByteFrom0x80Up(_ state: OutputParser.State) {
        // No C1 controls: a byte >= 0x80 never changes the state.
        let table = OutputParser.transitions
        for byte in 0x80...0xFF {
            #expect(table[Int(state.rawValue) << 8 | byte].next == nil, "byte \(byte) in \(state)")
        }
    }
}

import Testing

@testable import PTYKit

@Suite("ScreenModel parser transition table")
struct ScreenParserTableTests {
    @Test(arguments: ScreenParser.State.allCases)
    func everyByteHasExactlyOneRow(_ state: ScreenParser.State) {
        var rowsPerByte = [Int](repeating: 0, count: 256)
        for row in ScreenParser.rows(for: state) {
            for byte in row.bytes {
                rowsPerByte[Int(byte)] += 1
            }
        }
        let anywhereBytes = Set(ScreenParser.anywhereRows.flatMap { $0.bytes })
        // Strings with an exit action override the anywhere rows to run it; a DCS string
        // keeps CAN and SUB as payload and ends only at ESC \, as in tmux.
        let overridden: Set<UInt8> =
            switch state {
            case .oscString, .apcString, .renameString, .dcsPassthrough, .dcsEscape: [0x18, 0x1A, 0x1B]
            default: []
            }
        for byte in UInt8.min...UInt8.max {
            let expected = anywhereBytes.contains(byte) && !overridden.contains(byte) ? 0 : 1
            #expect(rowsPerByte[Int(byte)] == expected, "byte \(byte) in \(state)")
        }
    }

    @Test(arguments: ScreenParser.State.allCases.filter { $0 != .dcsPassthrough && $0 != .dcsEscape })
    func cancelSubstituteAndEscapeWorkEverywhere(_ state: ScreenParser.State) {
        let table = ScreenParser.transitions
        let row = Int(state.rawValue) << 8
        #expect(table[row | 0x18].next == .ground)
        #expect(table[row | 0x1A].next == .ground)
        #expect(table[row | 0x1B].next == .escape)
    }

    @Test func onlyStringTerminatorEndsADCSString() {
        let table = ScreenParser.transitions
        let passthrough = Int(ScreenParser.State.dcsPassthrough.rawValue) << 8
        let escape = Int(ScreenParser.State.dcsEscape.rawValue) << 8
        for byte in 0...0xFF {
            #expect(table[passthrough | byte].next == (byte == 0x1B ? .dcsEscape : nil), "byte \(byte)")
            #expect(table[escape | byte].next == (byte == 0x5C ? .ground : .dcsPassthrough), "byte \(byte)")
        }
    }

    @Test func theEscapesTheGroundLoopParsesAreTheTables() {
        // ScreenParser.escape parses escape sequences without the table, as it reads the
        // escape and escapeIntermediate states.
        let table = ScreenParser.transitions
        let escape = Int(ScreenParser.State.escape.rawValue) << 8
        let intermediate = Int(ScreenParser.State.escapeIntermediate.rawValue) << 8
        for byte in 0...0xFF {
            let (first, after) = (table[escape | byte], table[intermediate | byte])
            #expect(ScreenParser.isEscapeFinal(UInt8(byte)) == (first.action == .escDispatch), "byte \(byte)")
            switch byte {
            case 0x18, 0x1A, 0x1B:
                let next: ScreenParser.State = byte == 0x1B ? .escape : .ground
                #expect(first.action == .none && first.next == next, "byte \(byte)")
                #expect(after.action == .none && after.next == next, "byte \(byte)")
            case 0x00..<0x20:
                #expect(first.action == .execute && first.next == nil, "byte \(byte)")
                #expect(after.action == .execute && after.next == nil, "byte \(byte)")
            case 0x20..<0x30:
                #expect(first.action == .collect && first.next == .escapeIntermediate, "byte \(byte)")
                #expect(after.action == .collect && after.next == nil, "byte \(byte)")
            case 0x30..<0x7F:
                #expect(first.action != .escDispatch || first.next == .ground, "byte \(byte)")
                #expect(after.action == .escDispatch && after.next == .ground, "byte \(byte)")
            default:
                #expect(first.action == .none && first.next == nil, "byte \(byte)")
                #expect(after.action == .none && after.next == nil, "byte \(byte)")
            }
        }
    }

    @Test(arguments: [ScreenParser.State.dcsIgnore, .sosPmString, .apcString])
    func theControlsAnIgnoredStringPassesAreTheTables(_ state: ScreenParser.State) {
        let table = ScreenParser.transitions
        for byte in 0..<0x20 {
            let transition = table[Int(state.rawValue) << 8 | byte]
            let doesNothing = transition.action == .none && transition.next == nil
            #expect(ScreenParser.passesInIgnoredString(UInt8(byte)) == doesNothing, "byte \(byte) in \(state)")
        }
    }

    @Test(arguments: ScreenParser.State.allCases.filter { $0 != .dcsEscape })
    func noByteFrom0x80Up(_ state: ScreenParser.State) {
        // No C1 controls: a byte >= 0x80 never changes the state (after an ESC inside a
        // DCS string, any byte but `\` goes back into the string).
        let table = ScreenParser.transitions
        for byte in 0x80...0xFF {
            #expect(table[Int(state.rawValue) << 8 | byte].next == nil, "byte \(byte) in \(state)")
        }
    }
}

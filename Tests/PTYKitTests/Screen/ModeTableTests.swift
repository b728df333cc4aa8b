import CScreenKernels
import Testing

@testable import PTYKit

/// The rows of ModeTable.swift: in the order of TerminalMode's cases, each found by its
/// number, and the redraw skip's C list of kept modes generated from them
/// (Tools/generate-control-functions.py).
@Suite("Mode table")
struct ModeTableTests {
    @Test func everyCaseHasItsRowInOrder() {
        #expect(ModeRow.rows.map(\.mode) == TerminalMode.allCases)
        #expect(TerminalMode.allCases.count <= 64, "ScreenModes.ModeSet has 64 bits")
    }

    @Test func everyRowIsFoundByItsNumberAndNoTwoShareOne() {
        for row in ModeRow.rows {
            let found =
                row.isPrivate ? TerminalMode(privateNumber: Int(row.number)) : TerminalMode(ansiNumber: Int(row.number))
            #expect(found == row.mode, "\(row.name)")
        }
        let keys = ModeRow.rows.map { [Int(row: $0)] }
        #expect(Set(keys).count == keys.count)
        #expect(TerminalMode(privateNumber: 2) == nil && TerminalMode(ansiNumber: 1049) == nil)
        #expect(TerminalMode(privateNumber: -1) == nil && TerminalMode(privateNumber: 100_000) == nil)
    }

    /// The C classifier keeps exactly the DECSET and DECRST lists that name a mode of the
    /// alternate screen's: a mode row given that owner without rerunning the script fails.
    @Test func swiftAndCAgreeOnTheModesKeptBeforeAFullRedraw() {
        let kept = Set(ModeRow.rows.filter { $0.isPrivate && $0.owner == .alternateScreen }.map { Int($0.number) })
        #expect(kept == [47, 1047, 1048, 1049])
        for number in 0...10_000 {
            #expect(ccell_mode_kept_before_full_redraw(UInt(number)) == kept.contains(number), "\(number)")
        }
    }

    /// The scroll-ahead's walk assumes the modes in the states their rows name, and only
    /// modes the grid's state keeps (any other would never let it walk).
    @Test func theWalkAssumesTheStatesTheRowsName() {
        let insert = UInt64(1) << TerminalMode.insert.rawValue
        let autowrap = UInt64(1) << TerminalMode.autowrap.rawValue
        #expect(ScreenState.walkAssumes == (modes: insert | autowrap, on: autowrap))
        #expect(ScreenState.walkAssumes.modes & ~GridModes.kept == 0)
        #expect(GridModes().bits == autowrap)
    }

    /// The controls write each mode as its kind and number say.
    @Test func controlsWriteTheRowsNumbers() {
        for mode in TerminalMode.allCases {
            let buffer = OutputBuffer()
            buffer.append(.mode(mode, on: true))
            buffer.append(.mode(mode, on: false))
            let marker = mode.isPrivate ? "?" : ""
            #expect(
                String(decoding: buffer.bytes, as: UTF8.self)
                    == "\u{1b}[\(marker)\(mode.number)h\u{1b}[\(marker)\(mode.number)l")
        }
    }

    /// ScreenModes starts from the rows' usual states; the lock writes the input rows in order.
    @Test func screenModesFollowTheRows() {
        let modes = ScreenModes.initial
        for row in ModeRow.rows where [.input, .cursor].contains(row.owner) {
            #expect(modes.isSet(row.mode) == row.usuallySet, "\(row.name)")
        }
        #expect(!modes.keyboardLocked && !modes.localEcho)
        #expect(
            ScreenModes.inputPrivateModes.map(\.number) == [
                1, 9, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1015, 1016, 2004,
                1050, 1051, 1052, 1053, 1060, 1061, 2031, 2048, 9001,
            ])
    }
}

extension Int {
    /// A key no ANSI and DEC mode share: DEC numbers negated.
    fileprivate init(row: ModeRow) {
        self = row.isPrivate ? -Int(row.number) - 1 : Int(row.number)
    }
}

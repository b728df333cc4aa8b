import CScreenKernels
import Testing

@testable import PTYKit

/// The rows of ControlFunctionTable.swift against the C tables generated from them
/// (Tools/generate-control-functions.py): a row changed or added without rerunning the
/// script fails here.
@Suite("Control function table")
struct ControlFunctionTableTests {
    static let markers: [UInt8] = [0] + Array(0x3C...0x3F)
    static let intermediates: [UInt8] = [0] + Array(0x20...0x2F)

    @Test func swiftAndCAgreeOnEveryControlSequence() {
        var disagreements: [String] = []
        for marker in Self.markers {
            for intermediate in Self.intermediates {
                for final in UInt8(0x40)...0x7E {
                    let swift = ControlFunction.controlSequenceBeforeFullRedraw(
                        marker: marker, intermediate: intermediate, final: final)
                    let c = ccell_control_sequence_kind(marker, intermediate, final)
                    if swift.rawValue != c {
                        let sequence = Self.describe([marker, intermediate, final])
                        disagreements.append("CSI \(sequence): Swift \(swift), C \(c)")
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    @Test func swiftAndCAgreeOnEveryEscapeSequence() {
        var disagreements: [String] = []
        for intermediate in Self.intermediates {
            for final in UInt8(0x30)...0x7E {
                // `[` begins a control sequence; the strings (`P`, `X`, `]`, `^`, `_`, `k`)
                // are told apart before the table.
                guard intermediate != 0 || !Array("[PX]^_k".utf8).contains(final) else { continue }
                let swift = ControlFunction.escapeBeforeFullRedraw(intermediate: intermediate, final: final)
                let c = ccell_escape_kind(intermediate, final)
                if swift.rawValue != c {
                    disagreements.append("ESC \(Self.describe([intermediate, final])): Swift \(swift), C \(c)")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    /// The AVX2 scan's nibble masks take exactly the finals whose rows are left out.
    @Test func avx2NibbleMasksAgreeWithTheRows() {
        for final in UInt8(0)...0x7F {
            let row =
                (0x40...0x7E).contains(final)
                ? ControlFunction.controlSequenceBeforeFullRedraw(marker: 0, intermediate: 0, final: final) : .kept
            let leftOut = row == .undone || row == .pen || row == .cursor
            #expect(ccell_final_left_out_by_avx2(final) == leftOut, "final \(Self.describe([final]))")
        }
    }

    /// Every row can be found, and no two rows share a sequence.
    @Test func everyRowIsFoundByItsSequence() {
        for row in ControlFunction.controlSequenceRows {
            let found = ControlFunction.controlSequence(
                marker: row.marker, intermediate: row.intermediate, final: row.final)
            #expect(found == row.function, "\(row.function)")
        }
        for row in ControlFunction.escapeRows where row.final != 0 {
            #expect(ControlFunction.escape(intermediate: row.intermediate, final: row.final) == row.function)
        }
        let keys = ControlFunction.controlSequenceRows.map { [$0.marker, $0.intermediate, $0.final] }
        #expect(Set(keys).count == keys.count)
    }

    static func describe(_ bytes: [UInt8]) -> String {
        bytes.filter { $0 != 0 }.map { String(UnicodeScalar($0)) }.joined(separator: " ")
    }
}

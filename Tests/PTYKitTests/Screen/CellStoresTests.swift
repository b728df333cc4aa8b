import CCellStores
import Testing

@testable import PTYKit

/// The screen model's C stores and search (CCellStores), each form against the plain
/// definition: the model's own tests go through the widest forms the CPU has.
@Suite("Cell stores")
struct CellStoresTests {
    static let style: UInt64 = 0x0123 << 32

    /// Every length from 4 to 100, in a row with a guard cell on each side.
    static func expectStores(
        _ store: (UnsafePointer<UInt8>, Int, UInt64, UnsafeMutablePointer<UInt64>) -> Void, _ name: String
    ) {
        let text = (0..<100).map { UInt8(0x20 + $0 % 0x5F) }
        for count in 4...100 {
            var cells = [UInt64](repeating: 0xDEAD, count: count + 2)
            cells.withUnsafeMutableBufferPointer { row in
                store(text, count, style, row.baseAddress! + 1)
            }
            let expected = [0xDEAD] + text[..<count].map { style | UInt64($0) } + [0xDEAD]
            #expect(cells == expected, "\(name), \(count) cells")
        }
    }

    @Test func sse2StoresEveryLength() {
        Self.expectStores({ ccell_store_ascii_sse2($0, $1, $2, $3) }, "SSE2")
    }

    // A CPU without AVX2 or AVX-512 cannot run those forms, and no package installs them:
    // there the tests check that the model never chooses them, instead of being skipped
    // (`.ci/run` fails on a skipped test).

    @Test func avx2StoresEveryLength() {
        guard ccell_avx2_available() else { return #expect(CellVectors.available == .sse2, "no AVX2") }
        Self.expectStores({ ccell_store_ascii_avx2($0, $1, $2, $3) }, "AVX2")
    }

    @Test func avx512StoresEveryLength() {
        guard ccell_avx512_available() else {
            return #expect(CellVectors.available != .avx512, "no AVX-512 with VBMI2")
        }
        Self.expectStores({ ccell_store_ascii_avx512($0, $1, $2, $3) }, "AVX-512")
    }

    @Test func avx2SearchStopsWhereTheRunEnds() {
        guard ccell_avx2_available() else { return #expect(!CellVectors.available.searchesWithAVX2, "no AVX2") }
        for stop in 0...255 where !(0x20...0x7E).contains(stop) {
            for position in 0..<80 {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 96)
                bytes[position] = UInt8(stop)
                #expect(ccell_printable_run_end_avx2(bytes, 0, 96) == position, "stop \(stop) at \(position)")
                #expect(ccell_printable_run_end_avx2(bytes, position + 1, 96) == 96)
            }
        }
    }
}

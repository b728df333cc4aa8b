import CScreenKernels
import Testing

@testable import PTYKit

/// The screen model's C stores and search (CScreenKernels), each form against the plain
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

    /// The gathering of text among binary bytes: its AVX2 form, 32 bytes a step, which packs
    /// the printable bytes with a shuffle and writes past the last, against SSE2's, 16 bytes
    /// a step and one set bit at a time: random bytes with more text, controls, two-byte
    /// characters and longer ones (complete, cut short, malformed) in them, from every
    /// start, to every end, with capacities small and large.
    @Test func gatheringFormsAgree() {
        guard ccell_avx2_available() else { return #expect(CellVectors.available == .sse2, "no AVX2") }
        let widths = (0x80..<0x800).map { CharacterWidth.value(UInt32($0)) & 3 }
        var random = SplitMix64(seed: 0x6A7)
        for _ in 0..<3_000 {
            var input: [UInt8] = []
            while input.count < 160 {
                let pick = random.next()
                switch pick % 6 {
                case 0: input.append(UInt8(truncatingIfNeeded: pick >> 8))
                case 1:
                    let scalar = 0x80 + UInt32((pick >> 8) % 0x780)
                    input += [UInt8(0xC0 | scalar >> 6), UInt8(0x80 | scalar & 0x3F)]
                case 2: input += [0x08 + UInt8((pick >> 8) % 8)]
                case 3:
                    let lead = 0xE0 + UInt8((pick >> 8) % 0x15)
                    input += [lead] + (0..<Int((pick >> 16) % 4)).map { _ in UInt8(0x80 + random.next() % 0x40) }
                default: input += (0..<Int((pick >> 8) % 12)).map { _ in UInt8(32 + random.next() % 95) }
                }
            }
            let start = Int(random.next() % 40)
            let end = start + 1 + Int(random.next() % UInt64(input.count - start))
            let capacity = [1, 3, 16, 17, 40, 256][Int(random.next() % 6)]
            let breakCapacity = [0, 1, 2, 32][Int(random.next() % 4)]
            var results: [[Int]] = []
            for form in [CellVectors.sse2.gatherText, CellVectors.avx2.gatherText] {
                var text = [UInt16](repeating: 0, count: capacity + 16)
                var breaks = [UInt32](repeating: 0, count: breakCapacity + 1)
                var (count, breakCount, control) = (0, 0, Int32(0))
                let stop = form(
                    input, start, end, &text, capacity, widths, &breaks, breakCapacity, &breakCount, &count, &control)
                results.append(
                    [stop, count, breakCount, Int(control)] + text[..<count].map(Int.init)
                        + breaks[..<breakCount].map(Int.init))
            }
            #expect(
                results[0] == results[1],
                "\(input) from \(start) to \(end), \(capacity) and \(breakCapacity) breaks at most")
        }
    }

    /// Gathered text stored as cells, eight a step and the last eight (or, for fewer, four)
    /// overlapping: each content in the style, nothing written past the last.
    @Test func storedTextIsEachContentInItsStyle() {
        for count in 4...100 {
            let text = (0..<count).map { UInt16(truncatingIfNeeded: $0 &* 7919 &+ count) }
            var cells = [UInt64](repeating: 0xAA, count: count + 8)
            let style = UInt64(0x1234 + count) << 32
            ccell_store_text(text, count, style, &cells)
            #expect(cells[..<count] == ArraySlice(text.map { style | UInt64($0) }), "\(count) cells")
            #expect(cells[count...].allSatisfy { $0 == 0xAA }, "past \(count) cells")
        }
    }

    /// The last SGR that resets the pen first; none, or no escape at all, said apart.
    @Test func theLastPenResetIsFound() {
        func reset(_ notation: String, tries: Int = .max) -> Int {
            let text = bytes(notation)
            return ccell_last_pen_reset(text, text.count, tries)
        }
        #expect(reset("plain text") == -1)
        #expect(reset(#"a\e[31mb\e[1;4mc"#) == -2)
        #expect(reset(#"a\e[mb\e[0;1mc\e[32md"#) == 5)
        #expect(reset(#"a\e[0mb\e[;1mc"#) == 6)
        // Only the last `tries` escapes are looked at; one that is not an SGR is no reset.
        #expect(reset(#"\e[mb\e[31mc\e[32m"#, tries: 2) == -2)
        #expect(reset(#"\e[mb\e[31mc\e[32m"#, tries: 3) == 0)
        #expect(reset(#"x\e[0H\e[0;5H"#) == -2)
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

    /// The plain definition of ccell_line_stops.
    static func lineStops(_ bytes: [UInt8], from start: Int, to end: Int, capacity: Int) -> [Int] {
        var stops: [Int] = []
        for offset in start..<end where !(0x20...0x7E).contains(bytes[offset]) {
            stops.append(offset)
            if ![0x0D, 0x0A, 0x1B].contains(bytes[offset]) || stops.count == capacity { break }
        }
        return stops
    }

    /// Every byte value at every position of a text shorter and longer than the 64 bytes
    /// looked at a step; then texts of returns, line feeds, escapes and now and then
    /// something else, from and to any offset, in batches of any size.
    static func expectLineStops(_ find: CellVectors.LineStops, _ name: String) {
        func found(_ bytes: [UInt8], from start: Int, to end: Int, capacity: Int) -> [Int] {
            var stops = [Int](repeating: -1, count: capacity)
            let count = stops.withUnsafeMutableBufferPointer { find(bytes, start, end, $0.baseAddress!, capacity) }
            return Array(stops[..<count])
        }
        for length in [40, 150] {
            for value in 0...255 {
                for position in 0..<length {
                    var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                    bytes[position] = UInt8(value)
                    let expected = (0x20...0x7E).contains(value) ? [] : [position]
                    let stops = found(bytes, from: 0, to: length, capacity: 128)
                    #expect(stops == expected, "\(name): \(value) at \(position)")
                }
            }
        }
        var random = SplitMix64(seed: 0x5709)
        for _ in 0..<3000 {
            let bytes = (0..<Int(random.next() % 400)).map { _ -> UInt8 in
                switch random.next() % 400 {
                case 0..<12: 0x0A
                case 12..<24: 0x0D
                case 24..<30: 0x1B
                case 30: [0x00, 0x7F, 0x80, 0xFF][Int(random.next() % 4)]
                default: UInt8(0x20 + random.next() % 0x5F)
                }
            }
            let start = Int(random.next() % UInt64(bytes.count + 1))
            let end = start + Int(random.next() % UInt64(bytes.count - start + 1))
            let capacity = [1, 2, 5, 128][Int(random.next() % 4)]
            #expect(
                found(bytes, from: start, to: end, capacity: capacity)
                    == lineStops(bytes, from: start, to: end, capacity: capacity),
                "\(name): \(bytes.count) bytes, \(start)..<\(end), \(capacity) a batch")
        }
    }

    @Test func sse2FindsTheReturnsAndLineFeeds() {
        Self.expectLineStops(ccell_line_stops_sse2, "SSE2")
    }

    @Test func avx2FindsTheReturnsAndLineFeeds() {
        guard ccell_avx2_available() else { return #expect(CellVectors.available == .sse2, "no AVX2") }
        Self.expectLineStops(ccell_line_stops_avx2, "AVX2")
    }

    @Test func avx512FindsTheReturnsAndLineFeeds() {
        guard ccell_avx512_available() else {
            return #expect(CellVectors.available != .avx512, "no AVX-512 with VBMI2")
        }
        Self.expectLineStops(ccell_line_stops_avx512, "AVX-512")
    }

    @Test func theEnvironmentChoosesOnlyFormsTheCPUHas() {
        #expect(CellVectors.chosen(forcing: nil, available: .avx2) == .avx2)
        #expect(CellVectors.chosen(forcing: "sse2", available: .avx2) == .sse2)
        #expect(CellVectors.chosen(forcing: "avx2", available: .avx512) == .avx2)
        #expect(CellVectors.chosen(forcing: "avx512", available: .avx2) == .avx2)
        #expect(CellVectors.chosen(forcing: "scalar", available: .avx2) == .avx2)
        #expect(CellVectors.chosen <= CellVectors.available)
    }
}

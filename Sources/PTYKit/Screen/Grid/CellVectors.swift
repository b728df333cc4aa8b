import CScreenKernels
import Glibc

/// The widest vectors the screen model's C loops (CScreenKernels) may use on this CPU.
enum CellVectors: Int, Comparable, Sendable {
    /// Every x86-64 has SSE2 (elsewhere, the C loops are plain and the compiler vectorizes
    /// them).
    case sse2
    /// Runs searched 32 bytes a step, stored 4 cells a step.
    case avx2
    /// Runs stored 8 cells a step (searched as with AVX2).
    case avx512

    /// Asked once a process, not at every model: the CPU does not change, and cpuid and
    /// xgetbv trap to the hypervisor in a virtual machine.
    static let available: CellVectors =
        ccell_avx512_available() ? .avx512 : ccell_avx2_available() ? .avx2 : .sse2

    /// What models use: `available`, or a narrower form that `IDLEWRAP_CELL_STORES`
    /// (`sse2`, `avx2`, `avx512`) names, read once a process, so that tests run the model
    /// through every form the CPU has (CONTRIBUTING.md). A form the CPU lacks is never
    /// chosen; an unknown name changes nothing.
    static let chosen = chosen(forcing: getenv("IDLEWRAP_CELL_STORES").map { String(cString: $0) })

    static func chosen(forcing name: String?, available: CellVectors = available) -> CellVectors {
        let forced: CellVectors? =
            switch name {
            case "sse2": .sse2
            case "avx2": .avx2
            case "avx512": .avx512
            default: nil
            }
        return min(forced ?? available, available)
    }

    static func < (left: CellVectors, right: CellVectors) -> Bool { left.rawValue < right.rawValue }

    var searchesWithAVX2: Bool { self != .sse2 }

    /// Gathers the text among binary bytes (CScreenKernels' ccell_gather_text); AVX2's
    /// form packs the printable bytes with a shuffle, and serves AVX-512 too.
    typealias GatherText =
        @convention(c) (
            _ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ text: UnsafeMutablePointer<UInt16>,
            _ capacity: Int, _ widths: UnsafePointer<UInt8>, _ breaks: UnsafeMutablePointer<UInt32>,
            _ breakCapacity: Int, _ breakCount: UnsafeMutablePointer<Int>, _ count: UnsafeMutablePointer<Int>,
            _ control: UnsafeMutablePointer<Int32>
        ) -> Int

    var gatherText: GatherText {
        self == .sse2 ? ccell_gather_text_sse2 : ccell_gather_text_avx2
    }

    /// Writes the offsets from `start` to `end` of the bytes that are not printable ASCII
    /// to the buffer, up to the first that is neither CR nor LF or `capacity` of them;
    /// returns how many.
    typealias LineStops =
        @convention(c) (
            _ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ stops: UnsafeMutablePointer<Int>, _ capacity: Int
        ) -> Int

    var lineStops: LineStops {
        switch self {
        case .sse2: ccell_line_stops_sse2
        case .avx2: ccell_line_stops_avx2
        case .avx512: ccell_line_stops_avx512
        }
    }

    /// Walks plain text 64 bytes a step (CScreenKernels' ccell_walk_blocks).
    typealias BlockWalker =
        @convention(c) (
            _ bytes: UnsafePointer<UInt8>, _ end: Int, _ walk: UnsafeMutablePointer<ccell_text_walk>,
            _ setting: UnsafePointer<ccell_block_setting>
        ) -> Void

    var blockWalker: BlockWalker {
        switch self {
        case .sse2: ccell_walk_blocks_sse2
        case .avx2: ccell_walk_blocks_avx2
        case .avx512: ccell_walk_blocks_avx512
        }
    }

    /// What of a read that redraws the screen need not be fed (CScreenKernels' ccell_redraw).
    typealias FindRedraw =
        @convention(c) (
            _ bytes: UnsafePointer<UInt8>, _ count: Int, _ fed: UnsafeMutablePointer<Int>, _ capacity: Int
        ) -> ccell_redraw

    var findRedraw: FindRedraw {
        self == .sse2 ? ccell_find_redraw_sse2 : ccell_find_redraw_avx2
    }

    /// Writes `count` (at least 4) cells, `style | bytes[i]`.
    typealias Store = @convention(c) (UnsafePointer<UInt8>, Int, UInt64, UnsafeMutablePointer<UInt64>) -> Void

    /// A function, not a case to switch on in the parser's loop: the inlining budget
    /// (docs/screen-model.md, "Speed").
    var storeASCII: Store {
        switch self {
        case .sse2: ccell_store_ascii_sse2
        case .avx2: ccell_store_ascii_avx2
        case .avx512: ccell_store_ascii_avx512
        }
    }
}

import ScreenTestSupport
import Testing

@testable import PTYKit

/// Whole models through each vector form of the cell stores (`CellStoresTests` has the
/// forms function by function).
@Suite("Cell stores, whole screens")
struct CellStoresScreensTests {
    /// A whole model with each vector form the CPU has gives the screens the SSE2 form
    /// gives, for streams made of what those forms work on: runs of text of every length
    /// (stored 4 or 8 cells a step, searched 32 bytes a step), floods of lines (the walk
    /// over text that scrolls away) and redraws (the search for the last one), cut into
    /// the same reads. A form the CPU lacks cannot run here: the test then checks that no
    /// model chooses it, however IDLEWRAP_CELL_STORES asks.
    @Test(arguments: [CellVectors.avx2, .avx512]) func everyFormGivesTheScreensOfSSE2(vectors: CellVectors) {
        guard vectors <= CellVectors.available else {
            print("Cell stores: this CPU has no \(vectors); the model never chooses it")
            #expect(CellVectors.chosen < vectors)
            #expect(CellVectors.chosen(forcing: "\(vectors)") < vectors)
            return
        }
        let pieces = [
            "x", "text ", String(repeating: "0123456789abcdef", count: 3), String(repeating: "long run ", count: 20),
            #"\r\n"#, #"\r\n"#, #"\n"#, #"\e[m"#, #"\e[1;31m"#, #"\e[38;2;1;2;3m"#, #"\e[44m"#, #"\e[H"#,
            #"\e[2J"#, #"\e[5;7H"#, #"\e[K"#, #"\e[?25l"#, #"\e]0;title\a"#, "é", "漢", #"\t"#, #"\e[3L"#,
        ].map(bytes)
        var random = SplitMix64(seed: 0xCE11)
        for trial in 0..<400 {
            var stream: [UInt8] = []
            for _ in 0..<(1 + random.next() % 120) { stream += pieces[Int(random.next() % UInt64(pieces.count))] }
            let (rows, columns) = (1 + Int(random.next() % 30), 1 + Int(random.next() % 120))
            let reads = (0..<4).map { _ in 1 + Int(random.next() % 700) }
            let models = [CellVectors.sse2, vectors].map { form in
                let model = ScreenModel(rows: rows, columns: columns, vectors: form)
                var offset = 0
                for (index, length) in reads.enumerated() {
                    let end = index == reads.count - 1 ? stream.count : min(offset + length, stream.count)
                    model.feed(stream[offset..<end])
                    offset = end
                }
                return model
            }
            #expect(models[0].snapshot() == models[1].snapshot(), "trial \(trial) at \(rows)x\(columns)")
            #expect(models[0].repaint() == models[1].repaint(), "trial \(trial)")
        }
    }
}

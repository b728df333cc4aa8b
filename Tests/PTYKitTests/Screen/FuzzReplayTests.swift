import Glibc
import Testing

@testable import PTYKit

/// Replays a fuzz finding given in $SCREEN_FUZZ_INPUT (a debugging aid; skipped without it).
@Suite("Screen fuzz replay", .enabled(if: getenv("SCREEN_FUZZ_INPUT") != nil))
struct FuzzReplayTests {
    @Test func replay() throws {
        let path = String(cString: getenv("SCREEN_FUZZ_INPUT")!)
        let file = try #require(fopen(path, "rb"))
        var data: [UInt8] = []
        var byte = fgetc(file)
        while byte != EOF {
            data.append(UInt8(byte))
            byte = fgetc(file)
        }
        fclose(file)
        let rows = Int(data[0] % 12) + 1
        let columns = Int(data[1] % 40) + 1
        let cuts = Int(data[2] & 0x0F)
        let stream = Array(data[(3 + cuts)...])
        print("rows \(rows) columns \(columns) stream \(String(decoding: stream, as: UTF8.self).debugDescription)")
        let model = ScreenModel(rows: rows, columns: columns)
        model.feed(stream)
        let fresh = ScreenModel(rows: rows, columns: columns)
        fresh.feed(model.repaint())
        print(model.lines, fresh.lines)
        print(String(decoding: model.repaint(), as: UTF8.self).debugDescription)
        #expect(fresh.snapshot() == model.snapshot().withoutInputModes)
        let (a, b) = (fresh.snapshot(), model.snapshot())
        for (rowA, rowB) in zip(a.alternate ?? a.main, b.alternate ?? b.main) {
            for (cellA, cellB) in zip(rowA, rowB) where cellA != cellB { print("cell: \(cellA) vs \(cellB)") }
        }
        expectSameScreen(fresh, model, "repaint")
    }
}

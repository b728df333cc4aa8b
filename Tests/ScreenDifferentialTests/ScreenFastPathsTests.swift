import ScreenTestSupport
import Testing

@testable import PTYKit

/// The fast paths (FeedPlanner: the scroll-ahead, the kept text, the redraw skip) against
/// their plain twin (`fastPaths: .none`, every byte through the parser and the state): the
/// same stream in the same reads gives the same answer from every public accessor of
/// `ScreenModel`, read between reads as a relay and a lock read them.
@Suite("Screen fast paths against the plain feed")
struct ScreenFastPathsTests {
    struct Stream: Sendable, CustomTestStringConvertible {
        let name: String
        let input: [UInt8]
        var testDescription: String { name }
    }

    /// The recordings and the transcripts, and floods that take every trick: a log that
    /// scrolls (the scroll-ahead and the kept text), coloured `ls` (SGRs walked over), and
    /// full-screen redraws several to a read (the redraw skip).
    static let streams: [Stream] =
        ScreenSamples.recordings.map { Stream(name: $0, input: (try? ScreenSamples.recording($0)) ?? []) }
        + [
            Stream(
                name: "transcripts",
                input: ScreenSamples.cases.flatMap(\.input)
                    + [
                        ScreenTranscripts.text, ScreenTranscripts.erasing, ScreenTranscripts.regions,
                        ScreenTranscripts.wide, ScreenTranscripts.screens,
                    ].joined().flatMap { bytes($0.input) }),
            Stream(name: "log", input: bytes((1...3000).map { "build step \($0) of 3000: ok\r\n" }.joined())),
            Stream(
                name: "coloured ls",
                input: bytes(
                    (1...3000).map { #"\e[0m\e[01;34mdirectory\#($0)\e[0m  \e[01;32mprogram\#($0)\e[0m\r\n"# }
                        .joined())),
            Stream(
                name: "redraws",
                input: bytes(
                    (1...200).map { frame in
                        #"\e[?25l\e[m\e[H\e[2J\e]0;frame \#(frame)\a"#
                            + (1...30).map { #"\e[\#($0);1H\e[1;3\#($0 % 8)mrow \#($0) of frame \#(frame)"# }.joined()
                    }.joined())),
            // Redraws made only of what the next one undoes (kept back, left out by the next
            // read's), now and then one that ends with a mode, a title or UTF-8 text.
            Stream(
                name: "redraws kept back",
                input: bytes(
                    (1...300).map { frame in
                        #"\e[27m\e[m\e[H\e[2J"#
                            + (1...30).map { #"\e[\#($0 % 24 + 1);1H\e[3\#($0 % 8)mrow \#($0), \#(frame)\e[m\e[K"# }
                            .joined() + [#"\r\n"#, #"\e[?25h"#, #"\e]2;frame \#(frame)\a"#, "é", ""][frame % 5]
                    }.joined())),
            Stream(name: "random bytes", input: ScreenSamples.randomBytes(count: 100_000, seed: 0x0BAD_F00D)),
            Stream(name: "C1 and invalid UTF-8", input: ScreenSamples.strayBytes(count: 100_000, seed: 0xC1C1)),
        ]

    /// Read sizes: what a pty master hands over in a flood, and short, uneven reads.
    static let reads = [4096, 1000, 97]

    @Test(arguments: streams, reads)
    func everyPublicAccessorAgrees(_ stream: Stream, read: Int) throws {
        try #require(stream.input.count > 1000, "\(stream.name) is missing")
        // Short reads on the largest screen add minutes and no path the others miss.
        let sizes = read < 1000 ? [(24, 80), (5, 10)] : [(24, 80), (60, 200), (5, 10)]
        for (rows, columns) in sizes {
            let fast = ScreenModel(rows: rows, columns: columns)
            let plain = ScreenModel(rows: rows, columns: columns, fastPaths: .none)
            let what = "\(stream.name), \(rows)x\(columns), reads of \(read)"
            for model in [fast, plain] { model.start(atRow: rows / 2, column: 3) }
            var offset = 0
            var chunk = 0
            while offset < stream.input.count {
                let end = min(offset + read, stream.input.count)
                let part = Array(stream.input[offset..<end])
                expectSameAfterRead(fast, plain, next: part, what)
                // A read that goes on inside a sequence is fed to the boundary first, as a
                // lock engages only at one, now and then.
                var consumed = 0
                if !fast.isAtBoundary && chunk % 2 == 1 {
                    consumed = part.withUnsafeBytes { fast.feedUntilBoundary($0) }
                    #expect(
                        consumed == part.withUnsafeBytes { plain.feedUntilBoundary($0) },
                        "\(what): feedUntilBoundary")
                }
                fast.feed(part[consumed...])
                plain.feed(part[consumed...])
                offset = end
                chunk += 1
                // Reading the screen feeds the kept text: only now and then, so that the
                // tricks have floods to take between looks.
                if chunk % 16 == 0 { expectSameScreen(fast, plain, what) }
                if chunk % 64 == 32 { changeBoth(fast, plain, chunk: chunk, what) }
            }
            expectSameAfterRead(fast, plain, next: [], what)
            expectSameScreen(fast, plain, what)
        }
    }

    /// The floods take the tricks, so that the comparison above compares something.
    @Test func theFloodsTakeTheFastPaths() {
        let streams = Dictionary(uniqueKeysWithValues: Self.streams.map { ($0.name, $0.input) })
        for name in ["log", "coloured ls"] {
            let model = ScreenModel(rows: 24, columns: 80)
            var kept = 0
            for offset in stride(from: 0, to: streams[name]!.count, by: 4096) {
                model.feed(streams[name]![offset..<min(offset + 4096, streams[name]!.count)])
                if model.keptTextCount > 0 { kept += 1 }
            }
            #expect(kept > 10, "\(name)")
        }
        let redraws = ScreenModel(rows: 24, columns: 80)
        for offset in stride(from: 0, to: streams["redraws"]!.count, by: 4096) {
            redraws.feed(streams["redraws"]![offset..<min(offset + 4096, streams["redraws"]!.count)])
        }
        #expect(redraws.bytesSkippedBeforeRedraws > streams["redraws"]!.count / 2)
        // Most of each read's last redraw too, kept back and left out by the next read's.
        let kept = ScreenModel(rows: 24, columns: 80)
        let keptBack = streams["redraws kept back"]!
        for offset in stride(from: 0, to: keptBack.count, by: 4096) {
            kept.feed(keptBack[offset..<min(offset + 4096, keptBack.count)])
        }
        #expect(kept.bytesSkippedBeforeRedraws > keptBack.count * 9 / 10)
        let plain = ScreenModel(rows: 24, columns: 80, fastPaths: .none)
        plain.feed(streams["log"]!)
        #expect(plain.keptTextCount == 0 && plain.bytesSkippedBeforeRedraws == 0)
    }

    /// A read that cuts short the character the last one ended in and ends inside a
    /// sequence: the fast paths feed it to the boundary first, and the open sequence begins
    /// where the plain feed's does, at the byte that cut the character (a fuzz finding).
    @Test func aCharacterCutShortByTheNextRead() {
        for (next, open) in [(#"\e[3"#, #"\e[3"#), (#"\xCE\xCE\xCE"#, #"\xCE"#), (#"\xCE\e]2;ti"#, #"\e]2;ti"#)] {
            let fast = ScreenModel(rows: 6, columns: 11)
            let plain = ScreenModel(rows: 6, columns: 11, fastPaths: .none)
            for model in [fast, plain] { model.feed(bytes(#"text\xCE"#)) }
            expectSameAfterRead(fast, plain, next: bytes(next), next)
            for model in [fast, plain] { model.feed(bytes(next)) }
            expectSameAfterRead(fast, plain, next: [], next)
            expectSameScreen(fast, plain, next)
            #expect(plain.openSequence == bytes(open), "\(next)")
        }
    }

    /// What a relay reads after every read (the kept text not fed for it), and what
    /// `lastBoundary` finds in the next read.
    private func expectSameAfterRead(_ fast: ScreenModel, _ plain: ScreenModel, next: [UInt8], _ what: String) {
        #expect(fast.rows == plain.rows && fast.columns == plain.columns, "\(what): size")
        #expect(fast.isAtBoundary == plain.isAtBoundary, "\(what): isAtBoundary")
        #expect(
            next.withUnsafeBytes { fast.lastBoundary(in: $0) } == next.withUnsafeBytes { plain.lastBoundary(in: $0) },
            "\(what): lastBoundary")
        #expect(fast.openSequence == plain.openSequence, "\(what): openSequence")
        #expect(fast.modes == plain.modes, "\(what): modes")
        #expect(fast.titleSets == plain.titleSets && fast.title == plain.title, "\(what): title")
        #expect(fast.titleStackDepth == plain.titleStackDepth, "\(what): titleStackDepth")
        #expect(fast.windowName == plain.windowName, "\(what): windowName")
        #expect(fast.workingDirectory == plain.workingDirectory, "\(what): workingDirectory")
        #expect(fast.isHoldingQueries == plain.isHoldingQueries, "\(what): isHoldingQueries")
        #expect(fast.queryCount == plain.queryCount, "\(what): queryCount")
        #expect(fast.heldScrollback == plain.heldScrollback, "\(what): heldScrollback")
        #expect(fast.isAlternateScreen == plain.isAlternateScreen, "\(what): isAlternateScreen")
        #expect(fast.rowsBeforeStart == plain.rowsBeforeStart, "\(what): rowsBeforeStart")
    }

    /// What reads the screen (and feeds the kept text first).
    private func expectSameScreen(_ fast: ScreenModel, _ plain: ScreenModel, _ what: String) {
        #expect(fast.snapshot() == plain.snapshot(), "\(what): snapshot")
        #expect(fast.cursor == plain.cursor, "\(what): cursor")
        #expect(fast.rowsBeforeStart == plain.rowsBeforeStart, "\(what): rowsBeforeStart")
        #expect((0..<fast.rows).map(fast.text(row:)) == (0..<plain.rows).map(plain.text(row:)), "\(what): text")
        #expect(fast.repaint() == plain.repaint(), "\(what): repaint")
        #expect(fast.firstBrokenTableReference() == nil, "\(what): tables")
    }

    /// What changes the screen or the model's ways, done to both: holding the scrollback
    /// and writing it out, holding queries and taking them, a resize.
    private func changeBoth(_ fast: ScreenModel, _ plain: ScreenModel, chunk: Int, _ what: String) {
        switch chunk / 64 % 4 {
        case 0:
            for model in [fast, plain] { model.startHoldingScrollback(limit: 1 << 20) }
        case 1:
            let (a, b) = (OutputBuffer(), OutputBuffer())
            fast.appendHeldScrollbackAndRepaint(to: a, notice: Array("held".utf8))
            plain.appendHeldScrollbackAndRepaint(to: b, notice: Array("held".utf8))
            #expect(a.bytes == b.bytes, "\(what): appendHeldScrollbackAndRepaint")
            for model in [fast, plain] { model.isHoldingQueries = true }
        case 2:
            #expect(fast.takeHeldQueries() == plain.takeHeldQueries(), "\(what): takeHeldQueries")
            for model in [fast, plain] {
                model.isHoldingQueries = false
                model.startHoldingScrollback(limit: 4096)
                model.discardHeldScrollback()
            }
        default:
            let (rows, columns) = (fast.rows + 1, max(fast.columns - 1, 1))
            for model in [fast, plain] { model.resize(rows: rows, columns: columns) }
        }
    }
}

import PTYKit
import ScreenTestSupport
import Testing

/// Malformed input (`ScreenParserMalformedTests`) made at random: 2000 streams of the bytes
/// that drive the parser through every state, mixed with arbitrary ones.
@Suite("ScreenModel parser malformed input, at random")
struct ScreenParserRandomBytesTests {
    @Test func randomBytesNeverCrashAndCancelAlwaysReturnsToABoundary() {
        var random = SplitMix64(seed: 0x1D1E_3A9)
        // Bytes that drive the machine through every state, mixed with arbitrary ones.
        let interesting = bytes(#"\e\e\e[[]]P_^X;;??<=>>0123456789:hlumpnc!$ \\\a\x18\x1A\x7F\x9B\x9C\xC3\xE2\xF0\x80"#)
        for _ in 0..<2_000 {
            let length = Int(random.next() % 96)
            let input: [UInt8] = (0..<length).map { _ in
                random.next() % 3 == 0
                    ? UInt8(truncatingIfNeeded: random.next())
                    : interesting[Int(random.next() % UInt64(interesting.count))]
            }

            var whole = ModelStream()
            whole.feed(input)
            var chunked = ModelStream()
            var rest = input[...]
            while !rest.isEmpty {
                let size = Int(random.next() % 8) + 1
                chunked.feed(rest.prefix(size))
                rest = rest.dropFirst(size)
            }
            #expect(chunked.modes == whole.modes, "\(input)")
            #expect(chunked.isAtBoundary == whole.isAtBoundary, "\(input)")

            // Where the stream was last at a boundary, byte by byte; before a byte that cuts a
            // character short counts too (only an open character ends at a space).
            var reference: Int? = nil
            var stepped = ModelStream()
            for index in 0...input.count {
                if index > 0 { stepped.feed([input[index - 1]]) }
                let cutsCharacter =
                    index < input.count && input[index] & 0xC0 != 0x80 && !stepped.isAtBoundary
                    && {
                        var probe = stepped
                        probe.feed([UInt8(ascii: " ")])
                        return probe.isAtBoundary
                    }()
                if stepped.isAtBoundary || cutsCharacter { reference = index }
            }
            #expect(input.withUnsafeBytes { ModelStream().lastBoundary(in: $0) } == reference, "\(input)")
            // The same from the middle, with the parser in whatever state the first half left.
            let half = input.count / 2
            var resumed = ModelStream()
            resumed.feed(input[..<half])
            let fromHalf = Array(input[half...]).withUnsafeBytes { resumed.lastBoundary(in: $0) }
            #expect(fromHalf == reference.flatMap { $0 >= half ? $0 - half : nil }, "\(input) from \(half)")

            whole.feed(ModelStream.cut + bytes(#"\e[0m"#))
            #expect(whole.isAtBoundary, "\(input)")
            #expect(whole.feedUntilBoundary(input) <= input.count)
        }
    }
}

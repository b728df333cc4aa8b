/// A fixed-seed generator, so that any failure can be replayed.
public struct SplitMix64 {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `start`, then until `count` bytes: of `choices` draws one a random byte, one a run of
    /// fewer than `longestRun` printable ASCII, the others one of `pieces` (binary bytes
    /// heavy in what a test is about).
    public mutating func binaryBytes(
        startingWith start: [UInt8] = [], count: Int, pieces: [[UInt8]], choices: UInt64, longestRun: UInt64
    ) -> [UInt8] {
        var input = start
        while input.count < count {
            let pick = next()
            switch pick % choices {
            case 0: input.append(UInt8(truncatingIfNeeded: pick >> 8))
            case 1: input += (0..<Int((pick >> 8) % longestRun)).map { _ in UInt8(32 + next() % 95) }
            default: input += pieces[Int((pick >> 8) % UInt64(pieces.count))]
            }
        }
        return input
    }
}

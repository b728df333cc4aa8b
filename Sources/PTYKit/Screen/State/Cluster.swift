/// A character with its combining marks, the base scalar first: what a cell's cluster id
/// names (ClusterTable). Held inline, up to `capacity` scalars, so that a mark joining a
/// cell allocates nothing (random bytes print a mark every few dozen bytes) and is hashed
/// as one word.
struct Cluster: Hashable, RandomAccessCollection {
    /// Further marks are dropped (tmux keeps up to 21 bytes).
    static var capacity: Int { 8 }

    /// The scalars; the lanes from `count` on are 0, so equal clusters are equal lanes.
    private var lanes = SIMD8<UInt32>()
    private(set) var count = 0

    init(_ base: UInt32) {
        lanes[0] = base
        count = 1
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    subscript(index: Int) -> UInt32 { lanes[index] }

    var isFull: Bool { count == Self.capacity }

    mutating func append(_ scalar: UInt32) {
        lanes[count] = scalar
        count &+= 1
    }

    func hash(into hasher: inout Hasher) {
        let words = unsafeBitCast(lanes, to: SIMD4<UInt64>.self)
        hasher.combine(
            words[0] &+ words[1] &* 0x9E37_79B9_7F4A_7C15 &+ words[2] &* 0xC2B2_AE3D_27D4_EB4F
                &+ words[3] &* 0x1656_67B1_9E37_79F9)
    }
}

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

    /// The lanes compared as four words: SIMD8's own == compared lane by lane through
    /// memory, about a hundred instructions a probe of the cluster table.
    static func == (lhs: Cluster, rhs: Cluster) -> Bool {
        let left = unsafeBitCast(lhs.lanes, to: SIMD4<UInt64>.self)
        let right = unsafeBitCast(rhs.lanes, to: SIMD4<UInt64>.self)
        let difference = left ^ right
        return lhs.count == rhs.count && difference[0] | difference[1] | difference[2] | difference[3] == 0
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(_rawHashValue(seed: 0))
    }

    /// What the cluster table (ClusterIds) hashes with, in place of a Hasher (SipHash, a
    /// hundred instructions or more, where random bytes make a cluster every few hundred
    /// bytes): the four words of the lanes, each mixed into the process's seed by a
    /// full-width multiplication whose halves are folded together. The seed enters before
    /// the words, so that which clusters collide is not the same in every process, and
    /// every bit of a word reaches the low bits the table's slots take: with a 64-bit
    /// product and a shift, the high bits of the last word did not, and a command's output
    /// could have filled one run of slots with marks that differ only there. Inlined into
    /// the probe: as a call it cost 29 k instructions a MiB of random bytes.
    @inline(__always)
    func _rawHashValue(seed: Int) -> Int {
        let words = unsafeBitCast(lanes, to: SIMD4<UInt64>.self)
        var hash = UInt64(UInt(bitPattern: seed))
        for index in 0..<4 {
            let product = (hash ^ words[index]).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
            hash = product.high ^ product.low
        }
        return Int(truncatingIfNeeded: hash)
    }
}

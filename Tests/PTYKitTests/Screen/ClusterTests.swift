import Testing

@testable import PTYKit

/// Cluster's own hash (`_rawHashValue(seed:)`, what the cluster table's ClusterIds calls in
/// place of a Hasher) and equality: equal clusters hash alike under every seed, a scalar
/// changed in any lane changes the hash and the equality, and the low bits the table's
/// slots take spread as a random function's would.
struct ClusterTests {
    static let seeds = [0, 1, -1, 0x1234_5678_9ABC, Int.min]

    static func cluster(_ scalars: [UInt32]) -> Cluster {
        var cluster = Cluster(scalars[0])
        for scalar in scalars.dropFirst() { cluster.append(scalar) }
        return cluster
    }

    @Test func equalClustersHashAlike() {
        let scalars: [UInt32] = [0x65, 0x301, 0x302, 0x303, 0x304, 0x305, 0x306, 0x307]
        for count in 1...Cluster.capacity {
            let (first, second) = (Self.cluster(Array(scalars[..<count])), Self.cluster(Array(scalars[..<count])))
            #expect(first == second)
            for seed in Self.seeds {
                #expect(first._rawHashValue(seed: seed) == second._rawHashValue(seed: seed), "\(count), \(seed)")
            }
            #expect(first.hashValue == second.hashValue)
        }
    }

    /// A scalar changed in any lane changes the hash and makes the clusters unequal
    /// (Cluster's own ==, four words compared).
    @Test func aScalarChangedInAnyLaneChangesTheHash() {
        let scalars: [UInt32] = [0x65, 0x301, 0x302, 0x303, 0x304, 0x305, 0x306, 0x307]
        let original = Self.cluster(scalars)
        for lane in 0..<Cluster.capacity {
            var changed = scalars
            changed[lane] ^= 0x40
            for seed in Self.seeds {
                #expect(
                    Self.cluster(changed)._rawHashValue(seed: seed) != original._rawHashValue(seed: seed),
                    "lane \(lane), seed \(seed)")
            }
            #expect(Self.cluster(changed) != original, "lane \(lane)")
        }
    }

    /// Cluster's own ==, which compares the lanes as four words and the count: one more
    /// scalar that is 0 makes clusters unequal (a scalar changed in any lane, above).
    @Test func oneMoreScalarMakesClustersUnequal() {
        #expect(Self.cluster([0x65, 0x301]) != Self.cluster([0x65, 0x301, 0]))
    }

    /// 1024 clusters that differ in a base or a mark, in 1024 buckets: a random function
    /// fills about 647; a hash whose low bits ignore a lane or the seed's mixing, far fewer.
    @Test func theLowBitsSpread() {
        var clusters: [Cluster] = []
        for base in 0..<32 {
            for mark in 0..<32 { clusters.append(Self.cluster([0x41 + UInt32(base), 0x300 + UInt32(mark)])) }
        }
        Self.expectSpread(clusters)
    }

    /// 1024 full clusters that differ only in the high bits of the last mark, which a
    /// command's output chooses: they spread as well (a 64-bit product and a shift put
    /// them all in one bucket).
    @Test func theLastMarksHighBitsSpread() {
        let marks: [UInt32] = [0x301, 0x302, 0x303, 0x304, 0x305, 0x306]
        let clusters = (0..<1024).map { Self.cluster([0x65] + marks + [0x300 + UInt32($0) &<< 7]) }
        Self.expectSpread(clusters)
    }

    static func expectSpread(_ clusters: [Cluster]) {
        for seed in seeds {
            let buckets = Set(clusters.map { $0._rawHashValue(seed: seed) & 1023 })
            #expect(buckets.count > 600, "seed \(seed): \(buckets.count) buckets")
        }
    }
}

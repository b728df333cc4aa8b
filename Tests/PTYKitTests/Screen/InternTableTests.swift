import Testing

@testable import PTYKit

/// InternTable's look-up enters a missing value under the id it would get before it knows
/// whether the table has room: what it enters must be what storing one at a time does.
struct InternTableTests {
    /// A table of clusters, full (ClusterTable's first limit).
    func fullTable() -> (ClusterTable, [Cluster]) {
        var table = ClusterTable()
        let clusters = (0..<ClusterTable.firstLimit).map { Self.cluster(UInt32($0)) }
        for (index, cluster) in clusters.enumerated() { #expect(table.id(for: cluster) == UInt32(index)) }
        return (table, clusters)
    }

    static func cluster(_ base: UInt32) -> Cluster {
        var cluster = Cluster(0x41 + base)
        cluster.append(0x300)
        return cluster
    }

    /// A value refused by a full table is not left entered: asked again it is refused
    /// again, not given the id past the end, and once a collection makes room it gets
    /// that id with its value.
    @Test func aValueRefusedWhenFullIsNotEntered() {
        var (table, clusters) = fullTable()
        let new = Self.cluster(5000)
        #expect(table.id(for: new) == nil)
        #expect(table.id(for: new) == nil)
        #expect(table.count == ClusterTable.firstLimit)
        for (index, cluster) in clusters.enumerated() { #expect(table.id(for: cluster) == UInt32(index)) }
        table.free { _ in true }
        let past = UInt32(ClusterTable.firstLimit)
        #expect(table.id(for: new) == past)
        #expect(table[past] == new)
        #expect(table.isInUse(past))
    }

    /// Values found keep their ids; a freed id is given out again, the lowest first, and
    /// a freed value asked for again is a new entry under the next freed id.
    @Test func freedIdsAreGivenOutAgainWithTheirNewValues() {
        var (table, clusters) = fullTable()
        table.free { $0 % 2 == 0 }
        #expect(table.id(for: clusters[4]) == 4)
        let new = Self.cluster(5000)
        #expect(table.id(for: new) == 1)
        #expect(table[1] == new)
        #expect(table.id(for: clusters[1]) == 3)
        #expect(table[3] == clusters[1])
        #expect(table.id(for: new) == 1)
        #expect(!table.isInUse(5))
    }
}

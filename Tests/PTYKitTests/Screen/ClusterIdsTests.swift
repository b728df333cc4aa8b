import Testing

@testable import PTYKit

/// ClusterIds, the cluster table's own index: clusters a command's output makes collide
/// are each found under their own id, a probe that reaches the last slot goes on from the
/// first, and an index emptied with room for a higher limit takes that many.
struct ClusterIdsTests {
    static let seed = 0x5EED_1234

    static func cluster(mark: UInt32) -> Cluster {
        var cluster = Cluster(0x65)
        cluster.append(0x300 &+ mark)
        return cluster
    }

    /// `count` clusters whose probes all start at `slot` of an index of `slots` slots.
    static func colliding(_ count: Int, at slot: Int, of slots: Int) -> [Cluster] {
        var clusters: [Cluster] = []
        var mark: UInt32 = 0
        while clusters.count < count {
            let cluster = Self.cluster(mark: mark)
            if cluster._rawHashValue(seed: seed) & (slots - 1) == slot { clusters.append(cluster) }
            mark += 1
        }
        return clusters
    }

    /// A full index (64 clusters in 128 slots) whose clusters all start at the last slot:
    /// each is found under its id, and one more that collides is neither found nor entered.
    @Test func collidingClustersAreEachFoundAndTheProbeWraps() {
        let clusters = Self.colliding(65, at: 127, of: 128)
        var ids = ClusterIds([], limit: 64, seed: Self.seed)
        var values: [Cluster] = []
        for (id, cluster) in clusters.dropLast().enumerated() {
            #expect(ids.id(for: cluster, in: values, entering: id) == id)
            values.append(cluster)
        }
        for (id, cluster) in values.enumerated() {
            #expect(ids.id(for: cluster, in: values, entering: nil) == id)
            #expect(ids.id(of: cluster, in: values) == id)
        }
        #expect(ids.id(for: clusters[64], in: values, entering: nil) == nil)
        #expect(ids.id(of: clusters[64], in: values) == nil)
    }

    /// Emptied with room for twice the limit, the index takes that many clusters; one more
    /// is refused (with the old number of slots every slot would be taken and its probe
    /// would never end).
    @Test func anIndexEmptiedWithRoomForMoreTakesThatMany() {
        var ids = ClusterIds([], limit: 64, seed: Self.seed)
        ids.removeAll(keepingRoomFor: 128)
        let clusters = (0..<129).map { Self.cluster(mark: UInt32($0)) }
        var values: [Cluster] = []
        for (id, cluster) in clusters.dropLast().enumerated() {
            #expect(ids.id(for: cluster, in: values, entering: id) == id)
            values.append(cluster)
        }
        for (id, cluster) in values.enumerated() { #expect(ids.id(of: cluster, in: values) == id) }
        #expect(ids.id(of: clusters[128], in: values) == nil)
    }
}

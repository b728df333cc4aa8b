/// The ids of the cluster table (ClusterTable), in a table of its own rather than a
/// Dictionary: random bytes make a new cluster every few hundred bytes, and the
/// dictionary's generic find and insert, its uniqueness checks and its clearing at each
/// collection cost more than the look-up itself.
///
/// Open addressing with linear probing in a power-of-two array of at least twice the
/// table's limit, each slot an id plus one (0 empty), the first slot the cluster's own
/// seeded hash (Cluster._rawHashValue). The table never holds more than its limit, so
/// at least half the slots are empty and a probe, whatever clusters a command's output
/// chooses, ends within limit + 1 slots. Nothing is taken out one at a time: a collection
/// empties the slots and enters the live ids again.
struct ClusterIds: InternIndex {
    private var slots: [UInt32]
    /// The process's hashing seed (random unless SWIFT_DETERMINISTIC_HASHING is set), so
    /// that which clusters collide is not the same in every process.
    private let seed: Int

    init(_ values: [Cluster], limit: Int) {
        var hasher = Hasher()
        hasher.combine(0)
        self.init(values, limit: limit, seed: hasher.finalize())
    }

    /// With a seed of the caller's: for tests that need clusters known to collide.
    init(_ values: [Cluster], limit: Int, seed: Int) {
        self.seed = seed
        slots = Array(repeating: 0, count: Self.slotCount(limit))
        for (id, value) in values.enumerated() { enter(value, as: id) }
    }

    /// Twice `limit`, rounded up to a power of two.
    private static func slotCount(_ limit: Int) -> Int {
        1 << (Int.bitWidth - (max(2 * limit, 2) - 1).leadingZeroBitCount)
    }

    /// The slot holding `value`'s id, or the empty one where its probe ends.
    @inline(__always)
    private func slot(of value: Cluster, in values: [Cluster]) -> Int {
        let mask = slots.count &- 1
        var slot = value._rawHashValue(seed: seed) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 || values[Int(entry &- 1)] == value { return slot }
            slot = (slot &+ 1) & mask
        }
    }

    mutating func id(for value: Cluster, in values: [Cluster], entering next: Int?) -> Int? {
        let slot = slot(of: value, in: values)
        let entry = slots[slot]
        if entry != 0 { return Int(entry &- 1) }
        guard let next else { return nil }
        slots[slot] = UInt32(truncatingIfNeeded: next &+ 1)
        return next
    }

    func id(of value: Cluster, in values: [Cluster]) -> Int? {
        let entry = slots[slot(of: value, in: values)]
        return entry == 0 ? nil : Int(entry &- 1)
    }

    mutating func removeAll(keepingRoomFor limit: Int) {
        let count = Self.slotCount(limit)
        if slots.count == count {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        } else {
            slots = Array(repeating: 0, count: count)
        }
    }

    mutating func enter(_ value: Cluster, as id: Int) {
        let mask = slots.count &- 1
        var slot = value._rawHashValue(seed: seed) & mask
        while slots[slot] != 0 { slot = (slot &+ 1) & mask }
        slots[slot] = UInt32(truncatingIfNeeded: id &+ 1)
    }
}

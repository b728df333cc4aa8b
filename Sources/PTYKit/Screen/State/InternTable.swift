/// Values stored once each under a number that cells and styles hold instead (the styles,
/// clusters and hyperlinks of the Pen). Bounded: when it is full, the model collects
/// (Pen.collectGarbage) and the table frees the ids nothing refers to any more.
///
/// A collection never renumbers an id in use, as Ghostty's reference-counted style and
/// hyperlink sets never move an entry: an id read before a collection (the pen's, a cell's
/// being edited) still names the same value after it, so no caller has to know whether a
/// look-up collected. Freed ids are given out again before the table grows.
struct InternTable<Value: Equatable, ID: FixedWidthInteger & UnsignedInteger, Index: InternIndex>
where Index.Key == Value {
    private var values: [Value]
    /// Where a value's id is found (the dictionary for styles and links, ClusterIds).
    private var ids: Index
    /// What an id past the end reads as.
    private let missing: Value
    /// Ids a collection freed, the lowest last.
    private var freeIds: [Int] = []
    /// Ids below it are never freed (the plain style, no hyperlink).
    private let reserved: Int
    /// Full at this many, for a collection to run; it grows (to `capacity`) only when a
    /// collection leaves it more than half full, so it stays small in ordinary use.
    private var limit: Int
    private let capacity: Int

    init(reserved: [Value], missing: Value, limit: Int, capacity: Int) {
        values = reserved
        self.missing = missing
        ids = Index(reserved, limit: limit)
        self.reserved = reserved.count
        self.limit = limit
        self.capacity = capacity
    }

    /// The id of `value`, stored now if new; nil when the table is full. Looked up and
    /// entered under the id it would get in one look-up (random bytes make a new cluster
    /// every few hundred bytes): only a new value gets that id, which no value holds, and
    /// only when the table has room, so a full table enters nothing it must take out again.
    mutating func id(for value: Value) -> ID? {
        let next = freeIds.last ?? values.count
        let hasRoom = next < values.count || values.count < limit
        guard let id = ids.id(for: value, in: values, entering: hasRoom ? next : nil) else { return nil }
        guard id == next else { return ID(truncatingIfNeeded: id) }
        // A freed id is below the count (a collection cuts the values after the last live
        // one); removeLast is inlined where popLast was a call.
        if id < values.count {
            freeIds.removeLast()
            values[id] = value
        } else {
            values.append(value)
        }
        return ID(truncatingIfNeeded: id)
    }

    subscript(id: ID) -> Value {
        Int(id) < values.count ? values[Int(id)] : missing
    }

    /// Ids are below this.
    var count: Int { values.count }

    /// Whether `id` holds a value (not freed, not past the end). Off the hot path: for the
    /// model's validation.
    func isInUse(_ id: ID) -> Bool {
        Int(id) < values.count && ids.id(of: values[Int(id)], in: values) == Int(id)
    }

    /// Frees every id `isLive` says nothing refers to; the others keep their values.
    mutating func free(keeping isUsed: (ID) -> Bool) {
        func isLive(_ id: Int) -> Bool { id < reserved || isUsed(ID(truncatingIfNeeded: id)) }
        var end = values.count
        while end > reserved && !isLive(end - 1) { end -= 1 }
        values.removeSubrange(end...)
        freeIds.removeAll(keepingCapacity: true)
        for id in (0..<end).reversed() where !isLive(id) { freeIds.append(id) }
        if end - freeIds.count > limit / 2 { limit = min(limit * 2, capacity) }
        // The index is cleared with room for the new limit, then given the live ids, read
        // off the freed ones (lowest last) rather than asking `isUsed` twice.
        ids.removeAll(keepingRoomFor: limit)
        var freed = freeIds.count
        for id in 0..<end {
            if freed > 0 && freeIds[freed - 1] == id {
                freed -= 1
            } else {
                ids.enter(values[id], as: id)
            }
        }
    }
}

/// Styles: id 0 is the plain style. 65535 at most, held by cells in 16 bits.
typealias StyleTable = InternTable<Style, UInt16, HashedIds<Style>>

extension StyleTable {
    init() { self.init(reserved: [.plain], missing: .plain, limit: 1024, capacity: 1 << 16 - 1) }
}

/// Characters with combining marks (Cluster), held by cells in their content bits, their
/// ids found in a table of their own (ClusterIds). Full at 2048 (96 KiB, less than the
/// dictionary's 1024 took), which ordinary text never reaches: random bytes make a cluster
/// every few hundred bytes, nearly all gone from the screen by the next collection, which
/// walks every cell (about 140 k instructions at 60x200); at 256 it ran every 250
/// clusters, 0.67 M instructions a MiB at 60x200.
typealias ClusterTable = InternTable<Cluster, UInt32, ClusterIds>

extension ClusterTable {
    init() { self.init(reserved: [], missing: Cluster(0xFFFD), limit: Self.firstLimit, capacity: 1 << 16) }

    static var firstLimit: Int { 2048 }
}

/// OSC 8 hyperlinks, the payload after `8;` (parameters, `;`, URI); styles hold their ids,
/// 0 meaning none.
typealias HyperlinkTable = InternTable<[UInt8], UInt16, HashedIds<[UInt8]>>

extension HyperlinkTable {
    init() { self.init(reserved: [[]], missing: [], limit: 1 << 12, capacity: 1 << 12) }
}

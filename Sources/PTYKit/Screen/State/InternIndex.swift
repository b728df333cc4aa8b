/// Where an InternTable finds the id a value is stored under: a dictionary (HashedIds) for
/// styles and links, a table of its own for clusters (ClusterIds), which random bytes make
/// a new one of every few hundred bytes.
protocol InternIndex {
    associatedtype Key

    /// An index of `values`, each under its position, with room for `limit` values.
    init(_ values: [Key], limit: Int)

    /// The id `value` is stored under in `values`; when it is stored under none, `next`
    /// entered for it, or nil when `next` is (the table is full).
    mutating func id(for value: Key, in values: [Key], entering next: Int?) -> Int?

    /// The id `value` is stored under in `values`, nil if none.
    func id(of value: Key, in values: [Key]) -> Int?

    /// Emptied, with room for `limit` values.
    mutating func removeAll(keepingRoomFor limit: Int)

    /// `value`, stored under no id yet, now under `id`.
    mutating func enter(_ value: Key, as id: Int)
}

/// The ids of styles and links, in a dictionary.
struct HashedIds<Key: Hashable>: InternIndex {
    private var ids: [Key: Int]

    init(_ values: [Key], limit: Int) {
        ids = Dictionary(uniqueKeysWithValues: values.enumerated().map { ($1, $0) })
    }

    mutating func id(for value: Key, in values: [Key], entering next: Int?) -> Int? {
        guard let next else { return ids[value] }
        return Self.entered(&ids[value, default: next])
    }

    /// The id in a slot of `ids`, reached through the dictionary's modify accessor, which
    /// enters the default when the key is missing without hashing it a second time.
    @inline(__always)
    private static func entered(_ slot: inout Int) -> Int { slot }

    func id(of value: Key, in values: [Key]) -> Int? { ids[value] }

    mutating func removeAll(keepingRoomFor limit: Int) { ids.removeAll(keepingCapacity: true) }

    mutating func enter(_ value: Key, as id: Int) { ids[value] = id }
}

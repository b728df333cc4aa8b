import Glibc

/// A secret's bytes (a typed password) in one fixed allocation that never
/// grows or moves, so no stray copy is left behind in freed memory. Bytes are
/// zeroed with `explicit_bzero`, which the compiler may not optimise away,
/// whenever they are removed and when the buffer dies. It never becomes a
/// `String`.
final class SecretBuffer {
    let capacity: Int
    private(set) var count = 0
    /// `capacity + 1` bytes: everything from `count` on is zero, so the bytes
    /// are always a C string as well.
    private let storage: UnsafeMutablePointer<UInt8>

    init(capacity: Int = 1024) {
        precondition(capacity > 0)
        self.capacity = capacity
        storage = .allocate(capacity: capacity + 1)
        storage.initialize(repeating: 0, count: capacity + 1)
    }

    deinit {
        explicit_bzero(storage, capacity + 1)
        storage.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    var last: UInt8? { count > 0 ? storage[count - 1] : nil }

    /// Appends `byte`; false when the buffer is full and the byte was dropped.
    func append(_ byte: UInt8) -> Bool {
        guard count < capacity else { return false }
        storage[count] = byte
        count += 1
        return true
    }

    func removeLast() {
        guard count > 0 else { return }
        count -= 1
        explicit_bzero(storage + count, 1)
    }

    func clear() {
        explicit_bzero(storage, capacity + 1)
        count = 0
    }

    /// The bytes, valid only inside `body`.
    func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// The bytes as a NUL-terminated C string (for crypt), valid only inside
    /// `body`. A secret that contains a NUL byte ends there.
    func withCString<R, E: Error>(_ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        // char may alias any object, so viewing the bytes as CChar is sound.
        try body(UnsafeRawPointer(storage).assumingMemoryBound(to: CChar.self))
    }

    /// Whether both hold the same bytes, compared in constant time.
    func hasSameBytes(as other: SecretBuffer) -> Bool {
        withBytes { mine in other.withBytes { theirs in constantTimeEqual(mine, theirs) } }
    }
}

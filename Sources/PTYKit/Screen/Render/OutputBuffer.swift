/// Bytes for a terminal, built in place: the caller owns one and reuses it, so rendering
/// allocates nothing per cell or row (it grows only while it has never been that large).
public final class OutputBuffer {
    /// Behind a pointer, not in stored properties of the class: the renderer appends byte by
    /// byte, and every access to a class's stored property would be an exclusivity check.
    private struct Storage {
        var base: UnsafeMutablePointer<UInt8>
        var count: Int
        var capacity: Int
    }

    private let storage: UnsafeMutablePointer<Storage>

    /// How many bytes it holds.
    public var count: Int { storage.pointee.count }

    public init(capacity: Int = 4096) {
        let capacity = max(capacity, 64)
        storage = .allocate(capacity: 1)
        storage.initialize(to: Storage(base: .allocate(capacity: capacity), count: 0, capacity: capacity))
    }

    deinit {
        storage.pointee.base.deallocate()
        storage.deallocate()
    }

    /// Empties it, keeping its storage.
    public func removeAll() {
        storage.pointee.count = 0
    }

    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage.pointee.base, count: count))
    }

    /// A copy of the bytes (for tests and small uses).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.pointee.base, count: count)) }

    public func append(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let source = bytes.baseAddress {
            (storage.pointee.base + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
        storage.pointee.count += bytes.count
    }

    public func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends one control function of the vocabulary.
    public func append(_ control: TerminalControl) {
        control.write(to: self)
    }

    // MARK: - For the renderer

    /// Makes room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        if storage.pointee.count &+ extra > storage.pointee.capacity { grow(storage.pointee.count + extra) }
    }

    private func grow(_ needed: Int) {
        var newCapacity = storage.pointee.capacity
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: storage.pointee.base, count: count)
        storage.pointee.base.deallocate()
        storage.pointee.base = newBase
        storage.pointee.capacity = newCapacity
    }

    /// Appends a byte; room must have been reserved.
    @inline(__always)
    func put(_ byte: UInt8) {
        storage.pointee.base[storage.pointee.count] = byte
        storage.pointee.count &+= 1
    }

    @inline(__always)
    func appendByte(_ byte: UInt8) {
        reserve(1)
        put(byte)
    }

    func append(_ text: StaticString) {
        reserve(text.utf8CodeUnitCount)
        (storage.pointee.base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        storage.pointee.count += text.utf8CodeUnitCount
    }

    /// Appends the characters of the cells from `cells`, at most `count`, for as long as
    /// each is printable ASCII in the style `style` (its bits above the character's 7)
    /// and nothing else: a run of text, copied as it is found. How many it took.
    @inline(__always)
    func appendASCIIRun(_ cells: UnsafePointer<UInt64>, count: Int, style: UInt64) -> Int {
        reserve(count)
        let target = storage.pointee.base + storage.pointee.count
        // One comparison: a cell of another style, with a flag or a character outside
        // 0x20-0x7E lies outside style | 0x20 ... style | 0x7E.
        let first = style | 0x20
        var index = 0
        while index < count {
            let cell = cells[index]
            guard cell &- first < 0x5F else { break }
            target[index] = UInt8(truncatingIfNeeded: cell)
            index &+= 1
        }
        storage.pointee.count &+= index
        return index
    }

    /// A decimal number.
    func appendNumber(_ value: Int) {
        reserve(20)
        var value = max(value, 0)
        if value < 10 {
            put(UInt8(truncatingIfNeeded: value) &+ 0x30)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var length = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            while value > 0 {
                scratch[length] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
                value /= 10
                length += 1
            }
            for index in stride(from: length - 1, through: 0, by: -1) { put(scratch[index]) }
        }
    }

    /// A scalar as UTF-8.
    @inline(__always)
    func appendScalar(_ scalar: UInt32) {
        reserve(4)
        if scalar < 0x80 {
            put(UInt8(truncatingIfNeeded: scalar))
        } else if scalar < 0x800 {
            put(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
            put(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        } else if scalar < 0x1_0000 {
            put(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
            put(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            put(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        } else {
            put(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
            put(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
            put(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            put(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        }
    }

    /// `ESC [`.
    @inline(__always)
    func appendCSI() {
        reserve(2)
        put(0x1B)
        put(UInt8(ascii: "["))
    }

    /// `ESC [ parameter final`.
    func appendCSI(_ parameter: Int, final: Unicode.Scalar) {
        appendCSI()
        appendNumber(parameter)
        appendByte(UInt8(ascii: final))
    }

    /// `ESC [ first ; second final`.
    func appendCSI(_ first: Int, _ second: Int, final: Unicode.Scalar) {
        appendCSI()
        appendNumber(first)
        appendByte(UInt8(ascii: ";"))
        appendNumber(second)
        appendByte(UInt8(ascii: final))
    }
}

/// The fuzzer's bytes, read front to back as choices and data. Past the end
/// every read gives 0 or nothing, so a target never has to check lengths.
struct FuzzInput {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0

    init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = UnsafeBufferPointer(start: data, count: size)
    }

    var isAtEnd: Bool { position >= bytes.count }

    var remainingCount: Int { max(bytes.count - position, 0) }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A value in 0..<bound (bound > 0).
    mutating func choice(_ bound: Int) -> Int {
        Int(byte()) % bound
    }

    /// Up to `count` bytes.
    mutating func take(_ count: Int) -> [UInt8] {
        let end = min(position + count, bytes.count)
        defer { position = max(position, end) }
        return position < end ? Array(bytes[position..<end]) : []
    }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] {
        take(remainingCount)
    }
}

/// Where a byte string is cut into the chunks a reader would get: chunk
/// lengths come from the fuzzer (times `scale`), the last chunk takes what is left.
func chunkLengths(total: Int, choices: [UInt8], scale: Int = 1) -> [Int] {
    var lengths: [Int] = []
    var left = total
    for choice in choices where left > 0 {
        let length = min(Int(choice) * scale, left)
        lengths.append(length)
        left -= length
    }
    lengths.append(left)
    return lengths
}

/// The input turned into a property check, reported the way libFuzzer expects
/// (a crash with the message).
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("property violated: \(message())")
    }
}

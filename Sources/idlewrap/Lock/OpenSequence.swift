import PTYKit

/// The output since the stream was last at a boundary: the escape sequence, string or
/// character the command stopped in the middle of. A lock that has to cut it short sends
/// it again at the unlock, so the terminal sees it whole with the rest of it. Bounded: a
/// sequence longer than `limit` is not kept, and then its cut shows.
struct OpenSequence {
    static let limit = 4096

    private var bytes: [UInt8] = []
    private var isTooLong = false

    /// The bytes to send again after a cut; empty if the sequence outgrew `limit`.
    var prefix: [UInt8] { isTooLong ? [] : bytes }

    /// Follows `chunk`, which took the parser from `before` to `after`.
    mutating func follow(_ chunk: UnsafeRawBufferPointer, from before: OutputParser, to after: OutputParser) {
        if after.isAtBoundary {
            reset()
            return
        }
        if let start = before.lastBoundary(in: chunk) {
            reset()
            append(UnsafeRawBufferPointer(rebasing: chunk[start...]))
        } else {
            append(chunk)
        }
    }

    mutating func reset() {
        if !bytes.isEmpty { bytes.removeAll(keepingCapacity: true) }
        isTooLong = false
    }

    private mutating func append(_ part: UnsafeRawBufferPointer) {
        guard !isTooLong else { return }
        if bytes.count + part.count > Self.limit {
            isTooLong = true
            bytes.removeAll()
        } else {
            bytes.append(contentsOf: part)
        }
    }
}

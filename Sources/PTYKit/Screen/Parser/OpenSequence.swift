/// The output since the stream was last at a boundary: the escape sequence, string or
/// character a program stopped in the middle of. A terminal brought to the model's screen
/// by a repaint is at a boundary; these bytes, written after it, put it where the stream
/// is, so that the rest of the sequence means on the terminal what it means in the model.
/// Bounded: a sequence longer than `limit` is not kept.
struct OpenSequence {
    static let limit = 4096

    private var bytes: [UInt8] = []
    private var isTooLong = false

    /// The bytes to write again; empty at a boundary or past `limit`.
    var prefix: [UInt8] { isTooLong ? [] : bytes }

    /// Follows `chunk`, after which the stream was not at a boundary; `start` is where in
    /// it the open sequence began, nil if it began in an earlier chunk.
    mutating func follow(_ chunk: UnsafeRawBufferPointer, openingAt start: Int?) {
        if let start {
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

/// Queries the stream asks the terminal (cursor position, device attributes, colours, mode
/// reports, ...), kept while `isHolding` so that they can be sent after the screen is shown
/// again: a program waiting for an answer gets one, and from the terminal in the state it
/// expects. Each is kept in a canonical form of the sequence it came as; at most `limit`
/// bytes of them, later ones are counted as dropped.
struct QueryHold {
    static let limit = 16 * 1024
    var isHolding = false
    private(set) var bytes: [UInt8] = []
    /// Every query seen, held or not.
    private(set) var count = 0
    private(set) var dropped = 0

    mutating func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    private mutating func keep(_ query: [UInt8]) {
        count &+= 1
        guard isHolding else { return }
        if bytes.count + query.count > Self.limit {
            dropped += 1
        } else {
            bytes += query
        }
    }

    /// A control sequence whose row says it is a query: DA1 and DSR only with the
    /// parameters that ask (XTWINOPS's reports are told apart by the caller).
    mutating func note(_ function: ControlFunction, final: UInt8, _ sequence: UnsafePointer<SequenceParameters>) {
        let first = sequence.pointee.parameter(0, default: 0)
        switch function {
        case .da1 where first != 0: return
        case .dsr where first != 5 && first != 6: return
        default: break
        }
        var query: [UInt8] = [0x1B, UInt8(ascii: "[")]
        if sequence.pointee.marker != 0 { query.append(sequence.pointee.marker) }
        for index in 0..<sequence.pointee.valueCount {
            if index > 0 {
                query.append(sequence.pointee.isSubparameter(index) ? UInt8(ascii: ":") : UInt8(ascii: ";"))
            }
            if let value = sequence.pointee.value(index) { query += Array(String(value).utf8) }
        }
        if sequence.pointee.intermediate != 0 { query.append(sequence.pointee.intermediate) }
        query.append(final)
        keep(query)
    }

    /// OSC 4, 10, 11, 12 and 52 with `?`: the string as it came, ended by ST.
    mutating func noteString(osc payload: ControlString) {
        guard !payload.isTruncated else { return }
        keep([0x1B, UInt8(ascii: "]")] + payload.bytes + [0x1B, UInt8(ascii: "\\")])
    }

    /// DECRQSS (`$`) and XTGETTCAP (`+`).
    mutating func noteString(dcs intermediate: UInt8, payload: ControlString) {
        guard !payload.isTruncated else { return }
        keep([0x1B, UInt8(ascii: "P"), intermediate, UInt8(ascii: "q")] + payload.bytes + [0x1B, UInt8(ascii: "\\")])
    }
}

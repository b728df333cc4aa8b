/// What a client may ask a session over its control socket: one line, `status`
/// or `lock`. There is deliberately no request that unlocks, or that changes
/// anything else: the worst a request can do is lock.
enum ControlRequest: String, Equatable, Sendable {
    case status
    case lock

    /// The longest request line a session reads, newline included; a client
    /// that sends more is cut off.
    static let maximumLength = 64

    enum Parsed: Equatable {
        /// No newline yet: wait for more.
        case incomplete
        case request(ControlRequest)
        /// Not a request, or too long: answer `error` and close.
        case invalid
    }

    /// The request in what a client sent so far: a known word, then `\n`.
    static func parse(_ received: [UInt8]) -> Parsed {
        guard let newline = received.firstIndex(of: UInt8(ascii: "\n")) else {
            return received.count >= maximumLength ? .invalid : .incomplete
        }
        guard newline < maximumLength, newline == received.count - 1,
            let request = ControlRequest(rawValue: String(decoding: received[..<newline], as: UTF8.self))
        else { return .invalid }
        return .request(request)
    }

    /// The line a client sends.
    var line: String { rawValue + "\n" }

    /// A session's answer to `lock` when its lock screen is up or on its way.
    static let lockedReply = "locked\n"
    /// A session's answer to `lock` when it is ending and cannot lock any more.
    static let endingReply = "ending\n"
    static let errorReply = "error\n"
}

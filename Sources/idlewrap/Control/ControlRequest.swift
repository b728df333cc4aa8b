/// What a client may ask a session over its control socket: one line, `status`,
/// `lock`, or `attach` (`take`: also from a terminal that still has it), which comes
/// with the client's terminal (its descriptors, SCM_RIGHTS) and hands it to the
/// session. There is deliberately no request that unlocks, or that changes anything
/// else: the worst a request can do is lock, and an attached terminal starts locked.
enum ControlRequest: String, Equatable, Sendable {
    case status
    case lock
    case attach
    case take

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

/// What passes on an attach connection once the session took it: lines both ways.
enum AttachMessage: Equatable, Sendable {
    /// Session to client: the terminal is the session's now, locked.
    case attached
    /// Session to client: refused; the reason is one line for stderr.
    case refused(String)
    /// Session to client: the command ended, with this status for the client to exit with.
    case exit(Int32)
    /// Session to client: another terminal took the session (`--take`).
    case detached
    /// Client to session: the terminal's size changed (the client gets its SIGWINCH).
    case resized

    /// The line sent.
    var line: String {
        switch self {
        case .attached: "attached\n"
        case .refused(let reason): "refused \(terminalSafe(reason))\n"
        case .exit(let status): "exit \(status)\n"
        case .detached: "detached\n"
        case .resized: "resized\n"
        }
    }

    /// The messages in `received` (whole lines), and what is left of it: the start of
    /// the next line. A line that is no message is nil, as is one longer than
    /// `ControlRequest.maximumLength` that never ends.
    static func take(from received: inout [UInt8]) -> [AttachMessage?] {
        var messages: [AttachMessage?] = []
        while let newline = received.firstIndex(of: UInt8(ascii: "\n")) {
            messages.append(AttachMessage(line: String(decoding: received[..<newline], as: UTF8.self)))
            received.removeSubrange(...newline)
        }
        if received.count >= 256 {
            received.removeAll()
            messages.append(nil)
        }
        return messages
    }

    init?(line: String) {
        switch line {
        case "attached": self = .attached
        case "detached": self = .detached
        case "resized": self = .resized
        default:
            if line.hasPrefix("refused ") {
                // Shown on stderr: read as it is written, with control characters in caret
                // notation, whatever the peer sent.
                self = .refused(terminalSafe(String(line.dropFirst("refused ".count))))
            } else if line.hasPrefix("exit "), let status = Int32(line.dropFirst("exit ".count)),
                (0...255).contains(status)
            {
                self = .exit(status)
            } else {
                return nil
            }
        }
    }
}

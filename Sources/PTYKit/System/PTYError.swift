/// What went wrong in PTYKit, as one sentence a user can act on.
public struct PTYError: Error, CustomStringConvertible, Sendable {
    public enum Code: Sendable, Equatable {
        case openPseudoTerminal
        case configureTerminal
        case spawnCommand
        case commandNotFound
        case commandNotExecutable
        case watchSignals
        case relay
        case waitForCommand
        case socket
    }

    public let code: Code
    public let underlying: Errno?
    /// The call that failed, or the command concerned.
    public let context: String

    public init(_ code: Code, _ underlying: Errno? = nil, context: String) {
        self.code = code
        self.underlying = underlying
        self.context = context
    }

    public var description: String {
        let cause = underlying.map { ": \($0)" } ?? ""
        switch code {
        case .openPseudoTerminal: return "cannot open a pseudo-terminal (\(context))\(cause)"
        case .configureTerminal: return "cannot configure the terminal (\(context))\(cause)"
        case .spawnCommand: return "cannot run \(context)\(cause)"
        case .commandNotFound:
            return context.contains("/") ? "\(context): No such file or directory" : "\(context): command not found"
        case .commandNotExecutable: return "\(context): cannot execute\(cause)"
        case .watchSignals: return "cannot watch signals (\(context))\(cause)"
        case .relay: return "relay failed (\(context))\(cause)"
        case .waitForCommand: return "cannot wait for the command (\(context))\(cause)"
        case .socket: return "socket call failed (\(context))\(cause)"
        }
    }
}

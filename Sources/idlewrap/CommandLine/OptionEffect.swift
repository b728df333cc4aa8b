/// What an option does: sets a field of `Options` from its value, or asks for an action
/// that the command-line parser carries out.
enum OptionEffect: Sendable {
    case duration(WritableKeyPath<Options, Nanoseconds> & Sendable)
    case size(WritableKeyPath<Options, Int> & Sendable)
    case key(WritableKeyPath<Options, UInt8?> & Sendable)
    case method(WritableKeyPath<Options, AuthMethod?> & Sendable)
    /// Any text, the empty one included.
    case text(WritableKeyPath<Options, String?> & Sendable)
    /// A name that must not be empty.
    case name(WritableKeyPath<Options, String> & Sendable)
    /// A file's path, which must not be empty.
    case path(WritableKeyPath<Options, String?> & Sendable)
    /// A directory's path, which must not be empty.
    case directory(WritableKeyPath<Options, String?> & Sendable)
    /// A switch: given alone, it is on; a configuration file says `yes` or `no`.
    case flag(WritableKeyPath<Options, Bool> & Sendable)
    case help
    case version
    case setPassword

    var kind: ValueKind {
        switch self {
        case .duration: .duration
        case .size: .size
        case .key: .key
        case .method: .method
        case .text, .name: .text
        case .path, .setPassword: .path
        case .directory: .directory
        case .flag, .help, .version: .switch
        }
    }

    /// The field of `Options` the option sets; nil for an action.
    var field: PartialKeyPath<Options>? {
        switch self {
        case .duration(let field): field
        case .size(let field): field
        case .key(let field): field
        case .method(let field): field
        case .text(let field), .path(let field), .directory(let field): field
        case .name(let field): field
        case .flag(let field): field
        case .help, .version, .setPassword: nil
        }
    }

    /// Sets the field from `value` in the option's grammar. `value` is nil only for a
    /// switch given alone; a switch's value, from a configuration file, is `yes` or `no`.
    func set(_ value: String?, in options: inout Options) throws(ValueProblem) {
        if case .flag(let field) = self {
            switch value {
            case nil, "yes"?: options[keyPath: field] = true
            case "no"?: options[keyPath: field] = false
            default: throw .invalid("invalid value", detail: " (expected \(Self.list(ValueKind.switch.choices)))")
            }
            return
        }
        guard let value else { preconditionFailure("an option with a value was given none") }
        switch self {
        case .duration(let field):
            guard let duration = parseDuration(value) else { throw .invalid("invalid duration") }
            options[keyPath: field] = duration
        case .size(let field):
            guard let size = parseSize(value) else { throw .invalid("invalid size") }
            options[keyPath: field] = size
        case .key(let field):
            guard let key = parseLockKey(value) else {
                let reason =
                    isEscapeKey(value)
                    ? "ESC starts every escape sequence, so arrow keys would lock"
                    : "expected a control key such as ^] or ^\\"
                throw .invalid("invalid key", detail: ": \(reason)")
            }
            options[keyPath: field] = key
        case .method(let field):
            guard let method = AuthMethod(rawValue: value) else {
                throw .invalid("unknown method", detail: " (expected \(Self.list(ValueKind.method.choices)))")
            }
            options[keyPath: field] = method
        case .text(let field):
            options[keyPath: field] = value
        case .name(let field):
            guard !value.isEmpty else { throw .empty }
            options[keyPath: field] = value
        case .path(let field), .directory(let field):
            guard !value.isEmpty else { throw .empty }
            options[keyPath: field] = value
        case .flag, .help, .version, .setPassword:
            preconditionFailure("--help, --version and --set-password are actions, not settings")
        }
    }

    /// "pam, ask or file".
    private static func list(_ choices: [String]) -> String {
        choices.dropLast().joined(separator: ", ") + " or " + choices[choices.count - 1]
    }
}

/// Why a value does not fit its option's grammar. `Settings` names the option and the
/// place of the value in the message.
enum ValueProblem: Error, Equatable {
    /// "invalid duration", followed by the value, the place, and `detail`.
    case invalid(String, detail: String = "")
    case empty
}

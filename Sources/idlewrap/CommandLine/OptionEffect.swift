/// What an option does: sets a field of `Options` from its value, or asks for an action
/// that the command-line parser carries out. A setting's closure stores the value it is
/// given, already checked against the option's grammar.
enum OptionEffect: Sendable {
    case duration(@Sendable (inout Options, Nanoseconds) -> Void)
    case size(@Sendable (inout Options, Int) -> Void)
    case key(@Sendable (inout Options, UInt8) -> Void)
    case method(@Sendable (inout Options, AuthMethod) -> Void)
    /// Any text; the empty one means not set (nil), as `--show-config` shows an unset
    /// value, so that its lines read back the same.
    case text(@Sendable (inout Options, String?) -> Void)
    /// A name that must not be empty.
    case name(@Sendable (inout Options, String) -> Void)
    /// A file's path, which must not be empty.
    case path(@Sendable (inout Options, String) -> Void)
    /// A directory's path, which must not be empty.
    case directory(@Sendable (inout Options, String) -> Void)
    /// A switch: given alone, it is on; a configuration file says `yes` or `no`.
    case flag(@Sendable (inout Options, Bool) -> Void)
    /// A list of methods separated by commas: `pam, file`.
    case methods(@Sendable (inout Options, [AuthMethod]) -> Void)
    /// A whole number from 1 to `PasswordLineEditor.maximumLength`.
    case count(@Sendable (inout Options, Int) -> Void)
    case help
    case version
    case setPassword
    case showConfig
    case lockAll
    case list
    /// Print the completion script for a shell.
    case completion

    var kind: ValueKind {
        switch self {
        case .duration: .duration
        case .size: .size
        case .key: .key
        case .method: .method
        case .text, .name: .text
        case .path, .setPassword: .path
        case .directory: .directory
        case .flag, .help, .version, .showConfig, .lockAll, .list: .switch
        case .methods: .methods
        case .count: .number
        case .completion: .shell
        }
    }

    /// Whether the option asks for an action rather than setting a field of `Options`.
    var isAction: Bool {
        switch self {
        case .help, .version, .setPassword, .showConfig, .completion, .lockAll, .list: true
        default: false
        }
    }

    /// Sets the field from `value` in the option's grammar. `value` is nil only for a
    /// switch given alone; a switch's value, from a configuration file, is `yes` or `no`.
    func set(_ value: String?, in options: inout Options) throws(ValueProblem) {
        if case .flag(let store) = self {
            switch value {
            case nil, "yes"?: store(&options, true)
            case "no"?: store(&options, false)
            default: throw .invalid("invalid value", detail: " (expected \(Self.list(ValueKind.switch.choices)))")
            }
            return
        }
        guard let value else { preconditionFailure("an option with a value was given none") }
        switch self {
        case .duration(let store):
            guard let duration = parseDuration(value) else { throw .invalid("invalid duration") }
            store(&options, duration)
        case .size(let store):
            guard let size = parseSize(value) else { throw .invalid("invalid size") }
            store(&options, size)
        case .key(let store):
            guard let key = parseLockKey(value) else {
                let reason =
                    isEscapeKey(value)
                    ? "ESC starts every escape sequence, so arrow keys would lock"
                    : "expected a control key such as ^] or ^\\"
                throw .invalid("invalid key", detail: ": \(reason)")
            }
            store(&options, key)
        case .method(let store):
            guard let method = AuthMethod(rawValue: value) else {
                throw .invalid("unknown method", detail: " (expected \(Self.list(ValueKind.method.choices)))")
            }
            store(&options, method)
        case .text(let store):
            store(&options, value.isEmpty ? nil : value)
        case .name(let store), .path(let store), .directory(let store):
            guard !value.isEmpty else { throw .empty }
            store(&options, value)
        case .methods(let store):
            store(&options, try Self.methods(value))
        case .count(let store):
            guard value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let count = Int(value),
                (1...PasswordLineEditor.maximumLength).contains(count)
            else {
                throw .invalid(
                    "invalid number", detail: " (expected a whole number from 1 to \(PasswordLineEditor.maximumLength))"
                )
            }
            store(&options, count)
        case .flag, .help, .version, .setPassword, .showConfig, .completion, .lockAll, .list:
            preconditionFailure(
                "--help, --version, --set-password, --show-config, --completion, --lock-all and --list are actions, not settings"
            )
        }
    }

    /// `pam, file`: methods separated by commas, each at most once, at least one.
    private static func methods(_ value: String) throws(ValueProblem) -> [AuthMethod] {
        var methods: [AuthMethod] = []
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(item.trimmingBlanks())
            guard let method = AuthMethod(rawValue: name), !methods.contains(method) else {
                throw .invalid(
                    "invalid list of methods",
                    detail:
                        " (expected one or more of \(list(ValueKind.method.choices)), separated by commas, each once)")
            }
            methods.append(method)
        }
        return methods
    }

    /// "pam, ask or file".
    static func list(_ choices: [String]) -> String {
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

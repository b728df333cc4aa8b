/// One option, as `OptionTable` declares it: its spellings, its value, its help, where it
/// may be given and what it does. The command-line parser, `--help`, the configuration
/// files, `--show-config`, site policy and the shell completions all read these records,
/// and nothing else lists options.
struct OptionDefinition: Sendable {
    /// `--long` on the command line.
    let long: String
    /// The key of a configuration file's line: `long`, but for `--attach-at-login`, whose
    /// key is `attach`, because `--attach` is the action. An action's is its `long`, so
    /// that a file's line naming it is refused by name.
    let configKey: String
    let short: Character?
    /// The value's name in help and documentation (`DURATION`); nil for a switch.
    let valueName: String?
    /// The help text after the option's synopsis, one element per line of `--help`.
    let help: [String]
    let scope: OptionScope
    let effect: OptionEffect
    /// A variable of the environment that sets this option too (`IDLEWRAP_TIMEOUT`).
    let environmentVariable: String?

    /// A setting: a field of `Options`, given anywhere unless `scope` says otherwise.
    init(
        long: String, configKey: String? = nil, short: Character? = nil, valueName: String? = nil, help: [String],
        scope: OptionScope = .anywhere, setting: Setting, environmentVariable: String? = nil
    ) {
        self.long = long
        self.configKey = configKey ?? long
        self.short = short
        self.valueName = valueName
        self.help = help
        self.scope = scope
        self.effect = .setting(setting)
        self.environmentVariable = environmentVariable
    }

    /// An action, which only the command line asks for.
    init(long: String, short: Character? = nil, valueName: String? = nil, help: [String], action: Action) {
        self.long = long
        self.configKey = long
        self.short = short
        self.valueName = valueName
        self.help = help
        self.scope = .commandLine
        self.effect = .action(action)
        self.environmentVariable = nil
    }

    /// The setting, or nil for an action.
    var setting: Setting? {
        if case .setting(let setting) = effect { setting } else { nil }
    }

    /// The grammar of the value, for checking it and for completing it.
    var kind: ValueKind {
        switch effect {
        case .setting(let setting): setting.kind
        case .action(let action): action.kind
        }
    }

    /// How the command line gives the value.
    var argument: OptionArgument {
        switch effect {
        case .setting(let setting): setting.kind == .switch ? .none : .required
        case .action(let action): action.argument
        }
    }

    /// The option as `--help` shows it: `-t, --timeout DURATION`,
    /// `--set-password [FILE]`.
    var synopsis: String {
        var text = "--\(long)"
        if let short { text = "-\(short), " + text }
        if let valueName {
            text += argument == .attachedOnly ? " [\(valueName)]" : " \(valueName)"
        }
        return text
    }
}

extension OptionDefinition: Equatable {
    /// The table declares each option once, under its own long name.
    static func == (left: OptionDefinition, right: OptionDefinition) -> Bool {
        left.long == right.long
    }
}

/// What an option does: set a field of `Options`, or ask for an action.
enum OptionEffect: Sendable {
    case setting(Setting)
    case action(Action)
}

/// How an option's value follows it on the command line.
enum OptionArgument: Equatable, Sendable {
    /// A switch: `--quiet`; `--quiet=yes` is an error.
    case none
    /// `--timeout 5m`, `--timeout=5m`, `-t 5m`, `-t5m`.
    case required
    /// Only `--set-password=FILE`: its FILE is otherwise the operand, never the next argument.
    case attachedOnly
}

/// The grammar of an option's value. Completions offer values by it; `choices` lists
/// the only values a grammar accepts, where there are few.
enum ValueKind: Equatable, Sendable {
    case duration, size, key, method, text, path, directory
    /// When a session outlives its terminal (`--detach`).
    case detachWhen
    /// What a login does about detached sessions (`--attach-at-login`).
    case attachAtLogin
    /// Names of settings separated by commas (`fixed`).
    case settingNames
    /// Methods separated by commas (`pam, file`).
    case methods
    /// A whole number (`min-password-length`).
    case number
    /// A shell `--completion` writes a script for.
    case shell
    /// No value on the command line; `yes` or `no` in a configuration file.
    case `switch`

    var choices: [String] {
        switch self {
        case .method: AuthMethod.allCases.map(\.rawValue)
        case .detachWhen: DetachWhen.allCases.map(\.rawValue)
        case .attachAtLogin: AttachAtLogin.allCases.map(\.rawValue)
        case .shell: CompletionShell.allCases.map(\.rawValue)
        case .switch: ["yes", "no"]
        default: []
        }
    }
}

/// Where an option may be given.
enum OptionScope: Equatable, Sendable {
    /// Only on the command line: an action, or a setting that only goes with one.
    case commandLine
    /// On the command line, in either configuration file, and in its environment
    /// variable if it has one.
    case anywhere
    /// Only in the system configuration file: site policy that a user cannot change.
    case systemFile

    func allows(_ source: ValueSource) -> Bool {
        switch (self, source) {
        case (_, .defaultValue): true
        case (.anywhere, _): true
        case (.commandLine, .commandLine): true
        case (.systemFile, .file(.system, _, _)): true
        default: false
        }
    }
}

/// What an option that is not a setting asks idlewrap to do instead of running a command.
/// The cases' order is the order in which a message names two that were given together.
enum Action: CaseIterable, Sendable {
    case help, version, completion
    case showConfig, checkConfig, setPassword, lockAll, list, attach, audit

    /// Whether the parser stops at the option and answers at once, whatever else the
    /// command line says: `--help`, `--version`, `--completion SHELL`.
    var isImmediate: Bool {
        switch self {
        case .help, .version, .completion: true
        case .showConfig, .checkConfig, .setPassword, .lockAll, .list, .attach, .audit: false
        }
    }

    var argument: OptionArgument {
        switch self {
        case .completion: .required
        // --set-password's FILE is the operand, or attached: `--set-password=FILE`.
        case .setPassword: .attachedOnly
        case .help, .version, .showConfig, .checkConfig, .lockAll, .list, .attach, .audit: .none
        }
    }

    var kind: ValueKind {
        switch self {
        case .completion: .shell
        case .setPassword: .path
        case .help, .version, .showConfig, .checkConfig, .lockAll, .list, .attach, .audit: .switch
        }
    }
}

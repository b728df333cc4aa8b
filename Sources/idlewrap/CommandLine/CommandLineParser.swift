/// One pass over the arguments; `Options.parse` is its only entry point.
struct CommandLineParser {
    private let arguments: [String]
    private var index = 0
    private var settings: Settings
    /// The actions asked for that do not answer at once, each once.
    private var actions: [Action] = []
    private var attachedPasswordFile: String?  // --set-password=FILE
    private var operands: ArraySlice<String> = []

    init(arguments: [String], settings: Settings) {
        self.arguments = arguments
        self.settings = settings
    }

    mutating func parse(environment: (String) -> String?) throws(UsageError) -> Invocation {
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                operands = arguments[index...]
                break
            }
            let early: Invocation?
            if argument.hasPrefix("--") {
                early = try parseLong(argument)
            } else if argument.hasPrefix("-") && argument != "-" {
                early = try parseShortCluster(argument)
            } else {
                operands = arguments[(index - 1)...]
                break
            }
            if let early { return early }
        }
        try settings.applyPasswordFileRule()
        try settings.applyEnvironment(environment)
        try settings.enforcePolicy()
        return try invocation()
    }

    private mutating func parseLong(_ argument: String) throws(UsageError) -> Invocation? {
        // The `=` found among scalars, not Characters: one followed by a combining mark
        // is a single Character with it.
        let body = argument.unicodeScalars.dropFirst(2)
        let name: Substring
        let attached: String?
        if let equals = body.firstIndex(of: "=") {
            name = Substring(body[..<equals])
            attached = String(String.UnicodeScalarView(body[body.index(after: equals)...]))
        } else {
            name = Substring(body)
            attached = nil
        }
        guard let option = OptionTable.commandLineOption(long: String(name)) else {
            throw UsageError(message: "unrecognized option '\(terminalSafe(argument))'")
        }
        // String + String: String + Substring is the standard library's unspecialized
        // generic append, which looks Substring's conformances up at run time (0.1 M
        // instructions of each start).
        let spelled = "--" + String(name)
        switch option.argument {
        case .none:
            if attached != nil {
                throw UsageError(message: "option '\(spelled)' doesn't allow an argument")
            }
            return try apply(option, spelled: spelled, value: nil)
        case .attachedOnly:
            if let attached {
                guard !attached.isEmpty else {
                    throw UsageError(message: "option '\(spelled)' needs a non-empty \(option.valueName ?? "value")")
                }
                attachedPasswordFile = attached
            }
            return try apply(option, spelled: spelled, value: nil)
        case .required:
            let value: String
            if let attached { value = attached } else { value = try nextArgument(for: spelled) }
            return try apply(option, spelled: spelled, value: value)
        }
    }

    private mutating func parseShortCluster(_ argument: String) throws(UsageError) -> Invocation? {
        // Scalar by scalar, as getopt goes byte by byte: as Characters, an attached value
        // that starts with a combining mark (`-m` then U+0486) would fuse with the letter.
        var rest = argument.unicodeScalars.dropFirst()
        while let scalar = rest.first {
            rest = rest.dropFirst()
            let letter = Character(scalar)
            guard let option = OptionTable.commandLineOption(short: letter) else {
                throw UsageError(message: "invalid option -- '\(terminalSafe(String(letter)))'")
            }
            let spelled = "-\(letter)"
            var value: String?
            if option.argument == .required {
                value = rest.isEmpty ? try nextArgument(for: spelled) : String(String.UnicodeScalarView(rest))
                rest = rest[rest.endIndex...]
            }
            if let early = try apply(option, spelled: spelled, value: value) { return early }
        }
        return nil
    }

    private mutating func nextArgument(for spelled: String) throws(UsageError) -> String {
        guard index < arguments.count else {
            throw UsageError(message: "option '\(spelled)' needs a value")
        }
        index += 1
        return arguments[index - 1]
    }

    /// Carries out an action or records a setting; returns an invocation only for
    /// the actions that answer at once (`--help`, `--version`, `--completion`).
    private mutating func apply(
        _ option: OptionDefinition,
        spelled: String,
        value: String?
    ) throws(UsageError) -> Invocation? {
        switch option.effect {
        case .setting:
            try settings.apply(option, value: value, from: .commandLine(spelled: spelled))
        case .action(.help):
            return .help
        case .action(.version):
            return .version
        case .action(.completion):
            guard let value, let shell = CompletionShell(rawValue: value) else {
                throw UsageError(
                    message: "unknown shell '\(terminalSafe(value ?? ""))' for \(spelled)"
                        + " (expected \(choiceList(ValueKind.shell.choices)))")
            }
            return .completion(shell)
        case .action(let action):
            if !actions.contains(action) { actions.append(action) }
        }
        return nil
    }

    private func invocation() throws(UsageError) -> Invocation {
        // In the order of the cases, whatever the order given.
        let asked = actions.count > 1 ? Action.allCases.filter(actions.contains) : actions
        if asked.count > 1 {
            throw UsageError(message: "\(spelling(of: asked[0])) and \(spelling(of: asked[1])) cannot be used together")
        }
        let options = settings.options
        let action = asked.first
        if action == .lockAll || action == .list {
            if let extra = operands.first {
                throw UsageError(
                    message: "extra operand '\(terminalSafe(extra))': \(spelling(of: asked[0])) takes no COMMAND")
            }
            if options.json && action == .lockAll { throw UsageError(message: "--json goes with --list or --audit") }
            if options.user != nil && options.allUsers {
                throw UsageError(message: "--user and --all-users cannot be used together")
            }
            return action == .lockAll ? .lockAll(options) : .list(options)
        }
        if options.user != nil || options.allUsers {
            throw UsageError(message: "--user and --all-users go with --lock-all or --list")
        }
        if action == .attach {
            guard operands.count <= 1 else {
                throw UsageError(
                    message: "extra operand '\(terminalSafe(operands.dropFirst().first ?? ""))': --attach takes one PID"
                )
            }
            guard let operand = operands.first else { return .attach(pid: nil, options) }
            guard let pid = Int32(operand), pid > 0 else {
                throw UsageError(message: "invalid pid '\(terminalSafe(operand))' for --attach")
            }
            return .attach(pid: pid, options)
        }
        if options.take { throw UsageError(message: "--take goes with --attach") }
        if action == .audit {
            if let extra = operands.first {
                throw UsageError(message: "extra operand '\(terminalSafe(extra))': --audit takes no COMMAND")
            }
            return .audit(settings)
        }
        if options.json { throw UsageError(message: "--json goes with --list or --audit") }
        if action == .showConfig || action == .checkConfig {
            if let extra = operands.first {
                throw UsageError(
                    message: "extra operand '\(terminalSafe(extra))': \(spelling(of: asked[0])) takes no COMMAND")
            }
            return action == .showConfig ? .showConfig(settings) : .checkConfig
        }
        guard action == .setPassword else {
            var options = settings.options
            options.command = Array(operands)
            return .run(options)
        }
        var files = Array(operands)
        if let attachedPasswordFile { files.insert(attachedPasswordFile, at: 0) }
        guard files.count <= 1 else {
            let extra = files[1]
            throw UsageError(
                message: "extra operand '\(terminalSafe(extra))': --set-password takes one FILE")
        }
        if let file = files.first, file.isEmpty {
            throw UsageError(message: "option '--set-password' needs a non-empty FILE")
        }
        try settings.checkPasswordFileIsAllowed()
        return .setPassword(file: files.first, options: settings.options)
    }

    /// `--show-config`: how messages name an action.
    private func spelling(of action: Action) -> String {
        "--" + OptionTable.option(for: action).long
    }
}

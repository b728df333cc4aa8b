/// The options in effect, and where each value came from. Sources may be applied in
/// any order: `ValueSource.replaces` decides which value stays, not the order.
struct Settings: Equatable, Sendable {
    private(set) var options = Options()
    /// By long name; an option missing here has its default.
    private var sources: [String: ValueSource] = [:]
    /// The options as the system file alone sets them, and where, for the settings it
    /// fixes (`fixed`), whatever was applied after it.
    private var siteOptions = Options()
    private var siteSources: [String: ValueSource] = [:]

    func source(of option: OptionDefinition) -> ValueSource {
        sources[option.long] ?? .defaultValue
    }

    /// Sets `option` (a setting, not an action) from `value` given at `source`. The value
    /// is checked even when a source of higher precedence already set the option, so
    /// that a bad value is reported wherever it is; it takes effect only if it
    /// `replaces` the one in effect. `value` is nil only for a switch given alone.
    mutating func apply(
        _ option: OptionDefinition,
        value: String?,
        from source: ValueSource
    ) throws(UsageError) {
        guard option.scope.allows(source) else {
            let rule =
                option.scope == .commandLine
                ? "can only be given on the command line"
                : "can only be set in the system configuration file"
            throw UsageError(
                message: "\(source.messagePrefix)'\(source.name(of: option))' \(rule)",
                auditRecord: option.scope == .systemFile
                    ? "refused \(option.configKey) from \(source.label): \(rule)" : nil)
        }
        guard let setting = option.setting else { preconditionFailure("--\(option.long) is an action, not a setting") }
        var updated = options
        do {
            try setting.set(value, in: &updated, inFile: source.isFile)
        } catch {
            throw Self.usageError(error, value: value ?? "", option: option, source: source)
        }
        if source.replaces(self.source(of: option)) {
            options = updated
            sources[option.long] = source
        }
        if source.precedence == .systemFile {
            // The value passed its grammar just above.
            try? setting.set(value, in: &siteOptions, inFile: true)
            siteSources[option.long] = source
        }
    }

    /// Replaces what was asked for with what site policy allows, and keeps the record of
    /// it in `options.policyChanges`. `update` stores the allowed value.
    mutating func enforce(_ change: PolicyChange, _ update: (inout Options) -> Void) {
        update(&options)
        options.policyChanges.append(change)
    }

    /// Puts back the system file's value (or the default) of each setting it fixes
    /// (`fixed`) where another source asked for another, with the record of it.
    mutating func keepFixedSettings() {
        for option in OptionTable.fixable where options.fixed.contains(option.configKey) {
            guard let setting = option.setting else { continue }
            let asked = setting.text(in: options)
            let site = setting.text(in: siteOptions)
            let askedAt = source(of: option)
            guard askedAt.precedence > .systemFile, asked != site else { continue }
            // The text of a value that passed its grammar.
            try? setting.set(site, in: &options, inFile: true)
            sources[option.long] = siteSources[option.long] ?? .defaultValue
            options.policyChanges.append(
                PolicyChange(
                    key: option.configKey, requested: asked, requestedAt: askedAt, allowed: site,
                    limitKey: OptionTable.fixed.configKey,
                    limitAt: siteSources[OptionTable.fixed.long] ?? .defaultValue,
                    relation: .fixed))
        }
    }

    /// Applies the options' environment variables (`IDLEWRAP_TIMEOUT`); an empty one
    /// counts as unset. A variable whose option a source of higher precedence (the
    /// command line) already set is not even read, so that a bad value there does not
    /// get in the way of `-t`.
    mutating func applyEnvironment(_ lookup: (String) -> String?) throws(UsageError) {
        for option in OptionTable.all {
            guard let variable = option.environmentVariable, let value = lookup(variable), !value.isEmpty
            else { continue }
            let source = ValueSource.environment(variable: variable)
            guard source.replaces(self.source(of: option)) else { continue }
            try apply(option, value: value, from: source)
        }
    }

    /// `--password-file` implies `--auth file`. Another method given at the same
    /// precedence contradicts it; given at a higher precedence it wins, and at a lower
    /// one it gives way.
    mutating func applyPasswordFileRule() throws(UsageError) {
        guard options.passwordFile != nil else { return }
        let passwordFile = OptionTable.passwordFile
        let auth = OptionTable.auth
        let fileSource = source(of: passwordFile)
        let authSource = source(of: auth)
        if let method = options.auth, method != .file, authSource.precedence >= fileSource.precedence {
            guard authSource.precedence > fileSource.precedence else {
                throw UsageError(
                    message: "\(fileSource.messagePrefix)\(fileSource.name(of: passwordFile)) cannot be used with"
                        + " \(authSource.name(of: auth)) \(method.rawValue)")
            }
            return
        }
        options.auth = .file
    }

    private static func usageError(
        _ problem: ValueProblem,
        value: String,
        option: OptionDefinition,
        source: ValueSource
    ) -> UsageError {
        let name = source.name(of: option)
        switch problem {
        case .invalid(let what, let detail):
            let place = if case .environment = source { "in \(name)" } else { "for \(name)" }
            return UsageError(message: "\(source.messagePrefix)\(what) '\(terminalSafe(value))' \(place)\(detail)")
        case .empty:
            return UsageError(message: "\(source.messagePrefix)option '\(name)' needs a non-empty value")
        }
    }
}

extension ValueSource {
    /// How a message names `option` given here: as spelled on the command line, by its
    /// environment variable, or by its key in a file.
    func name(of option: OptionDefinition) -> String {
        switch self {
        case .commandLine(let spelled): spelled
        case .environment(let variable): variable
        case .file, .defaultValue: option.configKey
        }
    }

    /// `FILE:LINE: ` for a value from a file; messages about values from anywhere else
    /// need no location.
    var messagePrefix: String {
        if case .file(_, let path, let line) = self { "\(path):\(line): " } else { "" }
    }
}

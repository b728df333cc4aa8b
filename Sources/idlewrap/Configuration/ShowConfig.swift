/// `idlewrap --show-config`: every setting in effect, one `KEY = VALUE  # SOURCE` line each,
/// in the option table's order, policy limits included. A line without its comment is a
/// valid configuration file line; an empty VALUE means not set. Control characters (in
/// a message or a path) are shown in caret notation, as everywhere idlewrap prints them.
/// SOURCE is `default`, a configuration file's `PATH:LINE`, an environment variable, or the
/// option as spelled on the command line; when site policy changed the value, it is the
/// limit's source followed by `(KEY; was VALUE from SOURCE)`. A default that is decided
/// only when idlewrap runs (the authentication method) is shown as it will be decided,
/// with the reason: `auth = ask  # default: root has no usable login password ...`.
enum ShowConfig {
    static func text(of settings: Settings, defaults: [ShownDefault] = []) -> String {
        let options = settings.options
        return OptionTable.settings.map { option in
            var value = option.setting?.text(in: options) ?? ""
            var source = settings.source(of: option).label
            if let change = options.policyChanges.last(where: { $0.key == option.configKey }) {
                source =
                    "\(change.limitAt.label) (\(change.limitKey); was \(change.requested) from \(change.requestedAt.label))"
            } else if settings.source(of: option) == .defaultValue,
                let shown = defaults.first(where: { $0.option == option })
            {
                value = shown.value
                source = shown.reason.map { "default: \($0)" } ?? "default"
            }
            return terminalSafe("\(option.configKey) =\(value.isEmpty ? "" : " " + value)  # \(source)") + "\n"
        }.joined()
    }

    /// What the authentication defaults in `options` come to here, for `user`: the
    /// method `AuthSetup` will choose and why, and the password file it reads, if any.
    static func authenticationDefaults(
        of settings: Settings, user: UserName, environment lookup: (String) -> String?
    ) -> [ShownDefault] {
        let options = settings.options
        let method: AuthMethod?
        var shown: [ShownDefault] = []
        if let given = options.auth {
            method = given
            if settings.source(of: OptionTable.auth) == .defaultValue {
                shown.append(ShownDefault(OptionTable.auth, given.rawValue, because: "--password-file implies it"))
            }
        } else {
            do {
                let choice = try AuthSetup.choice(
                    method: nil, passwordFile: options.passwordFile, pamConfigDirectory: options.pamConfigDirectory,
                    user: user, environment: lookup, policy: options.authPolicy)
                method = choice.method
                shown.append(ShownDefault(OptionTable.auth, choice.method.rawValue, because: choice.reason))
            } catch {
                method = nil
                shown.append(
                    ShownDefault(OptionTable.auth, "", because: "\(error.description): idlewrap refuses to start"))
            }
        }
        if options.passwordFile == nil {
            let file = AuthSetup.defaultPasswordFile(environment: lookup)
            switch (method, file) {
            case (.file?, let file?):
                shown.append(ShownDefault(OptionTable.passwordFile, file, because: nil))
            case (_, nil):
                shown.append(
                    ShownDefault(OptionTable.passwordFile, "", because: "none, neither XDG_CONFIG_HOME nor HOME is set")
                )
            case (_, let file?) where options.auth == nil && options.authPolicy.allows(.file):
                shown.append(
                    ShownDefault(
                        OptionTable.passwordFile, "",
                        because: "not used; idlewrap --set-password makes \(file), and then it is"))
            case (let method, _):
                shown.append(
                    ShownDefault(
                        OptionTable.passwordFile, "",
                        because: "not used" + (method.map { " (auth \($0.rawValue))" } ?? "")))
            }
        }
        return shown
    }
}

/// A default that `--show-config` shows as it will be decided, rather than as not set.
struct ShownDefault {
    let option: OptionDefinition
    /// As a configuration file would spell it; empty when nothing will be used.
    let value: String
    /// Why; nil when there is nothing to explain.
    let reason: String?

    init(_ option: OptionDefinition, _ value: String, because reason: String?) {
        self.option = option
        self.value = value
        self.reason = reason
    }
}

extension ValueSource {
    /// Where a value came from, as `--show-config` and notices name it.
    var label: String {
        switch self {
        case .defaultValue: "default"
        case .file(_, let path, let line): "\(path):\(line)"
        case .environment(let variable): variable
        case .commandLine(let spelled): spelled
        }
    }
}

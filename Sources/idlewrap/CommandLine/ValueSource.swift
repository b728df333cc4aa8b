/// Where the value of a setting came from.
enum ValueSource: Equatable, Sendable {
    /// Nothing set it: the built-in default.
    case defaultValue
    /// Line `line` of a configuration file.
    case file(ConfigurationFile, path: String, line: Int)
    /// An environment variable such as `IDLEWRAP_TIMEOUT`.
    case environment(variable: String)
    /// The command line, with the option as it was spelled there (`-t`, `--timeout`).
    case commandLine(spelled: String)

    /// The order in which sources override each other, lowest first. This is the one
    /// place that states it.
    enum Precedence: Int, Comparable {
        case defaultValue, systemFile, userFile, environment, commandLine

        static func < (left: Precedence, right: Precedence) -> Bool {
            left.rawValue < right.rawValue
        }
    }

    var precedence: Precedence {
        switch self {
        case .defaultValue: .defaultValue
        case .file(.system, _, _): .systemFile
        case .file(.user, _, _): .userFile
        case .environment: .environment
        case .commandLine: .commandLine
        }
    }

    var isFile: Bool {
        if case .file = self { true } else { false }
    }

    /// Whether a value from here replaces one that came from `current`: a source of
    /// higher precedence wins, and within one source the last value wins.
    func replaces(_ current: ValueSource) -> Bool {
        precedence >= current.precedence
    }
}

/// Which of the two configuration files.
enum ConfigurationFile: Equatable, Sendable {
    /// `/etc/idlewrap/config`, set by the administrator.
    case system
    /// `$XDG_CONFIG_HOME/idlewrap/config`, set by the user.
    case user
}

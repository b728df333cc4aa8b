/// How an unlock is checked (SPEC: Authentication).
enum AuthMethod: String, Sendable, Equatable {
    case pam, ask, file
}

/// Everything the command line can set, with SPEC's defaults.
struct Options: Equatable, Sendable {
    var timeout: Nanoseconds = 300 * 1_000_000_000  // 0 = never lock on idle
    var auth: AuthMethod? = nil  // nil: choose the default at run time
    var passwordFile: String? = nil  // --password-file (implies auth = .file)
    var pamService = "idlewrap"
    var pamConfigDirectory: String? = nil
    var message: String? = nil
    var lockKey: UInt8? = nil  // a control byte: 0x00-0x1f or 0x7f
    var onLock: String? = nil
    var onUnlock: String? = nil
    var killAfter: Nanoseconds = 0  // 0 = never
    var holdLimit = 8 << 20  // bytes
    var wipeScrollback = false
    var login = false
    var nested = false
    var quiet = false
    var verbose = false
    var command: [String] = []  // empty: the user's shell
}

/// What the command line asks idlewrap to do.
enum Invocation: Equatable, Sendable {
    case run(Options)
    /// `file` is the operand, if any; it wins over `options.passwordFile`.
    case setPassword(file: String?, options: Options)
    case help
    case version
}

/// Bad usage: reported on stderr before anything runs, exit status 125.
struct UsageError: Error, Equatable, CustomStringConvertible {
    /// One line, without the `idlewrap: ` prefix.
    let message: String

    /// The two lines for stderr, without a final newline.
    var description: String {
        "idlewrap: \(message)\nTry 'idlewrap --help' for more information."
    }
}

extension Options {
    /// Parses the command line left to right, getopt style: short options cluster (`-ql`)
    /// and take values attached or separate (`-t5m`, `-t 5m`); long options take
    /// `--timeout=5m` or `--timeout 5m` and are never abbreviated. Options end at `--` or
    /// at the first operand (a lone `-` is an operand); the rest is the command.
    /// Repeating an option: the last one wins.
    ///
    /// `--help` and `--version` return as soon as they are read; otherwise the first
    /// error met is thrown, then the checks across options (--auth against
    /// --password-file, $IDLEWRAP_TIMEOUT, --set-password's operands).
    ///
    /// `arguments` excludes argv[0]. `environmentTimeout` is $IDLEWRAP_TIMEOUT (nil if
    /// unset; empty counts as unset); `-t` overrides it, and only then may it be invalid.
    static func parse(
        _ arguments: [String],
        environmentTimeout: String?
    ) throws(UsageError) -> Invocation {
        var parser = CommandLineParser(arguments: arguments)
        return try parser.parse(environmentTimeout: environmentTimeout)
    }
}

/// An option idlewrap knows, with its spellings.
enum OptionName: CaseIterable {
    case timeout, auth, passwordFile, setPassword, pamService, pamConfigDirectory
    case message, lockKey, onLock, onUnlock, killAfter, holdLimit
    case wipeScrollback, login, nested, quiet, verbose, help, version

    var long: String {
        switch self {
        case .timeout: "timeout"
        case .auth: "auth"
        case .passwordFile: "password-file"
        case .setPassword: "set-password"
        case .pamService: "pam-service"
        case .pamConfigDirectory: "pam-confdir"
        case .message: "message"
        case .lockKey: "lock-key"
        case .onLock: "on-lock"
        case .onUnlock: "on-unlock"
        case .killAfter: "kill-after"
        case .holdLimit: "hold-limit"
        case .wipeScrollback: "wipe-scrollback"
        case .login: "login"
        case .nested: "nested"
        case .quiet: "quiet"
        case .verbose: "verbose"
        case .help: "help"
        case .version: "version"
        }
    }

    var short: Character? {
        switch self {
        case .timeout: "t"
        case .auth: "a"
        case .message: "m"
        case .lockKey: "k"
        case .login: "l"
        case .quiet: "q"
        case .help: "h"
        case .version: "V"
        default: nil
        }
    }

    /// The value an option requires; nil for a flag. `--set-password` takes its FILE as an
    /// operand, or attached as `--set-password=FILE`, never from the next argument.
    var valueName: String? {
        switch self {
        case .timeout, .killAfter: "DURATION"
        case .auth: "METHOD"
        case .passwordFile: "FILE"
        case .pamService: "NAME"
        case .pamConfigDirectory: "DIR"
        case .message: "TEXT"
        case .lockKey: "KEY"
        case .onLock, .onUnlock: "CMD"
        case .holdLimit: "SIZE"
        case .setPassword, .wipeScrollback, .login, .nested, .quiet, .verbose, .help, .version: nil
        }
    }
}

/// One pass over the arguments; `parse` is its only entry point.
private struct CommandLineParser {
    let arguments: [String]
    var index = 0
    var options = Options()
    var timeoutGiven = false
    var explicitAuth: (method: AuthMethod, spelled: String)?
    var setPassword = false
    var attachedPasswordFile: String?  // --set-password=FILE
    var operands: ArraySlice<String> = []

    init(arguments: [String]) {
        self.arguments = arguments
    }

    mutating func parse(environmentTimeout: String?) throws(UsageError) -> Invocation {
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
        try resolveAuth()
        try resolveTimeout(environmentTimeout)
        return try invocation()
    }

    private mutating func parseLong(_ argument: String) throws(UsageError) -> Invocation? {
        let body = argument.dropFirst(2)
        let name: Substring
        let attached: String?
        if let equals = body.firstIndex(of: "=") {
            name = body[..<equals]
            attached = String(body[body.index(after: equals)...])
        } else {
            name = body
            attached = nil
        }
        guard let option = OptionName.allCases.first(where: { $0.long == name }) else {
            throw UsageError(message: "unrecognized option '\(displayed(argument))'")
        }
        let spelled = "--" + name
        if option.valueName == nil {
            if let attached {
                guard option == .setPassword else {
                    throw UsageError(message: "option '\(spelled)' doesn't allow an argument")
                }
                guard !attached.isEmpty else {
                    throw UsageError(message: "option '\(spelled)' needs a non-empty FILE")
                }
                attachedPasswordFile = attached
            }
            return try apply(option, spelled: spelled, value: "")
        }
        let value: String
        if let attached { value = attached } else { value = try nextArgument(for: spelled) }
        return try apply(option, spelled: spelled, value: value)
    }

    private mutating func parseShortCluster(_ argument: String) throws(UsageError) -> Invocation? {
        var rest = argument.dropFirst()
        while let letter = rest.first {
            rest = rest.dropFirst()
            guard let option = OptionName.allCases.first(where: { $0.short == letter }) else {
                throw UsageError(message: "invalid option -- '\(displayed(String(letter)))'")
            }
            let spelled = "-\(letter)"
            var value = ""
            if option.valueName != nil {
                value = rest.isEmpty ? try nextArgument(for: spelled) : String(rest)
                rest = ""
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

    /// Records one option; returns an invocation only for `--help` and `--version`.
    private mutating func apply(
        _ option: OptionName,
        spelled: String,
        value: String
    ) throws(UsageError) -> Invocation? {
        switch option {
        case .timeout:
            options.timeout = try duration(value, for: spelled)
            timeoutGiven = true
        case .killAfter:
            options.killAfter = try duration(value, for: spelled)
        case .auth:
            guard let method = AuthMethod(rawValue: value) else {
                throw UsageError(
                    message: "unknown method '\(displayed(value))' for \(spelled)"
                        + " (expected pam, ask or file)")
            }
            explicitAuth = (method, spelled)
        case .passwordFile:
            options.passwordFile = try nonEmpty(value, for: spelled)
        case .pamService:
            options.pamService = try nonEmpty(value, for: spelled)
        case .pamConfigDirectory:
            options.pamConfigDirectory = try nonEmpty(value, for: spelled)
        case .message:
            options.message = value
        case .lockKey:
            guard let key = parseLockKey(value) else {
                let reason =
                    isEscapeKey(value)
                    ? "ESC starts every escape sequence, so arrow keys would lock"
                    : "expected a control key such as ^] or ^\\"
                throw UsageError(
                    message: "invalid key '\(displayed(value))' for \(spelled): \(reason)")
            }
            options.lockKey = key
        case .onLock:
            options.onLock = value
        case .onUnlock:
            options.onUnlock = value
        case .holdLimit:
            guard let size = parseSize(value) else {
                throw UsageError(message: "invalid size '\(displayed(value))' for \(spelled)")
            }
            options.holdLimit = size
        case .wipeScrollback: options.wipeScrollback = true
        case .login: options.login = true
        case .nested: options.nested = true
        case .quiet: options.quiet = true
        case .verbose: options.verbose = true
        case .setPassword: setPassword = true
        case .help: return .help
        case .version: return .version
        }
        return nil
    }

    private func duration(_ value: String, for spelled: String) throws(UsageError) -> Nanoseconds {
        guard let duration = parseDuration(value) else {
            throw UsageError(message: "invalid duration '\(displayed(value))' for \(spelled)")
        }
        return duration
    }

    private func nonEmpty(_ value: String, for spelled: String) throws(UsageError) -> String {
        guard !value.isEmpty else {
            throw UsageError(message: "option '\(spelled)' needs a non-empty value")
        }
        return value
    }

    /// `--password-file` implies `--auth file` and contradicts any other method.
    private mutating func resolveAuth() throws(UsageError) {
        options.auth = explicitAuth?.method
        guard options.passwordFile != nil else { return }
        if let explicitAuth, explicitAuth.method != .file {
            throw UsageError(
                message: "--password-file cannot be used with"
                    + " \(explicitAuth.spelled) \(explicitAuth.method.rawValue)")
        }
        options.auth = .file
    }

    private mutating func resolveTimeout(_ environmentTimeout: String?) throws(UsageError) {
        guard !timeoutGiven, let text = environmentTimeout, !text.isEmpty else { return }
        guard let timeout = parseDuration(text) else {
            throw UsageError(message: "invalid duration '\(displayed(text))' in IDLEWRAP_TIMEOUT")
        }
        options.timeout = timeout
    }

    private func invocation() throws(UsageError) -> Invocation {
        guard setPassword else {
            var options = options
            options.command = Array(operands)
            return .run(options)
        }
        var files = Array(operands)
        if let attachedPasswordFile { files.insert(attachedPasswordFile, at: 0) }
        guard files.count <= 1 else {
            let extra = files[1]
            throw UsageError(
                message: "extra operand '\(displayed(extra))': --set-password takes one FILE")
        }
        if let file = files.first, file.isEmpty {
            throw UsageError(message: "option '--set-password' needs a non-empty FILE")
        }
        return .setPassword(file: files.first, options: options)
    }
}

/// `text` with C0 controls and DEL in caret notation and C1 controls as `\u{9B}`, so that
/// an error message cannot drive the terminal it is printed on.
private func displayed(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        if scalar.isASCII, let caret = caretNotation(of: UInt8(scalar.value)) {
            result += caret
        } else if (0x80...0x9F).contains(scalar.value) {
            result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}

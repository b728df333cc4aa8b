/// How an unlock is checked.
enum AuthMethod: String, CaseIterable, Sendable, Equatable {
    case pam, ask, file
}

/// When a session outlives its terminal (`--detach`).
enum DetachWhen: String, CaseIterable, Sendable, Equatable {
    /// Never: a terminal that goes away ends the session, as a hang-up does.
    case never
    /// When the terminal hangs up: the session locks and goes on without one.
    case hangup
}

/// What a login does about the user's detached sessions (`--attach-at-login`).
enum AttachAtLogin: String, CaseIterable, Sendable, Equatable {
    /// Show them and let one keystroke choose one of them or a new shell.
    case ask
    /// Take the one detached session back (after its password); with several, ask.
    case always
    /// Start a new shell, as if there were none.
    case never
}

/// Everything the options can set, with their defaults.
struct Options: Equatable, Sendable {
    var timeout: Duration = .seconds(300)  // zero = never lock on idle
    var warn: Duration = .zero  // zero = no warning
    var auth: AuthMethod? = nil  // nil: choose the default at run time
    var passwordFile: String? = nil  // --password-file (implies auth = .file)
    var pamService = "idlewrap"
    var pamConfigDirectory: String? = nil
    var message: String? = nil
    var lockKey: UInt8? = nil  // a control byte: 0x00-0x1f or 0x7f
    var onLock: String? = nil
    var onUnlock: String? = nil
    var killAfter: Duration = .zero  // zero = never
    var holdLimit = 8 << 20  // bytes
    var detach = DetachWhen.never
    var detachedKillAfter: Duration = .zero  // zero = never
    var attachAtLogin = AttachAtLogin.ask
    var wipeScrollback = false
    var bellOnExit = false
    var login = false
    var nested = false
    var quiet = false
    var verbose = false
    var json = false  // --list's and --audit's format
    var user: String? = nil  // --lock-all, --list: whose sessions (nil: the running user's)
    var allUsers = false
    var take = false  // --attach: also a session that still has a terminal
    var command: [String] = []  // empty: the user's shell

    // Site policy: only the system configuration file sets these (see `SitePolicy`).
    var maxTimeout: Duration = .zero  // zero = no limit
    var authPolicy = AuthPolicy()
    var maxKillAfter: Duration = .zero  // zero = no limit
    var maxHoldLimit = 1 << 30  // bytes: the hold is memory, and more would not be held anyway
    var minPasswordLength = 1  // characters
    var shell: String? = nil  // the real shell in login-shell mode; nil: /bin/sh
    var lockSSHCommands = true
    var fixed: [String] = []  // long names of settings whose system-file value no one overrides
    /// Values above that policy lowered or filled in, for notices and the log.
    var policyChanges: [PolicyChange] = []
}

/// What the command line asks idlewrap to do.
enum Invocation: Equatable, Sendable {
    case run(Options)
    /// `file` is the operand, if any; it wins over `options.passwordFile`.
    case setPassword(file: String?, options: Options)
    /// Lock every session of the user (`options.user`, `options.allUsers`).
    case lockAll(Options)
    /// List those sessions (`options.json`).
    case list(Options)
    /// Hand this terminal to a detached session of the user's (`pid`, or the only one).
    case attach(pid: Int32?, Options)
    /// `--audit`: check the host's logins; the settings say whether `--timeout` was given.
    case audit(Settings)
    case help
    case version
    /// `--show-config`: the settings in effect and where each came from.
    case showConfig(Settings)
    /// `--check-config`: check the configuration files.
    case checkConfig
    case completion(CompletionShell)
}

extension Invocation {
    /// An action that wraps no command and reads nothing of the configuration files that
    /// it could not do without: it goes on when a file has a mistake.
    var wrapsNothing: Bool {
        switch self {
        case .help, .version, .completion, .list, .lockAll, .checkConfig, .audit, .attach: true
        case .run, .setPassword, .showConfig: false
        }
    }
}

/// Bad usage: reported on stderr before anything runs, exit status 125.
struct UsageError: Error, Equatable, CustomStringConvertible {
    /// One line, without the `idlewrap: ` prefix.
    let message: String
    /// For a request that site policy refused: what the system log records.
    var auditRecord: String? = nil

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
    /// `--help`, `--version` and `--completion` return as soon as they are read; otherwise the first
    /// error met is thrown, then the checks across options (--auth against
    /// --password-file, the environment, --set-password's operands).
    ///
    /// `arguments` excludes argv[0]. `environment` looks up the options' variables
    /// (`IDLEWRAP_TIMEOUT`); the command line overrides them, and only then may they
    /// be invalid. `settings` holds what lower sources (configuration files) set.
    static func parse(
        _ arguments: [String],
        environment: (String) -> String?,
        startingFrom settings: Settings = Settings()
    ) throws(UsageError) -> Invocation {
        var parser = CommandLineParser(arguments: arguments, settings: settings)
        return try parser.parse(environment: environment)
    }
}

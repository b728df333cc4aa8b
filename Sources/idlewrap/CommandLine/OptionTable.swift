/// Every option idlewrap has, each declared once, in the order `--help` lists them.
/// Adding a setting is one entry here (its `Setting` names the field of `Options` and the
/// grammar of its value) and that field; adding an action is one entry and a case of
/// `Action`. Both need their lines in the manual page and the Configuration section of
/// docs/deployment.md (a test checks that they are there).
enum OptionTable {
    static let all: [OptionDefinition] = [
        timeout,
        OptionDefinition(
            long: "warn", valueName: "DURATION",
            help: [
                "Before an idle lock, count down this long in the",
                "window title and ring once (default: off).",
            ],
            setting: Setting(.duration, get: { $0.warn }, set: { $0.warn = $1 })),
        auth,
        passwordFile,
        OptionDefinition(
            long: "set-password", valueName: "FILE",
            help: [
                "Ask for a password, write its hash to FILE (default:",
                "the password file) and exit.",
            ],
            action: .setPassword),
        pamService,
        pamConfigDirectory,
        OptionDefinition(
            long: "message", short: "m", valueName: "TEXT",
            help: ["An extra line shown on the lock screen."],
            setting: Setting(.text, get: { $0.message }, set: { $0.message = $1 })),
        OptionDefinition(
            long: "lock-key", short: "k", valueName: "KEY",
            help: [
                "A control key that locks at once, in caret notation",
                "(^], ^\\, ^@; not ^[). Default: none.",
            ],
            setting: Setting(ValueGrammar.key.optional, get: { $0.lockKey }, set: { $0.lockKey = $1 })),
        OptionDefinition(
            long: "on-lock", valueName: "CMD",
            help: ["Run CMD with /bin/sh -c when the session locks."],
            setting: Setting(.text, get: { $0.onLock }, set: { $0.onLock = $1 })),
        OptionDefinition(
            long: "on-unlock", valueName: "CMD",
            help: ["Run CMD with /bin/sh -c when the session unlocks."],
            setting: Setting(.text, get: { $0.onUnlock }, set: { $0.onUnlock = $1 })),
        killAfter,
        holdLimit,
        detach,
        OptionDefinition(
            long: "detached-kill-after", valueName: "DURATION",
            help: ["End a detached session after this long (default:", "off)."],
            setting: Setting(.duration, get: { $0.detachedKillAfter }, set: { $0.detachedKillAfter = $1 })),
        attachAtLogin,
        OptionDefinition(
            long: "wipe-scrollback",
            help: ["Also erase the terminal's scrollback when locking."],
            setting: Setting(.switch, get: { $0.wipeScrollback }, set: { $0.wipeScrollback = $1 })),
        OptionDefinition(
            long: "bell-on-exit",
            help: ["Ring once when the command exits while locked."],
            setting: Setting(.switch, get: { $0.bellOnExit }, set: { $0.bellOnExit = $1 })),
        OptionDefinition(
            long: "login", short: "l",
            help: ["Run the default shell as a login shell."],
            setting: Setting(.switch, get: { $0.login }, set: { $0.login = $1 })),
        OptionDefinition(
            long: "nested",
            help: ["Wrap even when already inside idlewrap."],
            setting: Setting(.switch, get: { $0.nested }, set: { $0.nested = $1 })),
        OptionDefinition(
            long: "quiet", short: "q",
            help: ["Print no notices on stderr."],
            setting: Setting(.switch, get: { $0.quiet }, set: { $0.quiet = $1 })),
        OptionDefinition(
            long: "verbose",
            help: ["Also say whether idlewrap follows logind's Lock."],
            setting: Setting(.switch, get: { $0.verbose }, set: { $0.verbose = $1 })),
        OptionDefinition(
            long: "show-config",
            help: ["Show the settings in effect, where each came from,", "and exit."],
            action: .showConfig),
        OptionDefinition(
            long: "check-config",
            help: [
                "Check the configuration files, say every problem,",
                "and exit (status 0 if none, else 125).",
            ],
            action: .checkConfig),
        OptionDefinition(
            long: "lock-all",
            help: [
                "Lock every wrapped session of the user on this host",
                "and say how many, then exit.",
            ],
            action: .lockAll),
        OptionDefinition(
            long: "list",
            help: [
                "List the user's wrapped sessions on this host: pid,",
                "terminal, user, command, idle time, state, lock time.",
            ],
            action: .list),
        OptionDefinition(
            long: "attach",
            help: [
                "Take back a detached session of the user's (its pid",
                "as the operand when there are several), after the",
                "password; exit with its command's status.",
            ],
            action: .attach),
        OptionDefinition(
            long: "take",
            help: ["With --attach: also a session that has a terminal."],
            scope: .commandLine, setting: Setting(.switch, get: { $0.take }, set: { $0.take = $1 })),
        OptionDefinition(
            long: "audit",
            help: [
                "Check this host's logins (root: every account) for",
                "idle locking against AC-11 and AC-12 and report each",
                "gap; with -t, the longest lock time to accept.",
            ],
            action: .audit),
        OptionDefinition(
            long: "json",
            help: ["With --list or --audit: JSON instead of columns."],
            scope: .commandLine, setting: Setting(.switch, get: { $0.json }, set: { $0.json = $1 })),
        OptionDefinition(
            long: "user", valueName: "NAME",
            help: ["With --lock-all or --list, as root: NAME's sessions."],
            scope: .commandLine, setting: Setting(ValueGrammar.name.optional, get: { $0.user }, set: { $0.user = $1 })),
        OptionDefinition(
            long: "all-users",
            help: ["With --lock-all or --list, as root: every user's."],
            scope: .commandLine, setting: Setting(.switch, get: { $0.allUsers }, set: { $0.allUsers = $1 })),
        OptionDefinition(
            long: "help", short: "h",
            help: ["Show this help and exit."],
            action: .help),
        OptionDefinition(
            long: "completion", valueName: "SHELL",
            help: ["Print the completion script for SHELL (bash, zsh or", "fish) and exit."],
            action: .completion),
        OptionDefinition(
            long: "version", short: "V",
            help: ["Show the version and exit."],
            action: .version),
        // Site policy: keys of the system configuration file only (see `SitePolicy`).
        maxTimeout,
        authMethods,
        maxKillAfter,
        maxHoldLimit,
        OptionDefinition(
            long: "min-password-length", valueName: "N",
            help: ["The fewest characters of a password for --auth ask and --set-password (default: 1)."],
            scope: .systemFile,
            setting: Setting(.count, get: { $0.minPasswordLength }, set: { $0.minPasswordLength = $1 })),
        shell,
        lockSSHCommands,
        fixed,
    ]

    /// The settings `fixed` may name: whether sessions outlive their terminal and whether
    /// logins offer them back are the site's to decide where it wants, not only to limit.
    static let fixable = [detach, attachAtLogin]

    /// The keys of the configuration files: every setting but those only the command
    /// line gives (--list's --json), in the order `--show-config` lists them.

    static let settings = all.filter { $0.scope != .commandLine }

    /// The options the command line takes, in `--help`'s order: for help and completions.

    static let commandLine = all.filter { $0.scope.allows(.commandLine(spelled: "")) }

    /// The option spelled `--long` on the command line, if there is one. Found in `all`,
    /// not `commandLine`: a run needs no copy of the table in `--help`'s order.
    static func commandLineOption(long: String) -> OptionDefinition? {
        all.first { $0.long == long && $0.scope.allows(.commandLine(spelled: "")) }
    }

    /// The option spelled `-short` on the command line, if there is one.
    static func commandLineOption(short: Character) -> OptionDefinition? {
        all.first { $0.short == short && $0.scope.allows(.commandLine(spelled: "")) }
    }

    /// The option a configuration file's `KEY = VALUE` line names, whatever its scope:
    /// `Settings.apply` says so when a file may not set it. A setting comes first: the
    /// file's `attach` is --attach-at-login, not the action --attach.
    static func option(configKey key: String) -> OptionDefinition? {
        all.first { $0.setting != nil && $0.configKey == key } ?? all.first { $0.configKey == key }
    }

    /// The option that asks for `action`.
    static func option(for action: Action) -> OptionDefinition {
        guard let option = all.first(where: { if case .action(action) = $0.effect { true } else { false } }) else {
            preconditionFailure("no option asks for \(action)")
        }
        return option
    }
}

/// The options that code outside the table deals with by name: site policy, the rule
/// that --password-file implies --auth file, --audit's checks.
extension OptionTable {
    static let timeout = OptionDefinition(
        long: "timeout", short: "t", valueName: "DURATION",
        help: [
            "Idle time before locking (default: $IDLEWRAP_TIMEOUT,",
            "else 5m). DURATION: off; seconds (90, 1.5); or terms",
            "with units h, m, s, ms (1h30m, 250ms). 0, off: never.",
        ],
        setting: Setting(.duration, get: { $0.timeout }, set: { $0.timeout = $1 }),
        environmentVariable: "IDLEWRAP_TIMEOUT")

    static let auth = OptionDefinition(
        long: "auth", short: "a", valueName: "METHOD",
        help: [
            "How an unlock is checked: pam (login password), ask",
            "(a password asked at start) or file (default: file",
            "if the password file exists, else pam, else ask).",
        ],
        setting: Setting(ValueGrammar.method.optional, get: { $0.auth }, set: { $0.auth = $1 }))

    static let passwordFile = OptionDefinition(
        long: "password-file", valueName: "FILE",
        help: [
            "Password hash for --auth file; implies it (default:",
            "$XDG_CONFIG_HOME/idlewrap/password).",
        ],
        setting: Setting(ValueGrammar.path.optional, get: { $0.passwordFile }, set: { $0.passwordFile = $1 }))

    static let pamService = OptionDefinition(
        long: "pam-service", valueName: "NAME",
        help: ["PAM service name (default: idlewrap)."],
        setting: Setting(.name, get: { $0.pamService }, set: { $0.pamService = $1 }))

    static let pamConfigDirectory = OptionDefinition(
        long: "pam-confdir", valueName: "DIR",
        help: ["Directory of PAM configuration (default: /etc/pam.d)."],
        setting: Setting(
            ValueGrammar.directory.optional, get: { $0.pamConfigDirectory }, set: { $0.pamConfigDirectory = $1 }))

    static let killAfter = OptionDefinition(
        long: "kill-after", valueName: "DURATION",
        help: ["End the session once locked this long (default: off)."],
        setting: Setting(.duration, get: { $0.killAfter }, set: { $0.killAfter = $1 }))

    static let holdLimit = OptionDefinition(
        long: "hold-limit", valueName: "SIZE",
        help: [
            "Most output held while locked, in bytes with an",
            "optional K, M or G (default: 8M; at most 1G).",
        ],
        setting: Setting(.size, get: { $0.holdLimit }, set: { $0.holdLimit = $1 }))

    static let detach = OptionDefinition(
        long: "detach", valueName: "WHEN",
        help: [
            "When the session outlives its terminal: never",
            "(default), or hangup: locked, the command runs on",
            "until idlewrap --attach and the password.",
        ],
        setting: Setting(ValueGrammar.detachWhen, get: { $0.detach }, set: { $0.detach = $1 }))

    static let attachAtLogin = OptionDefinition(
        long: "attach-at-login", configKey: "attach", valueName: "WHEN",
        help: [
            "At a login with detached sessions: ask (default:",
            "one key picks one or a new shell), always (the",
            "only one, after its password) or never.",
        ],
        setting: Setting(ValueGrammar.attachAtLogin, get: { $0.attachAtLogin }, set: { $0.attachAtLogin = $1 }))

    static let fixed = OptionDefinition(
        long: "fixed", valueName: "KEYS",
        help: ["Settings whose system-file value no one may change: detach, attach (default: none)."],
        scope: .systemFile, setting: Setting(.settingNames, get: { $0.fixed }, set: { $0.fixed = $1 }))

    static let maxTimeout = OptionDefinition(
        long: "max-timeout", valueName: "DURATION",
        help: ["The longest timeout anyone may set; off and 0 count as longer (default: no limit)."],
        scope: .systemFile, setting: Setting(.duration, get: { $0.maxTimeout }, set: { $0.maxTimeout = $1 }))

    static let authMethods = OptionDefinition(
        long: "auth-methods", valueName: "METHODS",
        help: ["The only methods that may be used, such as pam, file (default: pam, ask, file)."],
        scope: .systemFile,
        setting: Setting(.methods, get: { $0.authPolicy.allowed }, set: { $0.authPolicy.allowed = $1 }))

    static let shell = OptionDefinition(
        long: "shell", valueName: "PATH",
        help: ["The real shell in login-shell mode (default: /bin/sh)."],
        scope: .systemFile, setting: Setting(ValueGrammar.path.optional, get: { $0.shell }, set: { $0.shell = $1 }))

    static let lockSSHCommands = OptionDefinition(
        long: "lock-ssh-commands",
        help: ["Whether a session started for an ssh command locks too (default: yes)."],
        scope: .systemFile, setting: Setting(.switch, get: { $0.lockSSHCommands }, set: { $0.lockSSHCommands = $1 }))

    static let maxKillAfter = OptionDefinition(
        long: "max-kill-after", valueName: "DURATION",
        help: ["The longest --kill-after anyone may set; it also applies by default (default: no limit)."],
        scope: .systemFile, setting: Setting(.duration, get: { $0.maxKillAfter }, set: { $0.maxKillAfter = $1 }))

    static let maxHoldLimit = OptionDefinition(
        long: "max-hold-limit", valueName: "SIZE",
        help: ["The largest --hold-limit anyone may set (default: 1G)."],
        scope: .systemFile, setting: Setting(.size, get: { $0.maxHoldLimit }, set: { $0.maxHoldLimit = $1 }))
}

import Testing

@testable import idlewrap

/// Parses as `idlewrap <arguments>` would with `IDLEWRAP_TIMEOUT` set to
/// `environmentTimeout` (nil: unset) and no other variable.
private func parse(_ arguments: [String], environmentTimeout: String? = nil) throws(UsageError) -> Invocation {
    try Options.parse(arguments, environment: { $0 == "IDLEWRAP_TIMEOUT" ? environmentTimeout : nil })
}

/// Parses as `idlewrap <arguments>` would, expecting a wrapped run.
private func run(_ arguments: [String], environmentTimeout: String? = nil) throws -> Options {
    let invocation = try parse(arguments, environmentTimeout: environmentTimeout)
    guard case .run(let options) = invocation else {
        Issue.record("expected .run, got \(invocation)")
        return Options()
    }
    return options
}

/// The message a bad command line is rejected with; nil if it is accepted.
private func usageError(_ arguments: [String], environmentTimeout: String? = nil) -> String? {
    do {
        _ = try parse(arguments, environmentTimeout: environmentTimeout)
        return nil
    } catch {
        return error.message
    }
}

private func options(_ change: (inout Options) -> Void) -> Options {
    var options = Options()
    change(&options)
    return options
}

@Suite("Command line options")
struct OptionsTests {
    @Test("no arguments: the defaults and the user's shell")
    func defaults() throws {
        let parsed = try run([])
        #expect(parsed == Options())
        #expect(parsed.timeout == .seconds(300))
        #expect(parsed.holdLimit == 8 * 1024 * 1024)
        #expect(parsed.pamService == "idlewrap")
        #expect(parsed.command.isEmpty)
    }

    @Test("every option, long form")
    func everyLongOption() throws {
        let parsed = try run([
            "--timeout", "10m", "--auth", "file", "--password-file", "/tmp/pw",
            "--pam-service", "login", "--pam-confdir", "/tmp/pam.d", "--message", "back soon",
            "--lock-key", "^]", "--on-lock", "echo locked", "--on-unlock", "echo unlocked",
            "--kill-after", "1h", "--hold-limit", "64K", "--wipe-scrollback", "--login",
            "--nested", "--quiet", "--verbose", "--warn", "30s", "--bell-on-exit", "vim", "notes.txt",
        ])
        #expect(
            parsed
                == options {
                    $0.timeout = .seconds(600)
                    $0.warn = .seconds(30)
                    $0.bellOnExit = true
                    $0.auth = .file
                    $0.passwordFile = "/tmp/pw"
                    $0.pamService = "login"
                    $0.pamConfigDirectory = "/tmp/pam.d"
                    $0.message = "back soon"
                    $0.lockKey = 0x1D
                    $0.onLock = "echo locked"
                    $0.onUnlock = "echo unlocked"
                    $0.killAfter = .seconds(3_600)
                    $0.holdLimit = 65_536
                    $0.wipeScrollback = true
                    $0.login = true
                    $0.nested = true
                    $0.quiet = true
                    $0.verbose = true
                    $0.command = ["vim", "notes.txt"]
                })
    }

    @Test("every option with a value, long form with =")
    func everyLongOptionWithEquals() throws {
        let parsed = try run([
            "--timeout=90", "--auth=pam", "--pam-service=sshd", "--pam-confdir=/etc/x",
            "--message=a=b", "--lock-key=^\\", "--on-lock=true", "--on-unlock=false",
            "--kill-after=off", "--hold-limit=1g",
        ])
        #expect(
            parsed
                == options {
                    $0.timeout = .seconds(90)
                    $0.auth = .pam
                    $0.pamService = "sshd"
                    $0.pamConfigDirectory = "/etc/x"
                    $0.message = "a=b"
                    $0.lockKey = 0x1C
                    $0.onLock = "true"
                    $0.onUnlock = "false"
                    $0.killAfter = .zero
                    $0.holdLimit = 1 << 30
                })
    }

    @Test("short options, separate and attached values")
    func shortOptions() throws {
        let separate = try run(["-t", "5s", "-a", "ask", "-m", "hi", "-k", "^@", "-l", "-q"])
        let attached = try run(["-t5s", "-aask", "-mhi", "-k^@", "-l", "-q"])
        let expected = options {
            $0.timeout = .seconds(5)
            $0.auth = .ask
            $0.message = "hi"
            $0.lockKey = 0
            $0.login = true
            $0.quiet = true
        }
        #expect(separate == expected)
        #expect(attached == expected)
    }

    @Test("an attached value that starts with a combining mark stays the value (fuzz: options)")
    func attachedValueWithACombiningMark() throws {
        #expect(try run(["-m\u{0486}\u{18}--\u{08}"]) == options { $0.message = "\u{0486}\u{18}--\u{08}" })
        #expect(try run(["--message=\u{0486}x"]) == options { $0.message = "\u{0486}x" })
        #expect(
            try run(["-qm\u{0301}x"])
                == options {
                    $0.quiet = true
                    $0.message = "\u{0301}x"
                })
    }

    @Test("short options cluster; a value option takes the rest of the cluster")
    func clusters() throws {
        #expect(
            try run(["-ql"])
                == options {
                    $0.quiet = true
                    $0.login = true
                })
        #expect(
            try run(["-qlt5m"])
                == options {
                    $0.quiet = true
                    $0.login = true
                    $0.timeout = .seconds(300)
                })
        #expect(
            try run(["-qt", "1h"])
                == options {
                    $0.quiet = true
                    $0.timeout = .seconds(3_600)
                })
        #expect(
            try run(["-qmlq"])
                == options {
                    $0.quiet = true
                    $0.message = "lq"
                })
    }

    @Test("options stop at the first operand; the rest is the command, untouched")
    func firstOperandStops() throws {
        #expect(try run(["ls", "-l"]).command == ["ls", "-l"])
        #expect(
            try run(["-q", "ls", "-q", "--help"])
                == options {
                    $0.quiet = true
                    $0.command = ["ls", "-q", "--help"]
                })
        #expect(try run(["-t", "1m", "bash", "--", "-c"]).command == ["bash", "--", "-c"])
        #expect(try run(["-"]).command == ["-"])
        #expect(
            try run(["-q", "-", "-q"])
                == options {
                    $0.quiet = true
                    $0.command = ["-", "-q"]
                })
        #expect(try run([""]).command == [""])
    }

    @Test("-- ends the options; a second -- belongs to the command")
    func doubleDash() throws {
        #expect(try run(["--"]) == Options())
        #expect(
            try run(["-q", "--", "-t", "5m"])
                == options {
                    $0.quiet = true
                    $0.command = ["-t", "5m"]
                })
        #expect(try run(["--", "--"]).command == ["--"])
        #expect(try run(["--", "--help"]).command == ["--help"])
    }

    @Test("a value is taken as is, even when it looks like an option")
    func valuesLookingLikeOptions() throws {
        #expect(try run(["-m", "-q"]) == options { $0.message = "-q" })
        #expect(try run(["--message", "--"]).message == "--")
        #expect(try run(["--on-lock", "--quiet"]).onLock == "--quiet")
        #expect(try run(["--message="]).message == nil)
        #expect(try run(["-m", ""]).message == nil)
    }

    @Test("the last of a repeated option wins")
    func lastWins() throws {
        #expect(try run(["-t", "1m", "-t", "2m"]).timeout == .seconds(120))
        #expect(try run(["-a", "pam", "-a", "ask"]).auth == .ask)
        #expect(try run(["-k", "^A", "--lock-key=^B"]).lockKey == 2)
        #expect(try run(["-qq"]).quiet)
    }

    @Test("durations: off and zero disable; units; bare seconds")
    func durations() throws {
        #expect(try run(["-t", "off"]).timeout == .zero)
        #expect(try run(["-t", "0"]).timeout == .zero)
        #expect(try run(["-t", "0s"]).timeout == .zero)
        #expect(try run(["-t", "1.5"]).timeout == .milliseconds(1500))
        #expect(try run(["-t", "250ms"]).timeout == .milliseconds(250))
        #expect(try run(["--kill-after", "1h30m"]).killAfter == .seconds(5_400))
        #expect(try run(["--kill-after", "0"]).killAfter == .zero)
    }

    @Test("--auth and --password-file")
    func authentication() throws {
        #expect(try run([]).auth == nil)
        #expect(try run(["-a", "pam"]).auth == .pam)
        #expect(try run(["--auth", "ask"]).auth == .ask)
        #expect(try run(["-afile"]).auth == .file)
        #expect(
            try run(["--password-file", "p"])
                == options {
                    $0.auth = .file
                    $0.passwordFile = "p"
                })
        #expect(try run(["-a", "file", "--password-file", "p"]).auth == .file)
        #expect(try run(["--password-file", "p", "-a", "file"]).auth == .file)
    }

    @Test("$IDLEWRAP_TIMEOUT: used unless -t is given; empty counts as unset")
    func environmentTimeout() throws {
        #expect(try run([], environmentTimeout: "10m").timeout == .seconds(600))
        #expect(try run([], environmentTimeout: "off").timeout == .zero)
        #expect(try run([], environmentTimeout: "").timeout == .seconds(300))
        #expect(try run(["-t", "1m"], environmentTimeout: "10m").timeout == .seconds(60))
        #expect(try run(["-t", "1m"], environmentTimeout: "garbage").timeout == .seconds(60))
        #expect(try run(["--timeout=off"], environmentTimeout: "-5").timeout == .zero)
        #expect(
            usageError([], environmentTimeout: "garbage")
                == "invalid duration 'garbage' in IDLEWRAP_TIMEOUT")
        #expect(
            usageError(["ls"], environmentTimeout: "5 m")
                == "invalid duration '5 m' in IDLEWRAP_TIMEOUT")
        #expect(usageError(["--kill-after", "1m"], environmentTimeout: "x") != nil)
    }

    @Test("--help and --version return as soon as they are read")
    func helpAndVersion() throws {
        #expect(try parse(["--help"]) == .help)
        #expect(try parse(["-h"]) == .help)
        #expect(try parse(["--version"]) == .version)
        #expect(try parse(["-V"]) == .version)
        #expect(try parse(["-qh"]) == .help)
        #expect(try parse(["-hV"]) == .help)
        #expect(try parse(["-Vh"]) == .version)
        #expect(try parse(["--help", "--bogus"]) == .help)
        #expect(try parse(["-h", "-t", "nonsense"]) == .help)
        #expect(try parse(["--help"], environmentTimeout: "garbage") == .help)
        #expect(
            try parse(["--password-file", "p", "-a", "pam", "-h"])
                == .help)
        #expect(usageError(["--bogus", "--help"]) == "unrecognized option '--bogus'")
        #expect(
            usageError(["-t", "nonsense", "--version"]) == "invalid duration 'nonsense' for -t")
        #expect(try run(["ls", "--help"]).command == ["ls", "--help"])
    }

    @Test("--completion SHELL returns as soon as it is read; another shell is bad usage")
    func completion() throws {
        #expect(try parse(["--completion", "bash"]) == .completion(.bash))
        #expect(try parse(["--completion=zsh"]) == .completion(.zsh))
        #expect(try parse(["-q", "--completion", "fish", "--bogus"]) == .completion(.fish))
        #expect(try parse(["--completion", "bash", "-h"]) == .completion(.bash))
        #expect(
            usageError(["--completion", "tcsh"])
                == "unknown shell 'tcsh' for --completion (expected bash, zsh or fish)")
        #expect(
            usageError(["--completion=Bash"])
                == "unknown shell 'Bash' for --completion (expected bash, zsh or fish)")
        #expect(usageError(["--completion"]) == "option '--completion' needs a value")
        #expect(try run(["ls", "--completion", "bash"]).command == ["ls", "--completion", "bash"])
    }

    @Test("--set-password: at most one operand, which wins over --password-file")
    func setPassword() throws {
        #expect(try parse(["--set-password"]) == .setPassword(file: nil, options: Options()))
        #expect(try parse(["--set-password", "f"]) == .setPassword(file: "f", options: Options()))
        #expect(try parse(["--set-password=f"]) == .setPassword(file: "f", options: Options()))
        #expect(
            try parse(["--set-password", "--", "-f"])
                == .setPassword(file: "-f", options: Options()))
        #expect(
            try parse(["-q", "--set-password"])
                == .setPassword(file: nil, options: options { $0.quiet = true }))
        let withFile = options {
            $0.passwordFile = "p"
            $0.auth = .file
        }
        #expect(
            try parse(["--password-file", "p", "--set-password"])
                == .setPassword(file: nil, options: withFile))
        #expect(
            try parse(["--set-password", "--password-file=p", "f"])
                == .setPassword(file: "f", options: withFile))
        #expect(
            usageError(["--set-password", "a", "b"])
                == "extra operand 'b': --set-password takes one FILE")
        #expect(
            usageError(["--set-password=a", "b"])
                == "extra operand 'b': --set-password takes one FILE")
        #expect(
            usageError(["--set-password", "a", "-q"])
                == "extra operand '-q': --set-password takes one FILE")
        #expect(
            usageError(["--set-password", ""]) == "option '--set-password' needs a non-empty FILE")
        #expect(usageError(["--set-password="]) == "option '--set-password' needs a non-empty FILE")
    }

    @Test(
        "each usage error, exactly",
        arguments: [
            (["--bogus"], "unrecognized option '--bogus'"),
            (["--bogus=1"], "unrecognized option '--bogus=1'"),
            (["--time=5m"], "unrecognized option '--time=5m'"),
            (["--tim", "5m"], "unrecognized option '--tim'"),
            (["---quiet"], "unrecognized option '---quiet'"),
            (["--Quiet"], "unrecognized option '--Quiet'"),
            (["--=x"], "unrecognized option '--=x'"),
            (["-x"], "invalid option -- 'x'"),
            (["-qx"], "invalid option -- 'x'"),
            (["-T", "5m"], "invalid option -- 'T'"),
            (["-v"], "invalid option -- 'v'"),
            (["-\u{1}"], "invalid option -- '^A'"),
            (["-é"], "invalid option -- 'é'"),
            (["--bo\ngus"], "unrecognized option '--bo^Jgus'"),
            (["-m", "x", "-\u{9B}"], "invalid option -- '\\u{9B}'"),
            (["--timeout"], "option '--timeout' needs a value"),
            (["-t"], "option '-t' needs a value"),
            (["-qt"], "option '-t' needs a value"),
            (["-a"], "option '-a' needs a value"),
            (["--auth"], "option '--auth' needs a value"),
            (["--password-file"], "option '--password-file' needs a value"),
            (["--pam-service"], "option '--pam-service' needs a value"),
            (["--pam-confdir"], "option '--pam-confdir' needs a value"),
            (["-m"], "option '-m' needs a value"),
            (["--message"], "option '--message' needs a value"),
            (["-k"], "option '-k' needs a value"),
            (["--lock-key"], "option '--lock-key' needs a value"),
            (["--on-lock"], "option '--on-lock' needs a value"),
            (["--on-unlock"], "option '--on-unlock' needs a value"),
            (["--kill-after"], "option '--kill-after' needs a value"),
            (["--hold-limit"], "option '--hold-limit' needs a value"),
            (["--quiet=yes"], "option '--quiet' doesn't allow an argument"),
            (["--help=1"], "option '--help' doesn't allow an argument"),
            (["--login="], "option '--login' doesn't allow an argument"),
            (["--nested=no"], "option '--nested' doesn't allow an argument"),
            (["--wipe-scrollback=1"], "option '--wipe-scrollback' doesn't allow an argument"),
            (["--timeout", "abc"], "invalid duration 'abc' for --timeout"),
            (["--timeout="], "invalid duration '' for --timeout"),
            (["-t", "-5m"], "invalid duration '-5m' for -t"),
            (["-tq"], "invalid duration 'q' for -t"),
            (["--kill-after=5 m"], "invalid duration '5 m' for --kill-after"),
            (["--hold-limit", "1.5M"], "invalid size '1.5M' for --hold-limit"),
            (["--hold-limit", "8MB"], "invalid size '8MB' for --hold-limit"),
            (["--hold-limit=-1"], "invalid size '-1' for --hold-limit"),
            (["-a", "kerberos"], "unknown method 'kerberos' for -a (expected pam, ask or file)"),
            (["--auth=PAM"], "unknown method 'PAM' for --auth (expected pam, ask or file)"),
            (["--auth="], "unknown method '' for --auth (expected pam, ask or file)"),
            (["-k", "x"], "invalid key 'x' for -k: expected a control key such as ^] or ^\\"),
            (
                ["--lock-key=^]]"],
                "invalid key '^]]' for --lock-key: expected a control key such as ^] or ^\\"
            ),
            (
                ["--lock-key", ""],
                "invalid key '' for --lock-key: expected a control key such as ^] or ^\\"
            ),
            (
                ["-k", "^["],
                "invalid key '^[' for -k: ESC starts every escape sequence, so arrow keys would lock"
            ),
            (
                ["--lock-key", "\u{1B}"],
                "invalid key '^[' for --lock-key: ESC starts every escape sequence, so arrow keys would lock"
            ),
            (
                ["-k", "\u{1B}[A"],
                "invalid key '^[[A' for -k: expected a control key such as ^] or ^\\"
            ),
            (
                ["-k", "\u{9B}"],
                "invalid key '\\u{9B}' for -k: expected a control key such as ^] or ^\\"
            ),
            (["--password-file", ""], "option '--password-file' needs a non-empty value"),
            (["--pam-service="], "option '--pam-service' needs a non-empty value"),
            (["--pam-confdir", ""], "option '--pam-confdir' needs a non-empty value"),
            (["--password-file", "p", "-a", "pam"], "--password-file cannot be used with -a pam"),
            (
                ["--auth=ask", "--password-file=p"],
                "--password-file cannot be used with --auth ask"
            ),
            (["-t", "x", "--bogus"], "invalid duration 'x' for -t"),
            (["--bogus", "-t", "x"], "unrecognized option '--bogus'"),
        ] as [([String], String)])
    func usageErrors(arguments: [String], message: String) {
        #expect(usageError(arguments) == message)
    }

    @Test("a usage error prints two lines: the message and the hint")
    func usageErrorDescription() {
        let error = UsageError(message: "unrecognized option '--bogus'")
        #expect(
            error.description
                == "idlewrap: unrecognized option '--bogus'\nTry 'idlewrap --help' for more information."
        )
    }

    @Test("the help text, exactly")
    func helpText() {
        #expect(
            Usage.help == #"""
                USAGE: idlewrap [OPTIONS] [--] [COMMAND [ARG...]]
                       idlewrap --set-password [FILE]
                       idlewrap --lock-all [--user NAME | --all-users]
                       idlewrap --list [--json] [--user NAME | --all-users]
                       idlewrap --audit [--json] [--timeout DURATION]

                Run COMMAND in a pseudo-terminal and lock the terminal after a time without
                input, until the password is typed. COMMAND defaults to the user's shell
                ($SHELL, else the passwd entry's). Options end at the first operand or at
                '--'. SIGUSR1 locks at once.

                OPTIONS:
                  -t, --timeout DURATION  Idle time before locking (default: $IDLEWRAP_TIMEOUT,
                                          else 5m). DURATION: off; seconds (90, 1.5); or terms
                                          with units h, m, s, ms (1h30m, 250ms). 0, off: never.
                  --warn DURATION         Before an idle lock, count down this long in the
                                          window title and ring once (default: off).
                  -a, --auth METHOD       How an unlock is checked: pam (login password), ask
                                          (a password asked at start) or file (default: file
                                          if the password file exists, else pam, else ask).
                  --password-file FILE    Password hash for --auth file; implies it (default:
                                          $XDG_CONFIG_HOME/idlewrap/password).
                  --set-password [FILE]   Ask for a password, write its hash to FILE (default:
                                          the password file) and exit.
                  --pam-service NAME      PAM service name (default: idlewrap).
                  --pam-confdir DIR       Directory of PAM configuration (default: /etc/pam.d).
                  -m, --message TEXT      An extra line shown on the lock screen.
                  -k, --lock-key KEY      A control key that locks at once, in caret notation
                                          (^], ^\, ^@; not ^[). Default: none.
                  --on-lock CMD           Run CMD with /bin/sh -c when the session locks.
                  --on-unlock CMD         Run CMD with /bin/sh -c when the session unlocks.
                  --kill-after DURATION   End the session once locked this long (default: off).
                  --hold-limit SIZE       Most output held while locked, in bytes with an
                                          optional K, M or G (default: 8M; at most 1G).
                  --detach WHEN           When the session outlives its terminal: never
                                          (default), or hangup: locked, the command runs on
                                          until idlewrap --attach and the password.
                  --detached-kill-after DURATION
                                          End a detached session after this long (default:
                                          off).
                  --attach-at-login WHEN  At a login with detached sessions: ask (default:
                                          one key picks one or a new shell), always (the
                                          only one, after its password) or never.
                  --wipe-scrollback       Also erase the terminal's scrollback when locking.
                  --bell-on-exit          Ring once when the command exits while locked.
                  -l, --login             Run the default shell as a login shell.
                  --nested                Wrap even when already inside idlewrap.
                  -q, --quiet             Print no notices on stderr.
                  --verbose               Also say whether idlewrap follows logind's Lock.
                  --show-config           Show the settings in effect, where each came from,
                                          and exit.
                  --check-config          Check the configuration files, say every problem,
                                          and exit (status 0 if none, else 125).
                  --lock-all              Lock every wrapped session of the user on this host
                                          and say how many, then exit.
                  --list                  List the user's wrapped sessions on this host: pid,
                                          terminal, user, command, idle time, state, lock time.
                  --attach                Take back a detached session of the user's (its pid
                                          as the operand when there are several), after the
                                          password; exit with its command's status.
                  --take                  With --attach: also a session that has a terminal.
                  --audit                 Check this host's logins (root: every account) for
                                          idle locking against AC-11 and AC-12 and report each
                                          gap; with -t, the longest lock time to accept.
                  --json                  With --list or --audit: JSON instead of columns.
                  --user NAME             With --lock-all or --list, as root: NAME's sessions.
                  --all-users             With --lock-all or --list, as root: every user's.
                  -h, --help              Show this help and exit.
                  --completion SHELL      Print the completion script for SHELL (bash, zsh or
                                          fish) and exit.
                  -V, --version           Show the version and exit.

                EXIT STATUS:
                  125     idlewrap failed, or bad usage
                  126     COMMAND was found but could not be run
                  127     COMMAND was not found
                  128+N   COMMAND was killed by signal N
                  else    COMMAND's exit status
                With --lock-all or --list: 0 when sessions were found, 1 when there were
                none, 125 when one could not be reached. With --audit: 0 with no gap, 1 with
                gaps, 125 when the audit cannot run.

                """#)
    }

    @Test("the help lists every option with its value name, in under 80 columns")
    func helpCoversEveryOption() {
        for option in OptionTable.commandLine {
            // A synopsis too long for the column has its help on the next line.
            #expect(
                Usage.help.contains("  \(option.synopsis)  ") || Usage.help.contains("  \(option.synopsis)\n"),
                "\(option.synopsis) missing from help")
        }
        for line in Usage.help.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(line.unicodeScalars.count < 80, "too wide: \(line)")
            #expect(line.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "not plain ASCII: \(line)")
        }
        #expect(Usage.help.hasSuffix("\n") && !Usage.help.hasSuffix("\n\n"), "help ends with one newline")
    }

    @Test("the version")
    func version() {
        #expect(Usage.version == "idlewrap 0.1.0")
    }
}

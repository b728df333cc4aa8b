import Glibc
import Testing

@testable import TestSupport
@testable import idlewrap

@Suite("--show-config")
struct ShowConfigTests {
    @Test("every setting, KEY = VALUE  # SOURCE, policy changes included")
    func text() throws {
        var files = Settings()
        try ConfigurationText.apply(
            "timeout = 10m\nmax-timeout = 15m\nmax-kill-after = 1h\nauth-methods = pam, file\nwarn = 30s\n",
            file: .system, path: "/etc/idlewrap/config", to: &files)
        try ConfigurationText.apply("message = hi # there\nlock-key = ^]\n", file: .user, path: "/u/config", to: &files)
        try ConfigurationText.apply("on-lock = printf '\u{1B}[2J'\n", file: .user, path: "/u/config2", to: &files)
        let invocation = try Options.parse(
            ["-t", "off", "--show-config", "-q"], environment: { _ in "1m" }, startingFrom: files)
        guard case .showConfig(let settings) = invocation else {
            Issue.record("not --show-config: \(invocation)")
            return
        }
        #expect(
            ShowConfig.text(of: settings) == """
                timeout = 15m  # /etc/idlewrap/config:2 (max-timeout; was off from -t)
                warn = 30s  # /etc/idlewrap/config:5
                auth =  # default
                password-file =  # default
                pam-service = idlewrap  # default
                pam-confdir =  # default
                message = hi # there  # /u/config:1
                lock-key = ^]  # /u/config:2
                on-lock = printf '^[[2J'  # /u/config2:1
                on-unlock =  # default
                kill-after = 1h  # /etc/idlewrap/config:3 (max-kill-after; was off from default)
                hold-limit = 8M  # default
                detach = never  # default
                detached-kill-after = off  # default
                attach = ask  # default
                wipe-scrollback = no  # default
                bell-on-exit = no  # default
                login = no  # default
                nested = no  # default
                quiet = yes  # -q
                verbose = no  # default
                max-timeout = 15m  # /etc/idlewrap/config:2
                auth-methods = pam, file  # /etc/idlewrap/config:4
                max-kill-after = 1h  # /etc/idlewrap/config:3
                max-hold-limit = 1G  # default
                min-password-length = 1  # default
                shell =  # default
                lock-ssh-commands = yes  # default
                fixed =  # default

                """)
    }

    @Test("a # after two blanks starts a comment; any other # is part of the value")
    func comments() throws {
        var files = Settings()
        try ConfigurationText.apply(
            "message = a # b  # where\non-lock = x#y\ntimeout = 5m\t\t# five\non-unlock = z \t# w\n", file: .user,
            path: "/u", to: &files)
        #expect(files.options.message == "a # b")
        #expect(files.options.onLock == "x#y")
        #expect(files.options.timeout == .seconds(300))
        #expect(files.options.onUnlock == "z")
    }

    @Test("the whole text reads back as the same settings")
    func roundTrip() throws {
        var files = Settings()
        try ConfigurationText.apply(
            "timeout = 1h2m3.25s\nhold-limit = 3072\nkill-after = 250ms\nauth = pam\nwipe-scrollback = yes\nshell = /bin/zsh\nmin-password-length = 9\n"
                + "detach = hangup\nattach = never\nfixed = detach, attach\n",
            file: .system, path: "/s", to: &files)
        let shown = ShowConfig.text(of: files)
        var again = Settings()
        // As it is: the comments are comments, `key =` is not set.
        try ConfigurationText.apply(shown, file: .system, path: "/again", to: &again)
        #expect(again.options == files.options)
        #expect(again.options.attachAtLogin == .never && again.options.fixed == ["detach", "attach"])
    }

    // Found by the configuration fuzz target: `message =` set an empty message, which
    // --show-config shows as not set, and an empty on-lock hook ran `sh -c ''`.
    @Test("an empty text value means not set, as --show-config shows it, and clears the system file's")
    func emptyTextIsNotSet() throws {
        var files = Settings()
        try ConfigurationText.apply(
            "message = from the system\non-lock = logger locked\n", file: .system, path: "/s", to: &files)
        try ConfigurationText.apply("message =\non-lock =  \non-unlock =\n", file: .user, path: "/u", to: &files)
        #expect(files.options.message == nil)
        #expect(files.options.onLock == nil)
        #expect(files.options.onUnlock == nil)
        let shown = ShowConfig.text(of: files)
        #expect(shown.contains("message =  # /u:1\n"))
        var again = Settings()
        for line in shown.split(separator: "\n") {
            let setting = String(line[..<(line.ranges(of: "  # ").last?.lowerBound ?? line.endIndex)])
            // Every empty line reads back: not set.
            try ConfigurationText.apply(setting, file: .system, path: "/again", to: &again)
        }
        #expect(again.options == files.options)
    }

    @Test("--show-config takes no command and no --set-password")
    func usage() {
        #expect(throws: UsageError(message: "extra operand 'vim': --show-config takes no COMMAND")) {
            try Options.parse(["--show-config", "vim"], environment: { _ in nil })
        }
        #expect(throws: UsageError(message: "--show-config and --set-password cannot be used together")) {
            try Options.parse(["--show-config", "--set-password"], environment: { _ in nil })
        }
    }

    @Test("durations and sizes print as their parsers read them back")
    func valueText() {
        let second: Int64 = 1_000_000_000
        let durations: [(Int64, String)] = [
            (0, "off"), (900 * second, "15m"), (5400 * second, "1h30m"), (250_000_000, "250ms"),
            (1_500_000_000, "1.5s"), (3600 * second + 1, "1h0.000000001s"), (90 * second, "1m30s"), (1, "0.000000001s"),
            (Int64.max, formatDuration(.nanoseconds(Int64.max))),
        ]
        for (nanoseconds, text) in durations {
            let duration = Duration.nanoseconds(nanoseconds)
            #expect(formatDuration(duration) == text)
            #expect(parseDuration(formatDuration(duration)) == duration, "\(text)")
        }
        for (size, text) in [
            (8 << 20, "8M"), (65_536, "64K"), (1000, "1000"), (0, "0"), (3 << 30, "3G"), (1025, "1025"),
        ] {
            #expect(formatSize(size) == text)
            #expect(parseSize(text) == size)
        }
    }

    @Test("a default decided at run time is shown as it will be, with the reason")
    func authenticationDefaults() throws {
        let directory = try TemporaryDirectory()
        let environment: (String) -> String? = { $0 == "XDG_CONFIG_HOME" ? directory.path : nil }
        let file = directory.path + "/idlewrap/password"
        func shown(_ arguments: [String]) throws -> [String] {
            guard
                case .showConfig(let settings) = try Options.parse(
                    arguments + ["--show-config"], environment: environment)
            else { return [] }
            let defaults = ShowConfig.authenticationDefaults(of: settings, user: .runningUser, environment: environment)
            return ShowConfig.text(of: settings, defaults: defaults).split(separator: "\n").map(String.init).filter {
                $0.hasPrefix("auth =") || $0.hasPrefix("password-file =")
            }
        }
        // Without the file, whatever PAM and the account allow here; never empty.
        let pamOrAsk = try shown([])
        #expect(pamOrAsk.count == 2)
        #expect(pamOrAsk[0].hasPrefix("auth = pam  # default: ") || pamOrAsk[0].hasPrefix("auth = ask  # default: "))
        #expect(
            pamOrAsk[1] == "password-file =  # default: not used; idlewrap --set-password makes \(file), and then it is"
        )
        #expect(try shown(["-a", "ask"]) == ["auth = ask  # -a", "password-file =  # default: not used (auth ask)"])
        #expect(try shown(["-a", "file"]) == ["auth = file  # -a", "password-file = \(file)  # default"])
        #expect(
            try shown(["--password-file", "/p"]) == [
                "auth = file  # default: --password-file implies it", "password-file = /p  # --password-file",
            ])

        #expect(mkdir(directory.file("idlewrap"), 0o700) == 0)
        try directory.write("idlewrap/password", "$y$j9T$aaaa$bbbb\n", mode: 0o600)
        #expect(try shown([]) == ["auth = file  # default: \(file) exists", "password-file = \(file)  # default"])
        #expect(try shown(["-a", "pam"]) == ["auth = pam  # -a", "password-file =  # default: not used (auth pam)"])
    }
}

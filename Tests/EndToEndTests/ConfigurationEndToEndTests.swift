import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// The configuration files and site policy, through the real binary. The system file
    /// is a root-owned file in a temporary directory, named by IDLEWRAP_SYSTEM_CONFIG
    /// (honoured because the tests run as root); the user's file is under a temporary
    /// XDG_CONFIG_HOME.
    @Suite(.enabled(if: getuid() == 0, "IDLEWRAP_SYSTEM_CONFIG is honoured only for root"))
    struct Configuration {
        let directory: TemporaryDirectory
        let password: String

        init() throws {
            directory = try TemporaryDirectory()
            password = try makePasswordFile(in: directory)
            mkdir(directory.file("home"), 0o700)
            mkdir(directory.file("home/idlewrap"), 0o700)
        }

        /// The system file, holding `text`.
        @discardableResult
        func systemFile(_ text: String, mode: mode_t = 0o644) throws -> String {
            try directory.write("system-config", text, mode: mode)
        }

        /// The user's file, holding `text`.
        @discardableResult
        func userFile(_ text: String, mode: mode_t = 0o600) throws -> String {
            try directory.write("home/idlewrap/config", text, mode: mode)
        }

        /// idlewrap with both files (present or not) and `environment`.
        /// With `logger`, its /dev/log is the one idlewrap sees.
        func idlewrap(_ arguments: [String], environment: [String: String] = [:], logger: FakeSyslog? = nil) throws
            -> TerminalDriver
        {
            let command = [TerminalDriver.idlewrap] + arguments
            return try TerminalDriver(
                logger?.listening(command) ?? command,
                environment: environment.merging([
                    "IDLEWRAP_SYSTEM_CONFIG": directory.file("system-config"),
                    "XDG_CONFIG_HOME": directory.file("home"),
                ]) { mine, _ in mine })
        }

        /// The `--show-config` line for `key`, once idlewrap has exited with 0.
        func shownLine(_ key: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws -> String?
        {
            let terminal = try idlewrap(arguments + ["--show-config"], environment: environment)
            guard terminal.waitForExit() == .exited(0) else { return nil }
            return terminal.text.split(separator: "\r\n").first { $0.hasPrefix(key + " =") }.map(String.init)
        }

        @Test func aSystemFileTimeoutLocksTheSession() throws {
            try systemFile("# site\ntimeout = 1\npassword-file = \(password)\n")
            let terminal = try idlewrap(["--", "sh", "-c", "echo started; exec cat"])
            #expect(terminal.expect("started"))
            #expect(terminal.expect("Password for", timeout: 20))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
        }

        @Test func aUserFileSetsTheLockScreenAndTheTimeout() throws {
            try userFile("timeout = 1\nmessage = set in the user file\npassword-file = \(password)\n")
            let terminal = try idlewrap(["--", "cat"])
            #expect(terminal.expect("Password for", timeout: 20))
            #expect(terminal.hasShown("set in the user file"))
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
        }

        @Test func precedenceIsSystemFileUserFileEnvironmentCommandLine() throws {
            try systemFile("timeout = 1m\nmessage = system\n")
            #expect(try shownLine("timeout") == "timeout = 1m  # \(directory.file("system-config")):1")
            try userFile("timeout = 2m\n")
            #expect(try shownLine("timeout") == "timeout = 2m  # \(directory.file("home/idlewrap/config")):1")
            #expect(try shownLine("message") == "message = system  # \(directory.file("system-config")):2")
            #expect(
                try shownLine("timeout", environment: ["IDLEWRAP_TIMEOUT": "3m"]) == "timeout = 3m  # IDLEWRAP_TIMEOUT")
            #expect(
                try shownLine("timeout", ["-t", "4m"], environment: ["IDLEWRAP_TIMEOUT": "3m"]) == "timeout = 4m  # -t")
            #expect(try shownLine("timeout", ["--timeout=5m"]) == "timeout = 5m  # --timeout")
        }

        @Test func showConfigListsEverySettingAndItsSource() throws {
            try systemFile("max-timeout = 15m\nauth-methods = pam, file\nmax-kill-after = 1h\n")
            let terminal = try idlewrap(["-t", "off", "--show-config"])
            #expect(terminal.waitForExit() == .exited(0))
            let lines = terminal.text.split(separator: "\r\n").map(String.init)
            #expect(lines.map { String($0.prefix { $0 != " " }) } == OptionTable.settings.map(\.configKey))
            let system = directory.file("system-config")
            #expect(lines.contains("timeout = 15m  # \(system):1 (max-timeout; was off from -t)"))
            #expect(lines.contains("kill-after = 1h  # \(system):3 (max-kill-after; was off from default)"))
            #expect(lines.contains("auth-methods = pam, file  # \(system):2"))
            #expect(lines.contains("hold-limit = 8M  # default"))
            #expect(lines.contains("lock-ssh-commands = yes  # default"))
            #expect(!terminal.hasShown("longer than"), "--show-config is not a session: no notice")
        }

        @Test func maxTimeoutLowersTimeoutOffWithANotice() throws {
            try systemFile("max-timeout = 1\npassword-file = \(password)\n")
            let terminal = try idlewrap(["-t", "off", "--", "sh", "-c", "echo started; exec cat"])
            #expect(
                terminal.expect(
                    "idlewrap: timeout off (-t) is longer than max-timeout (\(directory.file("system-config")):1); using 1s"
                ))
            #expect(terminal.expect("started"))
            #expect(terminal.expect("Password for", timeout: 20))
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))

            let quiet = try idlewrap(["-q", "-t", "off", "--", "sh", "-c", "echo started; exec cat"])
            #expect(quiet.expect("started"))
            #expect(quiet.expect("Password for", timeout: 20))
            #expect(!quiet.hasShown("longer than"))
            quiet.signal(SIGTERM)
            #expect(quiet.waitForExit() == .exited(143))
        }

        @Test func authMethodsRefusesAskBeforeAnythingRuns() throws {
            try systemFile("auth-methods = pam, file\n")
            let terminal = try idlewrap(["-a", "ask", "--", "sh", "-c", "echo started"])
            #expect(terminal.waitForExit() == .exited(125))
            #expect(
                terminal.hasShown(
                    "idlewrap: -a ask is not allowed by site policy: only pam, file may be used (auth-methods, \(directory.file("system-config")):1)"
                ))
            #expect(!terminal.hasShown("Lock password"))
            #expect(!terminal.hasShown("started"))
        }

        @Test func authMethodsLeavesThePAMServiceToTheSystemFile() throws {
            // Any service a user names could be a stack that asks nothing
            // (login on some systems, a service of pam_permit): as for
            // --pam-confdir, only the system file chooses it.
            try systemFile("auth-methods = pam\n")
            let refused = try idlewrap(["--pam-service", "other", "--", "sh", "-c", "echo started"])
            #expect(refused.waitForExit() == .exited(125))
            #expect(
                refused.hasShown(
                    "idlewrap: --pam-service is not allowed by site policy, which sets the methods that may unlock (auth-methods, \(directory.file("system-config")):1)"
                ), "\(refused.text)")
            #expect(!refused.hasShown("started"))
            try userFile("pam-service = other\n")
            let fromUserFile = try idlewrap(["--", "sh", "-c", "echo started"])
            #expect(fromUserFile.waitForExit() == .exited(125))
            #expect(
                fromUserFile.hasShown(
                    "idlewrap: \(directory.file("home/idlewrap/config")):1: pam-service is not allowed by site policy"),
                "\(fromUserFile.text)")
            #expect(!fromUserFile.hasShown("started"))
            // The system file's own choice is the site's.
            try userFile("")
            try systemFile("auth-methods = pam, file\npam-service = other\n")
            let shown = try shownLine("pam-service")
            #expect(shown == "pam-service = other  # \(directory.file("system-config")):2")
        }

        @Test(.enabled(if: FakeSyslog.isAvailable, "no mount namespaces here"))
        func aRightPasswordShorterThanThePolicyUnlocksAndIsLogged() throws {
            // The password file was written by hand (or before the policy):
            // min-password-length never saw "open sesame", 11 characters.
            let logger = try FakeSyslog()
            try systemFile("min-password-length = 12\n")
            let terminal = try idlewrap(["--password-file", password, "-t", "0", "--", "cat"], logger: logger)
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"), "the right password must still unlock")
            var records: [String] = []
            #expect(
                terminal.waitUntil {
                    records += logger.messages()
                    // authpriv is facility 10: <85> is notice.
                    return records.contains {
                        $0.hasPrefix("<85>")
                            && $0.contains(
                                "site policy: unlocked with a password shorter than min-password-length (12): user=")
                    }
                }, "\(records)")
            #expect(!records.joined().contains("open sesame"))
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))
        }

        @Test func minPasswordLengthRefusesAShortSetPassword() throws {
            try systemFile("min-password-length = 12\n")
            let path = directory.file("new-password")
            let short = try TerminalDriver(
                [
                    "sh", "-c", "printf '%s\\n' \"$1\" | \"$0\" --set-password \"$2\"", TerminalDriver.idlewrap,
                    "elevenchars", path,
                ],
                environment: ["IDLEWRAP_SYSTEM_CONFIG": directory.file("system-config")])
            #expect(short.waitForExit() == .exited(125))
            #expect(short.hasShown("shorter than 12 characters"))
            #expect(access(path, F_OK) != 0)

            let interactive = try idlewrap(["--set-password", path])
            #expect(interactive.expect("New password:"))
            try interactive.type("short\r")
            #expect(interactive.expect("Repeat password:"))
            try interactive.type("short\r")
            #expect(interactive.waitForExit() == .exited(125))
            #expect(access(path, F_OK) != 0)

            let long = try TerminalDriver(
                [
                    "sh", "-c", "printf '%s\\n' \"$1\" | \"$0\" --set-password \"$2\"", TerminalDriver.idlewrap,
                    "twelve chars", path,
                ],
                environment: ["IDLEWRAP_SYSTEM_CONFIG": directory.file("system-config")])
            #expect(long.waitForExit() == .exited(0))
            #expect(access(path, F_OK) == 0)
        }

        @Test func minPasswordLengthAsksAgainForAShortLockPassword() throws {
            try systemFile("min-password-length = 6\n")
            let terminal = try idlewrap(["-a", "ask", "-t", "0", "--", "sh", "-c", "echo started; exec cat"])
            #expect(terminal.expect("Lock password:"))
            try terminal.type("abc\r")
            #expect(terminal.expect("shorter than 6 characters; try again"))
            #expect(terminal.expect("Lock password:"))
            try terminal.type("abcdef\r")
            #expect(terminal.expect("Repeat password:"))
            try terminal.type("abcdef\r")
            #expect(terminal.expect("started"))
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
        }

        @Test func setPasswordIsRefusedWhereTheFileMethodIsNot() throws {
            try systemFile("auth-methods = pam\n")
            let path = directory.file("new-password")
            let terminal = try idlewrap(["--set-password", path])
            #expect(terminal.waitForExit() == .exited(125))
            #expect(terminal.hasShown("the file method is not allowed by site policy"))
            #expect(access(path, F_OK) != 0)
        }

        @Test func maxKillAfterEndsALockedSessionByDefault() throws {
            try systemFile("max-kill-after = 1\n")
            let terminal = try idlewrap([
                "--password-file", password, "-t", "0", "--", "sh", "-c", "echo started; exec cat",
            ])
            #expect(terminal.expect("started"))
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            #expect(terminal.waitForExit(timeout: 30) == .exited(129))
        }

        @Test func anUnsafeSystemFileIsRefusedBeforeAnythingRuns() throws {
            let system = try systemFile("timeout = 1m\n", mode: 0o664)
            let terminal = try idlewrap(["--", "sh", "-c", "echo started"])
            #expect(terminal.waitForExit() == .exited(125))
            #expect(
                terminal.hasShown("idlewrap: \(system): unsafe configuration file: it is writable by group or others"))
            #expect(!terminal.hasShown("started"))
            #expect(!terminal.hasShown("--help"), "a file's mistake gets no hint about the command line")
        }

        @Test func configurationErrorsNameTheFileAndLine() throws {
            let user = try userFile("timeout = 5m\n\nmax-timeout = 1h\n")
            let terminal = try idlewrap(["--", "sh", "-c", "echo started"])
            #expect(terminal.waitForExit() == .exited(125))
            #expect(
                terminal.hasShown("idlewrap: \(user):3: 'max-timeout' can only be set in the system configuration file")
            )
            #expect(!terminal.hasShown("started"))
        }

        /// A mistake in the user's file stops a run, but not what wraps nothing: the README's
        /// desktop shortcut (--lock-all) and .bash_logout recipe must still lock, and a file
        /// written for a newer version must not break --help on an older host.
        @Test func actionsThatWrapNothingGoOnWithAWarningWhenTheUserFileHasAMistake() throws {
            let user = try userFile("timeout = 5m\nfuture-key = yes\n")
            let warning =
                "idlewrap: \(user):2: unknown key 'future-key' (ignored: the configuration files are not read)"
            // --list and --lock-all find no session here: status 1, as pkill's.
            for (arguments, shows, status) in [
                (["--help"], "USAGE:", 0), (["--version"], "idlewrap ", 0), (["--completion", "bash"], "complete ", 0),
                (["--list"], "", SessionCommands.noSessions),
                (["--lock-all"], "locked 0 sessions", SessionCommands.noSessions),
            ] {
                let terminal = try idlewrap(arguments)
                #expect(terminal.waitForExit() == .exited(status), "\(arguments): \(terminal.text)")
                #expect(terminal.hasShown(warning), "\(arguments): \(terminal.text)")
                #expect(shows.isEmpty || terminal.hasShown(shows), "\(arguments): \(terminal.text)")
            }
            let run = try idlewrap(["--", "sh", "-c", "echo started"])
            #expect(run.waitForExit() == .exited(125))
            #expect(run.hasShown("idlewrap: \(user):2: unknown key 'future-key'\r\n"))
            #expect(!run.hasShown("started"))
        }

        /// --check-config says every problem of both files, not only the first, and exits
        /// 125; with none, 0.
        @Test func checkConfigSaysEveryProblem() throws {
            let system = try systemFile("timeout = 1m\nmax-timeout = forever\n")
            let user = try userFile("timeout = 5m\nfuture-key = yes\nwarn\nmax-timeout = 1h\n")
            let bad = try idlewrap(["--check-config"])
            #expect(bad.waitForExit() == .exited(125))
            for problem in [
                "\(system):2: invalid duration 'forever' for max-timeout",
                "\(user):2: unknown key 'future-key'",
                "\(user):3: expected KEY = VALUE, not 'warn'",
                "\(user):4: 'max-timeout' can only be set in the system configuration file",
            ] {
                #expect(bad.hasShown("idlewrap: " + problem), "\(bad.text)")
            }
            #expect(bad.hasShown("\(system): 1 problem\r\n\(user): 3 problems\r\n4 in all\r\n"), "\(bad.text)")
            try systemFile("timeout = 1m\n")
            try userFile("timeout = 30s\n")
            let good = try idlewrap(["--check-config"])
            #expect(good.waitForExit() == .exited(0))
            #expect(good.hasShown("\(system): fine\r\n\(user): fine\r\nno problems\r\n"), "\(good.text)")
        }

        @Test func aUserFileOwnedByAnotherUserIsRefused() throws {
            let name = "iwcfg\(UInt32.random(in: 100_000...999_999))"
            try #require(
                TerminalDriver(["useradd", "-M", "-s", "/bin/sh", name]).waitForExit() == .exited(0), "useradd failed")
            defer { _ = try? TerminalDriver(["userdel", name]).waitForExit() }
            let entry = try #require(getpwnam(name), "no passwd entry for \(name)")
            let user = try userFile("timeout = 1m\n")
            try #require(chown(user, entry.pointee.pw_uid, entry.pointee.pw_gid) == 0)
            let terminal = try idlewrap(["--", "sh", "-c", "echo started"])
            #expect(terminal.waitForExit() == .exited(125))
            #expect(
                terminal.hasShown(
                    "idlewrap: \(user): unsafe configuration file: it is owned by uid \(entry.pointee.pw_uid), not by you (uid 0) or root"
                ))
            #expect(!terminal.hasShown("started"))
        }

        @Test func anOrdinaryUserCannotNameAnotherSystemFile() throws {
            try systemFile("timeout = 1m\n")
            // A copy nobody can run: the build tree need not be open to other users.
            chmod(directory.path, 0o755)
            let copy = directory.file("idlewrap")
            try #require(TerminalDriver(["cp", TerminalDriver.idlewrap, copy]).waitForExit() == .exited(0))
            let terminal = try TerminalDriver(
                ["runuser", "-u", "nobody", "--", copy, "--show-config"],
                environment: ["IDLEWRAP_SYSTEM_CONFIG": directory.file("system-config"), "HOME": "/nonexistent"])
            #expect(terminal.waitForExit() == .exited(0))
            #expect(terminal.hasShown("timeout = 5m  # default"))
            #expect(!terminal.hasShown("system-config"))
        }

        @Test(.enabled(if: FakeSyslog.isAvailable, "no mount namespaces here"))
        func loweredAndRefusedSettingsAreLogged() throws {
            let logger = try FakeSyslog()
            try systemFile("max-timeout = 1m\nauth-methods = pam, file\n")
            try userFile("max-kill-after = 1h\n")
            let lowered = try idlewrap(["--password-file", password, "-t", "off", "--", "true"], logger: logger)
            #expect(lowered.waitForExit() == .exited(125))  // the user file's policy key
            try userFile("")
            let ran = try idlewrap(["--password-file", password, "-t", "off", "--", "true"], logger: logger)
            #expect(ran.waitForExit() == .exited(0))
            let refused = try idlewrap(["-a", "ask", "--", "true"], logger: logger)
            #expect(refused.waitForExit() == .exited(125))
            let messages = logger.messages()
            // authpriv is facility 10: <85> is notice.
            #expect(
                messages.contains {
                    $0.hasPrefix("<85>")
                        && $0.contains(
                            "site policy: refused max-kill-after from \(directory.file("home/idlewrap/config")):1")
                })
            #expect(
                messages.contains {
                    $0.hasPrefix("<85>")
                        && $0.contains("site policy: lowered timeout off (-t) to 1m (max-timeout): user=")
                })
            #expect(
                messages.contains {
                    $0.hasPrefix("<85>") && $0.contains("site policy: refused --auth ask: not in auth-methods")
                })
        }
    }
}

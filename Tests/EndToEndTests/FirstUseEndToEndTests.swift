import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// The rough edges a first use meets (issue 31's smaller findings), through the real
    /// binary: what it refuses, and what it says.
    @Suite struct FirstUse {
        let directory: TemporaryDirectory
        let password: String

        init() throws {
            directory = try TemporaryDirectory()
            password = try makePasswordFile(in: directory)
        }

        /// Enter sends CR (and LF as ^J): as the lock key every command line would lock.
        @Test(arguments: ["^M", "^J", "^m"]) func enterIsRefusedAsTheLockKey(key: String) throws {
            let terminal = try TerminalDriver(idlewrap: ["-k", key, "--", "sh", "-c", "echo started"])
            #expect(terminal.waitForExit() == .exited(125))
            #expect(
                terminal.hasShown(
                    "idlewrap: invalid key '\(key)' for -k: Enter sends it, so every command line would lock"),
                "\(terminal.text)")
            #expect(!terminal.hasShown("started"))
        }

        @Test func aDurationPastTheLongestSaysWhatTheLongestIs() throws {
            let terminal = try TerminalDriver(idlewrap: ["-t", "99999999h", "--", "sh", "-c", "echo started"])
            #expect(terminal.waitForExit() == .exited(125))
            #expect(
                terminal.hasShown(
                    "idlewrap: too long a duration '99999999h' for -t (the longest is 2562047h, about 292 years)"),
                "\(terminal.text)")
        }

        /// --show-config's output, saved as a file, is read back as the same settings:
        /// its `# SOURCE` comments are no part of the values, `key =` is not set.
        @Test func showConfigOutputLoadsBackAsAConfigurationFile() throws {
            let home = directory.file("home")
            mkdir(home, 0o700)
            mkdir(home + "/idlewrap", 0o700)
            try directory.write(
                "home/idlewrap/config", "timeout = 7m\nmessage = back # soon\nlock-key = ^]\nwarn = 20s\n", mode: 0o600)
            let environment = ["XDG_CONFIG_HOME": home, "IDLEWRAP_SYSTEM_CONFIG": directory.file("none")]
            let first = try TerminalDriver(idlewrap: ["--show-config"], environment: environment)
            #expect(first.waitForExit() == .exited(0))
            let shown = first.text.replacing("\r\n", with: "\n")
            #expect(shown.contains("message = back # soon  # \(home)/idlewrap/config:2\n"), "\(shown)")
            // Saved as the system file, with no user file: the same values, each now from it.
            let saved = try directory.write("saved", shown, mode: 0o644)
            let again = try TerminalDriver(
                idlewrap: ["--show-config"],
                environment: ["XDG_CONFIG_HOME": directory.file("empty"), "IDLEWRAP_SYSTEM_CONFIG": saved])
            #expect(again.waitForExit() == .exited(0), "\(again.text)")
            let values = { (text: String) in
                text.replacing("\r\n", with: "\n").split(separator: "\n").map {
                    String($0[..<($0.firstRange(of: "  # ")?.lowerBound ?? $0.endIndex)])
                }
            }
            #expect(values(again.text) == values(shown), "\(again.text)")
            #expect(again.hasShown("message = back # soon  # \(saved):"), "\(again.text)")
        }

        @Test func killAfterSaysOnTheTerminalThatItEndedTheSession() throws {
            let terminal = try TerminalDriver(idlewrap: [
                "--password-file", password, "-t", "0", "--kill-after", "1", "--", "sh", "-c", "echo started; exec cat",
            ])
            #expect(terminal.expect("started"))
            kill(terminal.process.pid, SIGUSR1)
            #expect(terminal.expect("Password for"))
            #expect(terminal.waitForExit() == .exited(129))
            #expect(
                terminal.hasShown("idlewrap: the session ended: it was locked for longer than --kill-after 1s"),
                "\(terminal.text)")
        }

        /// SHELL=/nonexistent: the message names SHELL, and the passwd entry's shell runs.
        @Test func aShellVariableThatCannotRunFallsBackToThePasswdShell() throws {
            let loginShell = try #require(UserIdentity.loginShell)
            let terminal = try TerminalDriver(
                idlewrap: ["--password-file", password, "-t", "0"], environment: ["SHELL": "/nonexistent"])
            #expect(
                terminal.expect(
                    "idlewrap: SHELL=/nonexistent cannot be run (No such file or directory); running \(loginShell) instead"
                ), "\(terminal.text)")
            try terminal.type("echo fell-back-$((6*7)); exit\r")
            #expect(terminal.expect("fell-back-42"))
            #expect(terminal.waitForExit() == .exited(0))
        }

        @Test func setPasswordMakesNoMissingDirectoryOfAFileItWasGiven() throws {
            let file = directory.file("missing/deeper/password")
            let terminal = try TerminalDriver([
                "sh", "-c", "printf 'pw\\n' | \"$0\" --set-password \"$1\"", TerminalDriver.idlewrap, file,
            ])
            #expect(terminal.waitForExit() == .exited(125))
            #expect(
                terminal.hasShown(
                    "idlewrap: cannot write password file \(file): no directory \(directory.file("missing/deeper")) (make it first)"
                ), "\(terminal.text)")
            #expect(access(directory.file("missing"), F_OK) != 0)
        }

        @Test func aDirectoryAsTheCommandSaysIsADirectory() throws {
            let terminal = try TerminalDriver(idlewrap: ["--password-file", password, "-t", "0", "--", directory.path])
            #expect(terminal.waitForExit() == .exited(126))
            #expect(
                terminal.hasShown("idlewrap: \(directory.path): cannot execute: Is a directory"), "\(terminal.text)")
        }

        /// The README's ~/.profile line cannot lock anyone out: idlewrap missing from PATH or
        /// stopped by a mistake in the user's file (125), the login goes on; otherwise it ends
        /// with the wrapped shell.
        @Test func theReadmesProfileRecipeCannotLockAnyoneOut() throws {
            let readme = try readFile(packageDirectory + "/README.md")
            let recipe = try #require(
                readme.split(separator: "\n").first { $0.hasPrefix("if [ -z \"$IDLEWRAP_TTY\" ]") }.map(String.init))
            let bin = directory.file("bin")
            mkdir(bin, 0o755)
            try #require(symlink(TerminalDriver.idlewrap, bin + "/idlewrap") == 0)
            let shell = try directory.write("shell", "#!/bin/sh\necho WRAPPED-SHELL\nexit 3\n", mode: 0o755)
            let home = directory.file("home")
            mkdir(home, 0o700)
            mkdir(home + "/idlewrap", 0o700)
            func login(path: String) throws -> TerminalDriver {
                try TerminalDriver(
                    ["/bin/sh", "-c", recipe + "\necho LOGIN-GOES-ON"],
                    environment: [
                        "PATH": path, "SHELL": shell, "XDG_CONFIG_HOME": home, "IDLEWRAP_TTY": "",
                        "IDLEWRAP_SYSTEM_CONFIG": directory.file("none"),
                    ])
            }
            try directory.write("home/idlewrap/config", "password-file = \(password)\ntimeout = 0\n", mode: 0o600)
            let wrapped = try login(path: bin)
            #expect(wrapped.waitForExit() == .exited(3), "the wrapped shell's status")
            #expect(wrapped.hasShown("WRAPPED-SHELL"), "\(wrapped.text)")
            #expect(!wrapped.hasShown("LOGIN-GOES-ON"))
            try directory.write("home/idlewrap/config", "timeout = 0\nfuture-key = yes\n", mode: 0o600)
            let mistaken = try login(path: bin)
            #expect(mistaken.waitForExit() == .exited(0))
            #expect(mistaken.hasShown("unknown key 'future-key'"), "\(mistaken.text)")
            #expect(mistaken.hasShown("LOGIN-GOES-ON"))
            let missing = try login(path: directory.file("nowhere"))
            #expect(missing.waitForExit() == .exited(0))
            #expect(missing.hasShown("LOGIN-GOES-ON"), "\(missing.text)")
        }
    }
}

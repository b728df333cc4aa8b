import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    @Suite struct Authentication {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        @Test func askSetsALockPasswordBeforeTheCommandStarts() throws {
            let terminal = try TerminalDriver(idlewrap: [
                "-a", "ask", "-t", "0", "--", "sh", "-c", "echo command-started; exec cat",
            ])
            #expect(terminal.expect("Lock password:"))
            try terminal.type("temporary\r")
            #expect(terminal.expect("Repeat password:"))
            try terminal.type("temporary\r")
            #expect(terminal.expect("command-started"))
            #expect(!terminal.hasShown("temporary"))
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            #expect(try terminal.unlockAfterAWrongPassword("wrong", then: "temporary"))
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))
        }

        @Test func askGivesUpAfterThreeMismatchesWithoutRunningAnything() throws {
            let terminal = try TerminalDriver(idlewrap: ["-a", "ask", "--", "sh", "-c", "echo command-started"])
            for attempt in 1...3 {
                #expect(terminal.expect("Lock password:"))
                try terminal.type("one\(attempt)\r")
                #expect(terminal.expect("Repeat password:"))
                try terminal.type("two\(attempt)\r")
            }
            #expect(terminal.waitForExit() == .exited(125))
            #expect(!terminal.hasShown("command-started"))
        }

        @Test func unsafePasswordFileIsRefusedBeforeAnythingRuns() throws {
            let password = try makePasswordFile(in: directory)
            chmod(password, 0o620)
            let terminal = try TerminalDriver(idlewrap: [
                "--password-file", password, "--", "sh", "-c", "echo command-started",
            ])
            #expect(terminal.waitForExit() == .exited(125))
            #expect(terminal.hasShown("idlewrap: "))
            #expect(terminal.hasShown(password))
            #expect(!terminal.hasShown("command-started"))
        }

        @Test func brokenPasswordFileDoesNotBreakCommandsWithoutATerminal() throws {
            let password = try directory.write("password", "not a hash\n", mode: 0o666)
            let terminal = try TerminalDriver([
                "sh", "-c", "\"$0\" -q --password-file \"$1\" -- echo still-works | cat", TerminalDriver.idlewrap,
                password,
            ])
            #expect(terminal.waitForExit() == .exited(0))
            #expect(terminal.hasShown("still-works"))
        }

        @Test func setPasswordInteractivelyWritesAPrivateHash() throws {
            let path = directory.file("interactive")
            let terminal = try TerminalDriver(idlewrap: ["--set-password", path])
            #expect(terminal.expect("New password:"))
            try terminal.type("s3cret\r")
            #expect(terminal.expect("Repeat password:"))
            try terminal.type("s3cret\r")
            #expect(terminal.waitForExit() == .exited(0))
            #expect(!terminal.hasShown("s3cret"))
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
            #expect(
                directory.read("interactive")?.hasPrefix("$y$") == true
                    || directory.read("interactive")?.hasPrefix("$6$") == true)
        }

        /// At the prompt, idlewrap is stopped and brought back with `fg` from a
        /// real bash in tmux, which has turned echo back on meanwhile.
        @Test(
            .requires(.tmux), arguments: [["-a", "ask", "-t", "0", "--", "cat"], ["--set-password", "PASSWORD-FILE"]])
        func aPromptStoppedAndContinuedFromBashEchoesNothing(_ arguments: [String]) throws {
            let idlewrap = ([TerminalDriver.idlewrap] + arguments).map {
                "'" + ($0 == "PASSWORD-FILE" ? directory.file("password") : $0) + "'"
            }
            let screen = try TmuxDriver(["env", "PS1=$ ", "bash", "--norc", "--noprofile", "-i"])
            try screen.type(idlewrap.joined(separator: " ") + "\r")
            let prompt = arguments.contains("--set-password") ? "New password:" : "Lock password:"
            #expect(try screen.waitForText(prompt))
            let shell = try screen.panePid()
            let children = readText("/proc/\(shell)/task/\(shell)/children") ?? ""
            let prompting = try #require(pid_t(children.split(separator: " ").first ?? ""), "no child of bash")
            kill(prompting, SIGSTOP)
            #expect(try screen.waitForText("Stopped"))
            try screen.type("fg\r")
            // The pane's terminal, to see its settings as idlewrap leaves them.
            let pane = try FileDescriptor.open(try screen.format("#{pane_tty}"), O_RDWR | O_NOCTTY | O_NONBLOCK)
            defer { try? pane.close() }
            let echoOff = TerminalDriver.waitFor(timeout: 10) {
                guard processState(prompting) != "T", let now = try? TerminalAttributes.of(pane) else { return false }
                return now.termios.c_lflag & tcflag_t(ECHO) == 0
            }
            #expect(echoOff, "echo is on again after fg")
            try screen.type("typed-after-fg")
            let echoed = try screen.waitForText("typed-after-fg", timeout: 2)
            let afterFg = try screen.screen()
            #expect(!echoed, "\(afterFg)")
            try screen.type("\r")
            #expect(try screen.waitForText("Repeat password:"))
            try screen.type("typed-after-fg\r")
            let shown = try screen.screen()
            #expect(!shown.contains("typed-after-fg"), "\(shown)")
            kill(prompting, SIGTERM)
        }

        @Test func setPasswordRefusesAnEmptyPasswordAndWritesNothing() throws {
            let path = directory.file("empty")
            let terminal = try TerminalDriver([
                "sh", "-c", "printf '\\n' | \"$0\" --set-password \"$1\"", TerminalDriver.idlewrap, path,
            ])
            #expect(terminal.waitForExit() == .exited(125))
            #expect(access(path, F_OK) != 0)
        }

        @Test func setPasswordRefusesTwoDifferentAnswersAndWritesNothing() throws {
            let path = directory.file("mismatch")
            let terminal = try TerminalDriver(idlewrap: ["--set-password", path])
            #expect(terminal.expect("New password:"))
            try terminal.type("one\r")
            #expect(terminal.expect("Repeat password:"))
            try terminal.type("two\r")
            #expect(terminal.waitForExit() == .exited(125))
            #expect(access(path, F_OK) != 0)
        }

        /// A PAM stack whose check runs `script` on the password (pam_exec
        /// hands it over on stdin, NUL-terminated).
        func pamStack(_ script: String) throws -> String {
            let check = try directory.write("check.sh", "#!/bin/sh\n" + script + "\n", mode: 0o755)
            let confdir = directory.file("pam.d")
            mkdir(confdir, 0o700)
            _ = try directory.write(
                "pam.d/idlewrap-test",
                "auth [success=done default=ignore] pam_exec.so quiet expose_authtok \(check)\nauth requisite pam_deny.so\naccount required pam_permit.so\n"
            )
            return confdir
        }

        @Test func pamUnlocksWithTheRightPasswordOnly() throws {
            let confdir = try pamStack(#"read -r password; [ "$password" = "pam-pass" ]"#)
            let terminal = try TerminalDriver(idlewrap: [
                "-a", "pam", "--pam-service", "idlewrap-test", "--pam-confdir", confdir, "-t", "0", "--", "cat",
            ])
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            #expect(try terminal.unlockAfterAWrongPassword("nope", then: "pam-pass"))
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))
        }

        @Test func pamChosenByDefaultLoadsLibpamOnce() throws {
            let confdir = try pamStack("exit 1")
            let trace = directory.file("ld-debug")
            // No password file, so the default is pam: choosing it and setting it up.
            // The loader's trace of symbol lookups goes to `trace` (idlewrap's stderr).
            let terminal = try TerminalDriver(
                [
                    "sh", "-c", "LD_DEBUG=symbols exec \"$0\" \"$@\" 2>\(trace)", TerminalDriver.idlewrap,
                    "--pam-service", "idlewrap-test", "--pam-confdir", confdir, "--", "sh", "-c",
                    "echo command-started",
                ],
                environment: ["XDG_CONFIG_HOME": directory.file("no-config")])
            #expect(terminal.waitForExit() == .exited(0))
            #expect(terminal.hasShown("command-started"))
            let lookups = try readFile(trace).ranges(of: "symbol=pam_start;").count
            #expect(lookups == 1, "libpam's pam_start was looked up \(lookups) times")
        }

        @Test func pamDenyAloneSaysCannotCheckAndCountsNoFailure() throws {
            let confdir = directory.file("pam.d")
            mkdir(confdir, 0o700)
            try directory.write("pam.d/idlewrap-deny", "auth required pam_deny.so\naccount required pam_permit.so\n")
            let terminal = try TerminalDriver(idlewrap: [
                "-a", "pam", "--pam-service", "idlewrap-deny", "--pam-confdir", confdir, "-t", "0", "--", "cat",
            ])
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            // The check begins as the user answers, and each attempt says the same
            // again and never counts a failed attempt.
            for attempt in 1...2 {
                try terminal.type("attempt \(attempt)\r")
                #expect(terminal.expect("cannot check: PAM service idlewrap-deny failed without asking"))
                #expect(terminal.expect("Password for"))
            }
            #expect(!terminal.hasShown("failed attempt"))
            #expect(!terminal.hasShown("Wrong password"))
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
        }

        @Test func pamWithoutAServiceFileWhereOtherDeniesRefusesToStart() throws {
            let confdir = directory.file("pam.d")
            mkdir(confdir, 0o700)
            try directory.write("pam.d/other", "auth required pam_deny.so\naccount required pam_deny.so\n")
            let terminal = try TerminalDriver(idlewrap: [
                "-a", "pam", "--pam-confdir", confdir, "--", "sh", "-c", "echo command-started",
            ])
            #expect(terminal.waitForExit() == .exited(125))
            #expect(
                terminal.hasShown(
                    "idlewrap: no PAM service file idlewrap in \(confdir), and PAM's fallback service 'other' denies everyone"
                ))
            #expect(!terminal.hasShown("command-started"))
        }

        @Test func pamWithoutAServiceFileSaysSoAndRuns() throws {
            let confdir = directory.file("pam.d")
            mkdir(confdir, 0o700)
            try directory.write("pam.d/other", "auth required pam_unix.so\naccount required pam_permit.so\n")
            let terminal = try TerminalDriver(idlewrap: [
                "-a", "pam", "--pam-confdir", confdir, "-t", "0", "--", "sh", "-c", "echo command-started; exec cat",
            ])
            #expect(
                terminal.expect(
                    "idlewrap: no PAM service file idlewrap in \(confdir); PAM uses the service 'other' instead"))
            #expect(terminal.expect("command-started"))
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))
        }

        @Test func pamThatCannotCheckStaysLockedAndSaysWhy() throws {
            let confdir = directory.file("pam.d")
            mkdir(confdir, 0o700)
            _ = try directory.write(
                "pam.d/idlewrap-broken", "auth required pam_no_such_module.so\naccount required pam_permit.so\n")
            let terminal = try TerminalDriver(idlewrap: [
                "-a", "pam", "--pam-service", "idlewrap-broken", "--pam-confdir", confdir, "-t", "0", "--", "cat",
            ])
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Locked"))
            // Whatever is typed, the session stays locked.
            for _ in 0..<3 {
                try terminal.type("anything\r")
            }
            #expect(!terminal.waitUntil(timeout: 3) { terminal.hasShown("\u{1b}[?1049l") })
            #expect(terminal.process.isRunning)
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
        }
    }
}

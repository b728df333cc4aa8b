import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// What reaches the system logger (see `FakeSyslog`).
    @Suite struct AuditLogging {
        /// Locks the wrapped `cat` with SIGUSR1, unlocks it with the right
        /// password, and ends it with ^D.
        func lockUnlockAndEnd(_ terminal: TerminalDriver) throws {
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))
        }

        @Test(.enabled(if: FakeSyslog.isAvailable, "no mount namespaces here"))
        func lockEventsAreLoggedToAuthprivWithoutThePassword() throws {
            let logger = try FakeSyslog()
            let directory = try TemporaryDirectory()
            let password = try makePasswordFile(in: directory)
            let terminal = try TerminalDriver(
                logger.listening([TerminalDriver.idlewrap, "--password-file", password, "-t", "0", "--", "cat"]),
                environment: ["SSH_CONNECTION": "192.0.2.7 51000 192.0.2.1 22"])
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            #expect(try terminal.unlockAfterAWrongPassword("wrong-guess", then: "open sesame"))
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))

            let messages = logger.messages()
            let log = messages.joined(separator: "\n")
            // authpriv is facility 10: <85> is notice, <84> warning.
            #expect(
                messages.contains {
                    $0.hasPrefix("<85>") && $0.contains("session locked: user=") && $0.contains("command='cat'")
                })
            #expect(messages.contains { $0.hasPrefix("<84>") && $0.contains("unlock failed (1 so far)") })
            #expect(messages.contains { $0.hasPrefix("<85>") && $0.contains("session unlocked") })
            #expect(log.contains("ssh='192.0.2.7 51000 192.0.2.1 22'"))
            #expect(log.contains("tty=/dev/pts/"))
            #expect(!log.contains("wrong-guess"))
            #expect(!log.contains("open sesame"))
        }

        /// The arguments may hold secrets, as the lock screen knows: the
        /// record names the program, as the lock screen and --list do.
        @Test(.enabled(if: FakeSyslog.isAvailable, "no mount namespaces here"))
        func recordsNameTheProgramNotItsArguments() throws {
            let logger = try FakeSyslog()
            let directory = try TemporaryDirectory()
            let password = try makePasswordFile(in: directory)
            let terminal = try TerminalDriver(
                logger.listening([
                    TerminalDriver.idlewrap, "--password-file", password, "-t", "0", "--",
                    "/bin/sh", "-c", "exec cat", "sh", "--token=HUNTER2",
                ]))
            try lockUnlockAndEnd(terminal)
            let messages = logger.messages()
            #expect(
                messages.contains { $0.contains("session locked: user=") && $0.contains("command='sh'") }, "\(messages)"
            )
            #expect(!messages.joined().contains("HUNTER2"), "\(messages)")
        }

        @Test(.enabled(if: FakeSyslog.isAvailable, "no mount namespaces here"))
        func nestingSkipsAndFakedClaimsAreLogged() throws {
            let logger = try FakeSyslog()
            // The faked claim names a process that lives but did not start this terminal's
            // session (the shell's own); one that names no process is the session's after a
            // --take, which is checked by its session process instead.
            let inner = #"IDLEWRAP_PID=$$ "$0" -t 0 -- true; "$0" -t 0 -- true"#
            let terminal = try TerminalDriver(
                logger.listening([TerminalDriver.idlewrap, "-t", "0", "--", "sh", "-c", inner, TerminalDriver.idlewrap])
            )
            #expect(terminal.waitForExit() == .exited(0))
            let messages = logger.messages()
            // authpriv is facility 10: <86> is info, <85> notice.
            #expect(
                messages.contains {
                    $0.hasPrefix("<86>")
                        && $0.contains("not wrapped again: idlewrap \(terminal.process.pid) wraps this terminal")
                })
            #expect(
                messages.contains {
                    $0.hasPrefix("<85>")
                        && $0.contains(
                            "wrapping although IDLEWRAP_TTY names this terminal: this terminal's session was not started by process "
                        )
                })
        }

        @Test(.enabled(if: FakeSyslog.isAvailable, "no mount namespaces here"))
        func aStalledLoggerDoesNotFreezeTheSession() throws {
            // glibc's syslog() would block on the full queue at the lock.
            let logger = try FakeSyslog()
            #expect(logger.fillQueue() > 0)
            let directory = try TemporaryDirectory()
            let password = try makePasswordFile(in: directory)
            let terminal = try TerminalDriver(
                logger.listening([TerminalDriver.idlewrap, "--password-file", password, "-t", "0", "--", "cat"]))
            try lockUnlockAndEnd(terminal)
            #expect(!logger.messages().contains { $0.contains("idlewrap[") }, "the logger was meant to be full")
        }
    }
}

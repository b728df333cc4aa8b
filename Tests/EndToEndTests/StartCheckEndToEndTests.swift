import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// PAM's check at start runs in the guardian while the session process sets up; the
    /// session process starts the command only once the guardian says so. A stack whose
    /// account phase waits for the test (`slowAccount`) holds the session process at
    /// that gate for as long as the test wants.
    @Suite struct StartCheck {
        let directory: TemporaryDirectory
        let confdir: String

        /// The account phase: waits until the test creates `go`, then passes or refuses
        /// as `answer` says.
        init() throws {
            directory = try TemporaryDirectory()
            confdir = directory.file("pam.d")
            mkdir(confdir, 0o700)
            let check = try directory.write("check.sh", PAMTestStack.script(accepting: "right horse"), mode: 0o755)
            let account = try directory.write(
                "account.sh",
                """
                #!/bin/sh
                touch '\(directory.file("checking"))'
                # Not past the test: its directory gone (a guardian killed leaves this
                # running), or a minute.
                tries=0
                while [ ! -e '\(directory.file("go"))' ]; do
                    [ -d '\(directory.path)' ] && [ $tries -lt 1200 ] || exit 1
                    tries=$((tries + 1))
                    sleep 0.05
                done
                exit "$(cat '\(directory.file("go"))')"

                """, mode: 0o755)
            try directory.write(
                "pam.d/idlewrap-slow",
                "auth [success=done default=ignore] pam_exec.so quiet expose_authtok \(check)\n"
                    + "auth requisite pam_deny.so\naccount required pam_exec.so quiet \(account)\n")
        }

        func start(_ options: [String]) throws -> TerminalDriver {
            try TerminalDriver(
                idlewrap: ["--pam-service", "idlewrap-slow", "--pam-confdir", confdir] + options + [
                    "-t", "0", "--", "sh", "-c", "touch '\(directory.file("command-started"))'; exec cat",
                ], environment: ["XDG_CONFIG_HOME": directory.file("no-config")])
        }

        /// Waits until the account phase runs, and returns the session process, waiting
        /// meanwhile without having started the command.
        func sessionProcessAtTheGate(_ terminal: TerminalDriver) -> pid_t? {
            guard terminal.waitUntil({ access(directory.file("checking"), F_OK) == 0 }) else { return nil }
            let children = (readText("/proc/\(terminal.process.pid)/task/\(terminal.process.pid)/children") ?? "")
                .split(separator: " ").compactMap { pid_t($0) }
            // The guardian's children: the session process, and pam_exec's helper.
            return children.first { readText("/proc/\($0)/comm")?.hasPrefix("idlewrap") == true }
        }

        func answer(_ status: Int) throws {
            try directory.write("go", "\(status)\n")
        }

        var commandStarted: Bool { access(directory.file("command-started"), F_OK) == 0 }

        @Test func aStackThatRefusesSlowlyNeverStartsTheCommand() throws {
            let terminal = try start(["-a", "pam"])
            let sessionProcess = try #require(sessionProcessAtTheGate(terminal), "no session process at the gate")
            #expect(!commandStarted)
            try answer(1)
            #expect(terminal.waitForExit() == .exited(125))
            #expect(
                terminal.hasShown(
                    "idlewrap: PAM service idlewrap-slow refuses root's account (pam_acct_mgmt: System error), so the"
                        + " lock could never be opened; use --auth ask or --auth file"), "\(terminal.text)")
            #expect(!commandStarted)
            #expect(TerminalDriver.waitFor { !processIsAlive(sessionProcess) })
            #expect(try terminal.attributes().isCanonical)
            #expect(!terminal.hasShown("\u{1b}["), "the session process drew on the terminal: \(terminal.text)")
        }

        @Test func aGuardianKilledBeforeItsVerdictStartsNothing() throws {
            let terminal = try start(["-a", "pam"])
            let sessionProcess = try #require(sessionProcessAtTheGate(terminal), "no session process at the gate")
            kill(terminal.process.pid, SIGKILL)
            #expect(TerminalDriver.waitFor { !processIsAlive(sessionProcess) })
            #expect(terminal.waitForExit() == .signaled(SIGKILL))
            #expect(terminal.hasShown("idlewrap: the guardian ended before it had checked PAM; not starting"))
            try answer(0)
            #expect(!commandStarted)
            #expect(try terminal.attributes().isCanonical)
        }

        @Test func aStackThatPassesSlowlyStartsTheCommandAndUnlocks() throws {
            let terminal = try start(["-a", "pam", "-k", "^]"])
            _ = try #require(sessionProcessAtTheGate(terminal), "no session process at the gate")
            #expect(!commandStarted)
            try answer(0)
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            #expect(TerminalDriver.waitFor { commandStarted })
            try terminal.type("\u{1d}")
            #expect(terminal.expect("Password for root:"))
            #expect(try terminal.unlockAfterAWrongPassword("wrong", then: "right horse"))
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))
        }

        /// Chosen by default, a refusing stack falls back to a lock password, asked once
        /// (by the guardian, before the session process touches the terminal), which
        /// unlocks the session's lock and the guardian's alike.
        @Test func theFallBackToAskAsksOnceForBothLocks() throws {
            let terminal = try start(["-k", "^]"])
            _ = try #require(sessionProcessAtTheGate(terminal), "no session process at the gate")
            try answer(1)
            #expect(terminal.expect("refuses root's account (pam_acct_mgmt: System error), so the lock could never be"))
            #expect(terminal.expect("asking for a lock password for this session instead (--auth ask)"))
            #expect(terminal.expect("Lock password:"))
            #expect(!commandStarted)
            try terminal.type("stand-in\r")
            #expect(terminal.expect("Repeat password:"))
            try terminal.type("stand-in\r")
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            #expect(TerminalDriver.waitFor { commandStarted })
            try terminal.type("\u{1d}")
            #expect(terminal.expect("Password for root:"))
            #expect(try terminal.unlockAfterAWrongPassword("right horse", then: "stand-in"))
            let sessionProcess = try #require(
                (readText("/proc/\(terminal.process.pid)/task/\(terminal.process.pid)/children") ?? "")
                    .split(separator: " ").compactMap { pid_t($0) }.first)
            try terminal.type("\u{1d}")
            #expect(terminal.expect("Password for root:"))
            kill(sessionProcess, SIGKILL)
            #expect(terminal.expect("idlewrap failed"))
            #expect(terminal.expect("Password for"))
            try terminal.type("stand-in\r")
            #expect(terminal.waitForExit() == .exited(125))
            #expect(terminal.hasShown("the terminal stayed locked until the password"))
            let asked = terminal.text.ranges(of: "Lock password:").count
            #expect(asked == 1, "asked for the lock password \(asked) times")
        }
    }
}

/// Whether `pid` names a process that has not ended (a zombie has).
private func processIsAlive(_ pid: pid_t) -> Bool {
    guard let status = readText("/proc/\(pid)/stat"), let close = status.lastIndex(of: ")") else { return false }
    return status[status.index(close, offsetBy: 2)] != "Z"
}

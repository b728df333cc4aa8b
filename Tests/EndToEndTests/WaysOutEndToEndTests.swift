import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// Every way out leaves the terminal as idlewrap found it, and a stop and
    /// continue leaves it raw.
    @Suite struct WaysOut {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        /// Any-event and SGR mouse, focus, paste, application cursor keys and
        /// keypad, hidden cursor, a title, kitty keyboard pushes on both
        /// screens, modifyOtherKeys, and the alternate screen.
        static let modesOn =
            "\\033[>1u\\033[?1003h\\033[?1006h\\033[?1004h\\033[?2004h\\033[?1h\\033=\\033[?25l"
            + "\\033]0;secret title\\007\\033[>4;2m\\033[?1049h\\033[>3u"

        func session(_ options: [String], _ script: String) throws -> TerminalDriver {
            let password = try makePasswordFile(in: directory)
            return try TerminalDriver(
                idlewrap: ["--password-file", password] + options + [
                    "--", "sh", "-c", script, "sh", directory.file("pid"),
                ])
        }

        /// The command: turns everything on, says so, and records its pid.
        func command(then rest: String) -> String {
            "printf '\(WaysOut.modesOn)'; echo \"$$\" > \"$1\"; echo modes-on; \(rest)"
        }

        func lockNow(_ terminal: TerminalDriver) {
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
        }

        /// Replays everything written to the terminal through the output
        /// parser: at the end, nothing the command or the lock turned on may
        /// still be on, and every title pushed must have been popped.
        func expectTerminalAsFound(_ terminal: TerminalDriver, sourceLocation: SourceLocation = #_sourceLocation) {
            let model = ScreenModel(rows: 24, columns: 80)
            terminal.transcript.withUnsafeBytes { model.feed($0) }
            let modes = model.modes
            let left = ScreenModes.inputPrivateModes.filter { modes.isSet($0) }
            #expect(left.isEmpty, "modes left on: \(left)", sourceLocation: sourceLocation)
            #expect(!modes.applicationKeypad, "keypad left in application mode", sourceLocation: sourceLocation)
            #expect(modes.cursorVisible, "cursor left hidden", sourceLocation: sourceLocation)
            #expect(!modes.alternateScreen, "alternate screen left on", sourceLocation: sourceLocation)
            #expect(modes.modifyOtherKeys == 0, sourceLocation: sourceLocation)
            #expect(modes.kittyKeyboardDepth == (0, 0), "kitty keyboard pushes left", sourceLocation: sourceLocation)
            #expect(
                terminal.text.components("\u{1b}[22;0t") == terminal.text.components("\u{1b}[23;0t"),
                "a pushed title was not popped", sourceLocation: sourceLocation)
        }

        func pid(timeout: Double = TerminalDriver.defaultTimeout, _ terminal: TerminalDriver) -> pid_t? {
            var pid: pid_t?
            _ = terminal.waitUntil(timeout: timeout) {
                pid = directory.read("pid").flatMap { pid_t($0.trimmingSuffix("\n")) }
                return pid != nil
            }
            return pid
        }

        @Test func commandExitingWithModesOn() throws {
            let terminal = try session(["-t", "0"], command(then: "exit 3"))
            #expect(terminal.expect("modes-on"))
            #expect(terminal.waitForExit() == .exited(3))
            expectTerminalAsFound(terminal)
        }

        @Test func commandKilledWhileLocked() throws {
            let terminal = try session(["-t", "0"], command(then: "exec sleep 1000"))
            #expect(terminal.expect("modes-on"))
            let commandPid = try #require(pid(terminal))
            lockNow(terminal)
            kill(commandPid, SIGKILL)
            try terminal.type("open sesame\r")
            #expect(terminal.waitForExit() == .exited(137))
            expectTerminalAsFound(terminal)
        }

        @Test(arguments: [SIGHUP, SIGTERM])
        func idlewrapSignalledWhileLocked(signal: Int32) throws {
            let terminal = try session(["-t", "0"], command(then: "exec sleep 1000"))
            #expect(terminal.expect("modes-on"))
            lockNow(terminal)
            terminal.signal(signal)
            #expect(terminal.waitForExit() == .exited(128 + signal))
            expectTerminalAsFound(terminal)
        }

        @Test func killAfterWhileLocked() throws {
            let terminal = try session(["-t", "0", "--kill-after", "1"], command(then: "exec sleep 1000"))
            #expect(terminal.expect("modes-on"))
            lockNow(terminal)
            #expect(terminal.waitForExit() == .exited(129))
            expectTerminalAsFound(terminal)
        }

        @Test func signalledWhileUnlocked() throws {
            let terminal = try session(["-t", "0"], command(then: "exec sleep 1000"))
            #expect(terminal.expect("modes-on"))
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
            expectTerminalAsFound(terminal)
        }

        /// tmux as the terminal, its pane's modes checked once idlewrap has
        /// ended and the shell that started it carries on; also when the
        /// command ended inside a DCS string, which tmux ends only at ST.
        @Test(.requires(.tmux), arguments: ["", "\\033P"])
        func tmuxSeesEveryModeOffAfterTheCommandExits(tail: String) throws {
            let password = try makePasswordFile(in: directory)
            let script =
                "printf '\\033[?1003h\\033[?1006h\\033[?1h\\033=\\033[?25l\\033[?1049h'; printf '\(tail)'; exit 0"
            let screen = try TmuxDriver([
                "sh", "-c", "\"$0\" --password-file \"$1\" -t 0 -- sh -c \"$2\"; echo idlewrap-ended; exec sleep 1000",
                TerminalDriver.idlewrap, password, script,
            ])
            #expect(try screen.waitForText("idlewrap-ended"))
            let flags =
                "#{mouse_any_flag}#{mouse_sgr_flag}#{keypad_cursor_flag}#{keypad_flag}#{cursor_flag}#{alternate_on}"
            #expect(
                try screen.format(flags) == "000010",
                "tmux's mouse, SGR mouse, cursor keys, keypad, cursor, alternate screen")
        }

        @Test func stopAndContinueLeaveTheTerminalRawWhileLocked() throws {
            let terminal = try session(["-t", "0"], "echo ready; exec sleep 1000")
            #expect(terminal.expect("ready"))
            lockNow(terminal)
            terminal.signal(SIGSTOP)
            #expect(terminal.waitUntil { processState(terminal.process.pid) == "T" })
            // What the shell that started idlewrap does when its job stops.
            var cooked = try terminal.attributes()
            cooked.termios.c_lflag |= tcflag_t(ICANON | ECHO | ISIG)
            cooked.termios.c_iflag |= tcflag_t(ICRNL)
            cooked.termios.c_oflag |= tcflag_t(OPOST)
            try cooked.apply(to: terminal.terminal.master)
            terminal.signal(SIGCONT)
            #expect(
                terminal.waitForAttributes(timeout: 10) { $0.termios.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == 0 })
            // Redrawn after the continue.
            #expect(terminal.expect("Password for"))
            try terminal.type("echoed?\u{3}")
            try terminal.type("wrong\r")
            #expect(terminal.expect("Wrong password"))
            #expect(!terminal.hasShown("echoed?"))
            #expect(!terminal.hasShown("wrong"))
            #expect(terminal.expect("Password for"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
        }
    }
}

/// The state letter of /proc/PID/stat (R, S, T, Z, ...).
func processState(_ pid: pid_t) -> Character? {
    guard let stat = readText("/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")") else { return nil }
    return stat[stat.index(end, offsetBy: 2)...].first
}

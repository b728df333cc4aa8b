import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    @Suite struct Lock {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        /// idlewrap with a password file, running `command`.
        func session(_ options: [String], _ command: [String], size: WindowSize = WindowSize(rows: 24, columns: 80))
            throws -> TerminalDriver
        {
            let password = try makePasswordFile(in: directory)
            return try TerminalDriver(idlewrap: ["--password-file", password] + options + ["--"] + command, size: size)
        }

        /// Locks with SIGUSR1 once idlewrap is ready for it (raw mode comes
        /// after the signals are watched; before that SIGUSR1 would kill it).
        func lockNow(_ terminal: TerminalDriver) {
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
        }

        /// A command that records every byte it receives, in raw mode.
        var recorder: [String] {
            ["sh", "-c", "stty raw -echo; echo recording; exec cat > \"$0\"", directory.file("received")]
        }

        @Test func noByteTypedWhileLockedReachesTheCommand() throws {
            let terminal = try session(["-t", "0", "-k", "^]"], recorder)
            #expect(terminal.expect("recording"))
            try terminal.type("before|")
            try terminal.type([0x1d] + Array("lock key burst".utf8))
            #expect(terminal.expect("Password for"))
            try terminal.type("wrong\r")
            #expect(terminal.expect("Wrong password"))
            #expect(terminal.expect("Password for"))
            try terminal.type([0x03, 0x1a, 0x1c, 0x1b, 0x5b, 0x41])
            try terminal.type("\u{15}open sesame\rafter enter")
            #expect(terminal.expect("\u{1b}[?1049l"))
            try terminal.type("after|")
            #expect(terminal.waitUntil { directory.read("received") == "before|after|" })
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
            #expect(directory.read("received") == "before|after|")
        }

        @Test func passwordIsReadEvenWhenTheCommandReadsNothing() throws {
            // The command reads nothing for a while, so typed bytes back up
            // until the command's pty, idlewrap's backlog and the terminal's
            // queue are full. The password must still get through at once.
            // What idlewrap had taken reaches the command afterwards; what was
            // still in the terminal is discarded when the lock starts, as
            // typed-ahead keys are.
            let terminal = try session(
                ["-t", "0"],
                [
                    "sh", "-c",
                    "stty raw -echo; echo ready; sleep 15; timeout --foreground 2 cat | wc -c | sed 's/^/count=/'",
                ])
            #expect(terminal.expect("ready"))
            let typed = terminal.typeUntilFull(UInt8(ascii: "k"))
            lockNow(terminal)
            #expect(terminal.expect("Password for"))
            try terminal.type("open sesame\r")
            // Well before the command wakes up and takes the backlog.
            #expect(terminal.expect("\u{1b}[?1049l", timeout: 10))
            #expect(terminal.expect("count="))
            #expect(terminal.expect("\n"))  // raw mode: no CR
            let count = Int(terminal.text.split(separator: "count=").last?.prefix { $0.isNumber } ?? "") ?? 0
            #expect(count > 4096 && count <= typed, "the command got \(count) of \(typed) bytes")
            #expect(terminal.waitForExit() == .exited(0))
        }

        @Test func keysTypedWhileThePasswordIsCheckedNeverReachTheCommand() throws {
            // "open sesame" under yescrypt cost jET: checking it takes about a
            // second, during which idlewrap reads nothing.
            let slowHash = "$y$jET$csDSDZcpqWKHk5hwveJxo1$n6eUoQ0fjvO4MQ1vcf4LpoSV2r6Ilt8iQTSApjC5alC\n"
            let password = try directory.write("slow-password", slowHash)
            let terminal = try TerminalDriver(idlewrap: ["--password-file", password, "-t", "0", "--"] + recorder)
            #expect(terminal.expect("recording"))
            lockNow(terminal)
            #expect(terminal.expect("Password for"))
            try terminal.type("open sesame\r")
            // Not waiting for an outcome: letting the check get under way
            // before typing on, as a person who keeps typing would.
            var pause = timespec(tv_sec: 0, tv_nsec: 200_000_000)
            nanosleep(&pause, nil)
            try terminal.type("LEAK|")
            #expect(terminal.expect("\u{1b}[?1049l"))
            try terminal.type("after|")
            #expect(terminal.waitUntil { directory.read("received")?.hasSuffix("after|") == true })
            #expect(directory.read("received") == "after|")
        }

        @Test func idleTimeoutLocksAndTheRightPasswordUnlocks() throws {
            let terminal = try session(["-t", "1"], ["sh", "-c", "echo ready; read line; echo got=$line"])
            #expect(terminal.expect("ready"))
            #expect(terminal.expect("Locked"))
            #expect(terminal.expect("Password for"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            try terminal.type("hello\r")
            #expect(terminal.expect("got=hello"))
            #expect(terminal.waitForExit() == .exited(0))
        }

        @Test func terminalRepliesDoNotKeepTheSessionUnlocked() throws {
            // The command asks for the cursor position every 300 ms; the test
            // answers as a terminal would. That must not count as activity.
            let terminal = try session(["-t", "2"], ["sh", "-c", "while :; do printf '\\033[6n'; sleep 0.3; done"])
            var answered = 0
            let deadline = MonotonicInstant.now() + .seconds(30)
            while !terminal.hasShown("Locked") && MonotonicInstant.now() < deadline {
                if terminal.expect("\u{1b}[6n", timeout: 1) {
                    try terminal.type("\u{1b}[12;34R")
                    answered += 1
                }
            }
            #expect(terminal.hasShown("Locked"))
            #expect(answered >= 3)
        }

        @Test func inputModesAreOffWhileLockedAndBackAfter() throws {
            let modes = "\u{1b}[?1000h\u{1b}[?1006h\u{1b}[?2004h\u{1b}[>1u"
            let terminal = try session(["-t", "0"], ["sh", "-c", "printf '\(modes)modes on\\n'; exec cat"])
            #expect(terminal.expect("modes on"))
            let beforeLock = terminal.transcript.count
            lockNow(terminal)
            #expect(terminal.expect("Password for"))
            let locked = String(decoding: terminal.transcript[beforeLock...], as: UTF8.self)
            for off in ["\u{1b}[?1000l", "\u{1b}[?1006l", "\u{1b}[?2004l", "\u{1b}[>0u"] {
                #expect(locked.contains(off), "missing \(off.debugDescription)")
            }
            let beforeUnlock = terminal.transcript.count
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            let unlocked = String(decoding: terminal.transcript[beforeUnlock...], as: UTF8.self)
            for on in ["\u{1b}[?1000h", "\u{1b}[?1006h", "\u{1b}[?2004h", "\u{1b}[<1u"] {
                #expect(unlocked.contains(on), "missing \(on.debugDescription)")
            }
        }

        @Test func aWriterNeverWaitsWhileLockedAndItsScreenComesBack() throws {
            let progress = directory.file("progress")
            let writer =
                "i=0; while [ $i -lt 50 ]; do head -c 1000000 /dev/zero | tr '\\0' '\\043'; i=$((i+1)); echo $i > \(progress); done; echo; echo WRITER-DONE"
            let terminal = try session(
                ["-t", "0", "--hold-limit", "1M"], ["sh", "-c", "read go; " + writer + "; read end"])
            lockNow(terminal)
            #expect(terminal.expect("Password for"))
            try terminal.type("go\r")  // typed at the lock screen: a wrong password, not for the command
            #expect(terminal.expect("Wrong password"))
            #expect(terminal.expect("Password for"))
            #expect(directory.read("progress") == nil)
            // Unlock, start the writer, and lock again while it writes.
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            try terminal.type("go\r")
            #expect(terminal.waitUntil { directory.read("progress") != nil })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            let lockedAt = terminal.transcript.count
            // Nothing held makes it wait: it writes all 50 MB while locked.
            #expect(terminal.waitUntil(timeout: 120) { directory.read("progress") == "50\n" })
            #expect(!terminal.hasShown("WRITER-DONE"))
            #expect(!terminal.transcript[lockedAt...].contains(UInt8(ascii: "#")))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("WRITER-DONE"))
            try terminal.type("\r")
            #expect(terminal.waitForExit(timeout: 60) == .exited(0))
            // The screen came back from the model: the writer's last row above its last words.
            let shown = ScreenModel(rows: 24, columns: 80)
            terminal.transcript.withUnsafeBytes { shown.feed($0) }
            let rows = (0..<24).map { shown.text(row: $0) }
            let done = try #require(rows.firstIndex { $0.hasPrefix("WRITER-DONE") })
            #expect(done > 0 && rows[done - 1] == String(repeating: "#", count: 80))
        }

        @Test func aTerminalThatReportsNoSizeGetsItsScreenBackAt24By80() throws {
            // A serial console, or a pty nobody sized: 0 rows and 0 columns. The model takes
            // the screen as 24x80, as the programs in it do; a 1x1 model would repaint
            // nothing of it.
            let terminal = try session(
                ["-t", "0"],
                [
                    "sh", "-c",
                    "stty size; i=0; while [ $i -lt 30 ]; do i=$((i+1)); echo \"row $i\"; done; "
                        + "printf '%0100d' 7; echo; printf 'ready>'; exec sleep 60",
                ], size: WindowSize(rows: 0, columns: 0))
            #expect(terminal.expect("ready>"))
            #expect(terminal.hasShown("0 0"))
            lockNow(terminal)
            // The lock screen is drawn at 24x80 too (at 0x0 it showed nothing, not even the
            // prompt).
            #expect(terminal.expect("Password for"))
            /// The rows a 24x80 terminal shows after `bytes` (trailing blanks cut), and last its cursor.
            func shown(_ bytes: ArraySlice<UInt8>) -> [String] {
                let model = ScreenModel(rows: 24, columns: 80)
                bytes.withUnsafeBytes { model.feed($0) }
                let rows = (0..<24).map { model.text(row: $0).trimmingSuffix(" ") }
                return rows + ["cursor \(model.cursor)"]
            }
            // What the terminal showed up to the lock screen, which begins on the alternate screen.
            let lockedAt = try #require(terminal.transcript.firstRange(of: Array("\u{1b}[?1049h".utf8))).lowerBound
            let before = shown(terminal.transcript[..<lockedAt])
            #expect(
                before.dropLast().suffix(3)
                    == [String(repeating: "0", count: 80), String(repeating: "0", count: 19) + "7", "ready>"])
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            #expect(terminal.waitUntil { shown(terminal.transcript[...]) == before })
            #expect(shown(terminal.transcript[...]) == before)
        }

        @Test func commandThatExitsWhileLockedStaysLockedUntilUnlock() throws {
            // The lock screen shows the command line, so the output to look
            // for must not appear in it literally.
            let terminal = try session(
                ["-t", "0"], ["sh", "-c", "echo started; sleep 2; echo FARE$((1))WELL; exit 4"])
            #expect(terminal.expect("started"))
            let child = try #require(commandPid(of: terminal))
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            #expect(terminal.waitUntil { commandPid(of: terminal) == nil && kill(child, 0) != 0 })
            #expect(!terminal.hasShown("FARE1WELL"))
            #expect(terminal.process.isRunning)
            try terminal.type("open sesame\r")
            #expect(terminal.expect("FARE1WELL"))
            #expect(terminal.waitForExit() == .exited(4))
        }

        @Test func killAfterEndsALockedSessionAndClearsTheScreen() throws {
            let terminal = try session(
                ["-t", "0", "--kill-after", "1"], ["sh", "-c", "echo SECRET-TEXT; exec sleep 60"])
            #expect(terminal.expect("SECRET-TEXT"))
            lockNow(terminal)
            #expect(terminal.expect("Password for"))
            #expect(terminal.waitForExit(timeout: 30) == .exited(129))
            // The screen cleared, then the one line that says why.
            #expect(
                terminal.text.hasSuffix(
                    "\u{1b}[?1049l\u{1b}[1;1H\u{1b}[2J\u{1b}[0m\u{1b}[?25h"
                        + "idlewrap: the session ended: it was locked for longer than --kill-after 1s\r\n"),
                "\(terminal.text.debugDescription)")
            #expect(sameSettings(try terminal.attributes(), terminal.initialAttributes))
        }

        @Test func killAfterLetsACommandBlockedOnHeldOutputExit() throws {
            // The command fills the hold buffer and blocks writing; when
            // --kill-after hangs it up, it must be able to write its last
            // words and exit with its own status, not wait for SIGKILL.
            let terminal = try session(
                ["-t", "0", "--hold-limit", "1K", "--kill-after", "1"],
                ["sh", "-c", "trap 'echo bye; exit 3' HUP; echo started; while :; do echo filler; done"])
            #expect(terminal.expect("started"))
            let lockedAt = MonotonicInstant.now()
            lockNow(terminal)
            #expect(terminal.waitForExit(timeout: 60) == .exited(3))
            let took = (MonotonicInstant.now() - lockedAt) / .seconds(1)
            #expect(took < 8, "the session ended \(took) s after the lock, as if the command had to be killed")
        }

        @Test func hooksRunOnLockAndUnlockAndFailuresAreReported() throws {
            let record = "echo $IDLEWRAP_EVENT >> \(directory.file("events"))"
            let terminal = try session(
                ["-t", "0", "--on-lock", record, "--on-unlock", record + "; exit 3"], ["sh", "-c", "read line"])
            lockNow(terminal)
            #expect(terminal.expect("Password for"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            #expect(terminal.waitUntil { directory.read("events") == "lock\nunlock\n" })
            try terminal.type("\r")
            #expect(terminal.waitForExit() == .exited(0))
            #expect(terminal.hasShown("idlewrap: --on-unlock hook exited with status 3"))
        }

        @Test func lockScreenIsRedrawnOnResize() throws {
            let terminal = try session(["-t", "0", "-m", "gone for lunch"], ["cat"])
            lockNow(terminal)
            #expect(terminal.expect("gone for lunch"))
            try terminal.resize(to: WindowSize(rows: 30, columns: 100))
            #expect(terminal.expect("gone for lunch"))
            #expect(terminal.expect("Password for"))
        }

        @Test func titleIsHiddenAndScrollbackWipedOnRequest() throws {
            let terminal = try session(
                ["-t", "0", "--wipe-scrollback"], ["sh", "-c", "printf '\\033]2;secret title\\007titled\\n'; exec cat"])
            #expect(terminal.expect("titled"))
            lockNow(terminal)
            // The command set the window title alone: the lock's is OSC 2, the icon name left.
            #expect(
                terminal.expect(
                    "\u{1b}[3J\u{1b}[22;0t\u{1b}]2;Locked\u{1b}\\" + "\u{1b}[2l\u{1b}[12h\u{1b}[?9001l\u{1b}[?1049h"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[23;0t\u{1b}]2;secret title\u{1b}\\"))
        }
    }
}

extension ChildProcess {
    /// Alive and not a zombie (without reaping it).
    var isRunning: Bool {
        guard let stat = readText("/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")") else { return false }
        return !stat[end...].hasPrefix(") Z")
    }
}

/// The pid of the command idlewrap runs: the only child of idlewrap's process.
func commandPid(of terminal: TerminalDriver) -> pid_t? {
    sessionProcessPid(of: terminal).flatMap(firstChild)
}

/// idlewrap's session process: the child of the pid started (its guardian), which holds
/// the pseudo-terminal and is the command's parent.
func sessionProcessPid(of terminal: TerminalDriver) -> pid_t? {
    firstChild(of: terminal.process.pid)
}

private func firstChild(of pid: pid_t) -> pid_t? {
    readText("/proc/\(pid)/task/\(pid)/children")?.split(separator: " ").first.flatMap { pid_t($0) }
}

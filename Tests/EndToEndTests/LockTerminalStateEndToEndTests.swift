import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// What the lock switches on the terminal and gives back, read from the bytes the real
    /// binary writes (issue 27, findings 4 and 6).
    @Suite struct LockTerminalState {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        func session(_ command: String) throws -> TerminalDriver {
            let password = try makePasswordFile(in: directory)
            return try TerminalDriver(idlewrap: ["--password-file", password, "-t", "0", "--", "sh", "-c", command])
        }

        /// Locks once idlewrap is ready for SIGUSR1; the bytes written for the lock.
        func lock(_ terminal: TerminalDriver) -> String {
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            let before = terminal.transcript.count
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            return String(decoding: terminal.transcript[before...], as: UTF8.self)
        }

        /// Types the password; the bytes written for the unlock, up to the command's next
        /// output, `after`.
        func unlock(_ terminal: TerminalDriver, until after: String) throws -> String {
            let before = terminal.transcript.count
            try terminal.type("open sesame\r")
            #expect(terminal.expect(after))
            return String(decoding: terminal.transcript[before...], as: UTF8.self)
        }

        /// win32-input-mode and KAM, which keep every key from arriving as typed: off first
        /// thing at the lock (with SRM set, as at every lock), on last thing at the unlock.
        @Test func win32InputModeAndKAMAreOffWhileLockedAndOnAfter() throws {
            let terminal = try session(
                "printf '\\033[?9001h\\033[2hmodes on\\r\\n'; stty -echo; read line; echo \"got=$line\"; exec cat")
            #expect(terminal.expect("modes on"))
            let locked = lock(terminal)
            #expect(locked.hasPrefix("\u{1b}[?9001l\u{1b}[2l\u{1b}[12h\u{1b}[?1049h"), "\(locked.debugDescription)")
            let unlocked = try unlock(terminal, until: "\u{1b}[?2026l")
            #expect(terminal.expect("\u{1b}[?9001h\u{1b}[2h"))
            let after = String(decoding: terminal.transcript, as: UTF8.self).split(separator: "\u{1b}[?2026l").last
            #expect(after == "\u{1b}[?9001h\u{1b}[2h", "\(unlocked.debugDescription)")
            try terminal.type("typed\r")
            #expect(terminal.expect("got=typed"))
        }

        /// A command that turned none of them on: the lock still switches KAM, SRM and
        /// win32-input-mode to their usual state, and the unlock turns none on.
        @Test func theLockSwitchesKeyModesOffWhateverItBelieves() throws {
            let terminal = try session("printf 'ready\\r\\n'; exec cat")
            #expect(terminal.expect("ready"))
            let locked = lock(terminal)
            #expect(locked.hasPrefix("\u{1b}[2l\u{1b}[12h\u{1b}[?9001l\u{1b}[?1049h"), "\(locked.debugDescription)")
            _ = try unlock(terminal, until: "\u{1b}[?2026l")
            let all = String(decoding: terminal.transcript, as: UTF8.self)
            #expect(!all.contains("\u{1b}[?9001h") && !all.contains("\u{1b}[2h") && !all.contains("\u{1b}[12l"))
        }

        /// The lock's title is `Locked` after the command's is pushed, never the message; the
        /// unlock pops it and sets the command's as it is now (one it set while locked).
        @Test func theLockTitleIsLockedAndTheCommandsComesBack() throws {
            let go = directory.file("go")
            let password = try makePasswordFile(in: directory)
            let terminal = try TerminalDriver(idlewrap: [
                "--password-file", password, "-t", "0", "-m", "gone for lunch", "--", "sh", "-c",
                "printf '\\033]2;secret-file.txt\\007ready\\r\\n'; while [ ! -e \"$0\" ]; do sleep 0.1; done; "
                    + "printf '\\033]2;later-title\\007'; touch \"$0.done\"; exec cat",
                go,
            ])
            #expect(terminal.expect("ready"))
            let locked = lock(terminal)
            #expect(locked.hasPrefix("\u{1b}[22;0t\u{1b}]2;Locked\u{1b}\\"), "\(locked.debugDescription)")
            #expect(!locked.contains("]0;gone") && !locked.contains("]2;gone"))
            _ = try directory.write("go", "")
            #expect(terminal.waitUntil { directory.read("go.done") != nil })
            let unlocked = try unlock(terminal, until: "\u{1b}[?2026l")
            #expect(unlocked.contains("\u{1b}[23;0t\u{1b}]2;later-title\u{1b}\\"), "\(unlocked.debugDescription)")
        }
    }

    /// The same through tmux, which keeps a title stack: the pane's title while locked and
    /// after.
    @Suite(.requires(.tmux)) struct LockTitleInTmux {
        @Test func thePaneTitleIsLockedWhileLockedAndTheCommandsAfter() throws {
            let directory = try TemporaryDirectory()
            let password = try makePasswordFile(in: directory)
            let screen = try TmuxDriver([
                TerminalDriver.idlewrap, "--password-file", password, "-t", "0", "-m", "gone for lunch", "--", "sh",
                "-c", "printf '\\033]2;secret-file.txt\\007ready\\n'; exec sleep 1000",
            ])
            #expect(try screen.waitForText("ready"))
            #expect(try eventually { try screen.format("#{pane_title}") == "secret-file.txt" })
            #expect(try screen.lockNow())
            #expect(try screen.format("#{pane_title}") == "Locked")
            #expect(try screen.unlock())
            #expect(try eventually { try screen.format("#{pane_title}") == "secret-file.txt" })
        }
    }
}

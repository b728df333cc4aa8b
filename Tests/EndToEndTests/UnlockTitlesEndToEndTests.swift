import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// The unlock sets every title the command has then, after the pop (issue 29): urxvt,
    /// st and konsole have no title stack, and one set while locked must arrive too.
    @Suite struct UnlockTitles {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        /// Runs `before`, prints `ready`, and once locked runs `whileLocked`; the bytes of
        /// the lock and of the unlock.
        func lockAndUnlock(before: String, whileLocked: String = "") throws -> (locked: String, unlocked: String) {
            let password = try makePasswordFile(in: directory)
            let go = directory.file("go")
            let terminal = try TerminalDriver(idlewrap: [
                "--password-file", password, "-t", "0", "--", "sh", "-c",
                "printf '\(before)ready\\r\\n'; while [ ! -e \"$0\" ]; do sleep 0.1; done; "
                    + "printf '\(whileLocked)'; touch \"$0.done\"; exec cat",
                go,
            ])
            #expect(terminal.expect("ready"))
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            let start = terminal.transcript.count
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            let locked = String(decoding: terminal.transcript[start...], as: UTF8.self)
            _ = try directory.write("go", "")
            #expect(terminal.waitUntil { directory.read("go.done") != nil })
            let unlockStart = terminal.transcript.count
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?2026l"))
            return (locked, String(decoding: terminal.transcript[unlockStart...], as: UTF8.self))
        }

        @Test func titlesSetWhileLockedReachTheTerminal() throws {
            let (locked, unlocked) = try lockAndUnlock(
                before: "",
                whileLocked: "\\033]2;later-title\\007\\033]7;file://host/later\\007\\033klater-name\\033\\\\")
            #expect(!locked.contains("\u{1b}[22;0t"))
            for expected in [
                "\u{1b}]2;later-title\u{1b}\\", "\u{1b}]7;file://host/later\u{1b}\\", "\u{1b}klater-name\u{1b}\\",
            ] {
                #expect(unlocked.contains(expected), "\(expected.debugDescription) in \(unlocked.debugDescription)")
            }
        }

        @Test func theIconNameWindowNameAndDirectoryComeBackAsTheCommandSetThem() throws {
            let (locked, unlocked) = try lockAndUnlock(
                before: "\\033]1;my-icon\\007\\033]2;my-title\\007\\033]7;file://host/before\\007\\033kmy-name\\033\\\\"
            )
            #expect(locked.contains("\u{1b}[22;0t\u{1b}]0;Locked\u{1b}\\"), "\(locked.debugDescription)")
            #expect(locked.contains("\u{1b}kidlewrap\u{1b}\\") && locked.contains("\u{1b}]7;\u{1b}\\"))
            for expected in [
                "\u{1b}[23;0t\u{1b}]2;my-title\u{1b}\\\u{1b}]1;my-icon\u{1b}\\", "\u{1b}kmy-name\u{1b}\\",
                "\u{1b}]7;file://host/before\u{1b}\\",
            ] {
                #expect(unlocked.contains(expected), "\(expected.debugDescription) in \(unlocked.debugDescription)")
            }
        }

        /// A title set with OSC 0 is both: set again as one.
        @Test func aTitleAndIconNameSetTogetherComeBackTogether() throws {
            let (_, unlocked) = try lockAndUnlock(before: "\\033]0;both\\007")
            #expect(unlocked.contains("\u{1b}[23;0t\u{1b}]0;both\u{1b}\\"), "\(unlocked.debugDescription)")
        }

        /// Only the title was the command's: the icon name stays the terminal's own, which a
        /// terminal without a title stack could not get back.
        @Test func anIconNameTheCommandNeverSetIsLeftAlone() throws {
            let (locked, unlocked) = try lockAndUnlock(before: "\\033]2;only-title\\007")
            #expect(locked.contains("\u{1b}[22;0t\u{1b}]2;Locked\u{1b}\\"), "\(locked.debugDescription)")
            #expect(!locked.contains("\u{1b}]0;") && !unlocked.contains("\u{1b}]1;"))
        }
    }
}

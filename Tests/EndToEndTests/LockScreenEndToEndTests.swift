import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// What the lock screen reveals, and how it fits a small window, through
    /// tmux as the terminal.
    @Suite(.requires(.tmux)) struct LockScreenContents {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        func locked(_ command: [String], rows: Int, columns: Int) throws -> TmuxDriver {
            let password = try makePasswordFile(in: directory)
            let screen = try TmuxDriver(
                [TerminalDriver.idlewrap, "--password-file", password, "-t", "0", "--"] + command, rows: rows,
                columns: columns)
            #expect(try screen.waitForText("ready"))
            kill(try screen.panePid(), SIGUSR1)
            #expect(try screen.waitForText("Password for"))
            return screen
        }

        @Test func showsTheProgramAndHostButNotTheArguments() throws {
            let screen = try locked(
                ["sh", "-c", "echo ready; exec sleep 1000", "sh", "--password=HUNTER2"], rows: 24, columns: 80)
            let shown = try screen.screen()
            #expect(shown.contains("sh on \(UserIdentity.hostName)"))
            #expect(!shown.contains("HUNTER2"))
            #expect(!shown.contains("sleep"))
        }

        @Test func aTwentyByFiveWindowShowsWholeLinesThatNeverOverlap() throws {
            let screen = try locked(["sh", "-c", "echo ready; exec sleep 1000"], rows: 5, columns: 20)
            try screen.type("wrong")
            try screen.press("Enter")
            #expect(try screen.waitForText("1 failed attempt"))
            #expect(try screen.waitForText("Password for"))
            let expected = [
                "Locked", "sh on \(UserIdentity.hostName)", "1 failed attempt", "Wrong password",
                "Password for \(UserIdentity.name):",
            ]
            let rows = try screen.screen().split(separator: "\n").map { $0.trimmingPrefix(" ").trimmingSuffix(" ") }
                .filter { !$0.isEmpty }
            #expect(rows.count <= 5)
            for row in rows {
                #expect(
                    expected.contains { $0 == row || (row.hasSuffix("...") && $0.hasPrefix(row.dropLast(3))) },
                    "\"\(row)\" is not one whole line of the lock screen: \(rows)")
            }
            #expect(rows.contains("1 failed attempt") && rows.contains("Wrong password") && rows.contains("Locked"))
        }
    }
}

extension Substring {
    fileprivate func trimmingPrefix(_ character: Character) -> String {
        String(drop { $0 == character })
    }
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// --warn through the real binary, with tmux as the terminal: the countdown shows in
    /// the pane's title, a key cancels it, and the command's title comes back.
    @Suite struct Warning {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        func title(_ screen: TmuxDriver) -> String {
            (try? screen.format("#{pane_title}")) ?? ""
        }

        @Test(.requires(.tmux)) func theTitleCountsDownAKeyCancelsAndTheCommandsTitleIsBack() throws {
            let password = try makePasswordFile(in: directory)
            let script = try directory.write("script", "printf '\\033]2;OWN-TITLE\\033\\\\'; echo ready; exec cat\n")
            let screen = try TmuxDriver(
                [TerminalDriver.idlewrap, "--password-file", password, "-t", "6", "--warn", "4", "--", "sh", script])
            #expect(try screen.waitForText("ready"))
            #expect(try screen.waitForScreen { _ in title(screen) == "OWN-TITLE" })
            // The countdown starts 2 s after the last key and changes each second.
            var seen: Set<String> = []
            #expect(
                try screen.waitForScreen(timeout: 10) { _ in
                    let shown = title(screen)
                    if shown.hasPrefix("idlewrap: locking in ") && shown.hasSuffix(" s") { seen.insert(shown) }
                    return seen.count >= 2
                }, "titles seen: \(seen)")
            // Nothing was drawn on the command's screen.
            #expect(!(try screen.screen()).contains("locking"))
            try screen.type("typed")
            #expect(try screen.waitForScreen { _ in title(screen) == "OWN-TITLE" })
            // The key reached the command (cat's terminal echoes it), and no lock came.
            #expect(try screen.waitForText("typed"))
            #expect(!(try screen.screen()).contains("Locked"))
            // Left alone, the countdown comes back and the lock follows it.
            #expect(try screen.waitForScreen(timeout: 10) { _ in title(screen).hasPrefix("idlewrap: locking in") })
            #expect(try screen.waitForText("Password for", timeout: 15))
            #expect(!title(screen).contains("OWN-TITLE") && !title(screen).contains("locking"))
            try screen.type("open sesame")
            try screen.press("Enter")
            #expect(try screen.waitForScreen { !$0.contains("Password for") })
            #expect(try screen.waitForScreen { _ in title(screen) == "OWN-TITLE" })
        }
    }

    /// While locked, the lock screen says that output arrived and when, and that the
    /// command finished, and never shows a byte of the output.
    @Suite struct OutputArrival {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        @Test func theLockScreenCountsLinesAndShowsNoByteOfThem() throws {
            let password = try makePasswordFile(in: directory)
            let go = directory.file("go")
            let end = directory.file("end")
            let script = try directory.write(
                "script",
                """
                echo ready
                while [ ! -e \(go) ]; do sleep 0.1; done
                printf 'SEC''RET-1\\nSEC''RET-2\\nSEC''RET-3\\n'
                while [ ! -e \(end) ]; do sleep 0.1; done
                exit 3

                """)
            let terminal = try TerminalDriver(idlewrap: [
                "--password-file", password, "-t", "0", "--bell-on-exit", "--", "sh", script,
            ])
            #expect(terminal.expect("ready"))
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            let lockedAt = terminal.transcript.count
            try directory.write("go", "")
            #expect(terminal.expect("New output: 3 lines, last at "))
            let bellsBefore = terminal.transcript[lockedAt...].filter { $0 == 0x07 }.count
            try directory.write("end", "")
            #expect(terminal.expect("Command finished at "))
            // A second more of reading: a second bell would show in it.
            _ = terminal.waitUntil(timeout: 1) { false }
            let whileLocked = Array(terminal.transcript[lockedAt...])
            #expect(!String(decoding: whileLocked, as: UTF8.self).contains("SECRET"))
            #expect(whileLocked.filter { $0 == 0x07 }.count == bellsBefore + 1)
            // The time shown is now's, as HH:MM.
            let now = LocalTime.hourAndMinute(time(nil))
            let earlier = LocalTime.hourAndMinute(time(nil) - 60)
            let text = String(decoding: whileLocked, as: UTF8.self)
            #expect(text.contains("last at \(now)") || text.contains("last at \(earlier)"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("SECRET-3"))
            #expect(terminal.waitForExit() == .exited(3))
        }
    }
}

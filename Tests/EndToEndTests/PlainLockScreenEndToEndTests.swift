import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// A terminal the lock cannot drive (TERM=dumb) through the real binary in a pty:
    /// idlewrap writes it not one escape sequence, the lock and the unlock work in lines of
    /// text, and nothing typed while locked reaches the command.
    @Suite struct PlainLockScreen {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        @Test func lockAndUnlockInLinesOfText() throws {
            let password = try makePasswordFile(in: directory)
            // Records every byte it receives; prints plain lines, one of them while locked.
            let command = [
                "sh", "-c", "echo first line; echo recording; stty raw -echo; exec cat > \"$0\"",
                directory.file("received"),
            ]
            let terminal = try TerminalDriver(
                idlewrap: ["--password-file", password, "-t", "0", "-k", "^]", "--warn", "5s", "--"] + command,
                environment: ["TERM": "dumb"])
            #expect(terminal.expect("recording"))
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            try terminal.type("before|")
            #expect(terminal.waitUntil { directory.read("received") == "before|" })
            try terminal.type([0x1d] + Array("lock key burst".utf8))
            #expect(terminal.expect("Locked"))
            #expect(terminal.expect("Password for"))
            try terminal.type("wrong\r")
            #expect(terminal.expect("Wrong password"))
            #expect(terminal.expect("Password for"))
            try terminal.type([0x03, 0x1a, 0x1c])
            try terminal.type("\u{15}open sesame\rafter enter")
            // The unlock writes the command's screen again as text, down to the cursor.
            #expect(terminal.expect("first line\r\nrecording\r\n"), "\(terminal.text)")
            try terminal.type("after|")
            #expect(terminal.waitUntil { directory.read("received") == "before|after|" })
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
            #expect(directory.read("received") == "before|after|")
            #expect(!terminal.text.utf8.contains(0x1B), "an escape sequence reached a dumb terminal: \(terminal.text)")
            #expect(!terminal.text.contains("open sesame") && !terminal.text.contains("wrong"))
        }

        @Test func outputHeldWhileLockedComesBackAsText() throws {
            let password = try makePasswordFile(in: directory)
            // Once told to (a file appears), 40 coloured lines, more than the screen holds.
            let script = """
                echo ready; while [ ! -e "$0/go" ]; do sleep 0.05; done
                i=1; while [ $i -le 40 ]; do printf '\\033[31mheld-%d\\033[m\\n' $i; i=$((i+1)); done
                : > "$0/done"; exec cat
                """
            let terminal = try TerminalDriver(
                idlewrap: ["--password-file", password, "-t", "0", "--", "sh", "-c", script, directory.path],
                environment: ["TERM": "dumb"], size: WindowSize(rows: 10, columns: 40))
            #expect(terminal.expect("ready"))
            kill(terminal.process.pid, SIGUSR1)
            #expect(terminal.expect("Password for"))
            _ = try directory.write("go", "")
            #expect(terminal.waitUntil { access(directory.file("done"), F_OK) == 0 })
            // A failure draws again, with the news: every line reached the lock.
            try terminal.type("wrong\r")
            #expect(terminal.expect("New output: 40 lines"), "\(terminal.text)")
            #expect(terminal.expect("Password for"))
            let before = terminal.text.utf8.count
            try terminal.type("open sesame\r")
            // Those that scrolled away while locked, then the screen, as text.
            let lines = (1...40).map { "held-\($0)\r\n" }.joined()
            #expect(terminal.expect(lines), "\(terminal.text)")
            let unlock = String(decoding: terminal.text.utf8.dropFirst(before), as: UTF8.self)
            #expect(!unlock.contains("not shown"), "\(unlock)")
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
            #expect(!terminal.text.utf8.contains(0x1B), "an escape sequence reached a dumb terminal: \(terminal.text)")
        }

        /// The guardian's own lock, when the session process dies while locked, is as plain.
        @Test func theGuardiansLockWritesTextOnly() throws {
            let password = try makePasswordFile(in: directory)
            let terminal = try TerminalDriver(
                idlewrap: ["--password-file", password, "-t", "0", "--", "sh", "-c", "echo ready; exec cat"],
                environment: ["TERM": "dumb"])
            #expect(terminal.expect("ready"))
            let sessionProcess = try #require(sessionProcessPid(of: terminal))
            kill(terminal.process.pid, SIGUSR1)
            #expect(terminal.expect("Password for"))
            let before = terminal.text.utf8.count
            kill(sessionProcess, SIGKILL)
            #expect(terminal.expect("idlewrap failed"))
            #expect(terminal.expect("Password for"))
            try terminal.type("wrong\r")
            #expect(terminal.expect("Wrong password"))
            #expect(terminal.expect("Password for"))
            try terminal.type("open sesame\r")
            #expect(terminal.waitForExit() == .exited(125))
            #expect(terminal.text.contains("killed by signal 9"))
            let fallback = String(decoding: terminal.text.utf8.dropFirst(before), as: UTF8.self)
            #expect(!fallback.utf8.contains(0x1B), "the guardian's lock wrote an escape sequence: \(fallback)")
        }
    }
}

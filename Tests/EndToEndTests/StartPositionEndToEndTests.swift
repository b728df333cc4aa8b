import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// idlewrap started mid-screen, below earlier output, asks the terminal where its cursor
    /// is (DSR 6) and starts the command's screen there: the unlock brings back the screen
    /// as it was, the earlier rows too where the terminal kept them (an alternate screen),
    /// blank where the lock screen drew over them.
    @Suite(.requires(.tmux), .serialized) struct StartPosition {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        /// A pane that prints `earlier` lines and then runs idlewrap on `command`.
        func midScreen(_ command: String, earlier: Int = 8, alternateScreen: Bool) throws -> TmuxDriver {
            let password = try makePasswordFile(in: directory)
            let script =
                "for i in $(seq 1 \(earlier)); do echo EARLIER-$i; done; exec \"$0\" --password-file \"$1\" -t 0 -- "
                + command
            return try TmuxDriver(
                ["sh", "-c", script, TerminalDriver.idlewrap, password],
                options: ["alternate-screen": alternateScreen ? "on" : "off", "history-limit": "10000"])
        }

        func lines(_ screen: ExactScreen) -> [String] {
            screen.capture.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }

        /// The screen after the unlock is the one before, but for the earlier rows, which
        /// only a terminal with an alternate screen keeps.
        func expected(_ before: ExactScreen, earlier: Int, alternateScreen: Bool) -> [String] {
            lines(before).enumerated().map { row, line in alternateScreen || row >= earlier ? line : "" }
        }

        @Test(arguments: [true, false]) func aShellStartedMidScreenComesBackWhereItWas(alternateScreen: Bool) throws {
            let screen = try midScreen(
                "env PS1='$ ' bash --norc --noprofile", alternateScreen: alternateScreen)
            #expect(try screen.waitForText("EARLIER-8\n$"))
            try screen.type("echo SHELL-$((6*7))")
            try screen.press("Enter")
            #expect(try screen.waitForText("SHELL-42\n$"))
            let before = try screen.exactScreen()
            #expect(try screen.screen().hasPrefix((1...8).map { "EARLIER-\($0)\n" }.joined() + "$ echo"))
            #expect(try screen.lockNow())
            #expect(!(try screen.screen()).contains("SHELL-42"))
            #expect(try screen.unlock())
            let want = expected(before, earlier: 8, alternateScreen: alternateScreen)
            try eventually { lines(try screen.exactScreen()) == want }
            let after = try screen.exactScreen()
            #expect(lines(after) == want, "before:\n\(before)\nafter:\n\(after)")
            #expect(after.state == before.state)
            // The shell goes on where it was.
            try screen.type("echo AFTER-$((6*7))")
            try screen.press("Enter")
            #expect(try screen.waitForText("AFTER-42\n$"))
        }

        /// Output while locked scrolls the earlier rows up, as it would have on the terminal:
        /// those that leave the top are in its history, in order, the rest on the screen.
        @Test func outputWhileLockedScrollsTheEarlierRowsIntoTheHistory() throws {
            let go = directory.file("go")
            let screen = try midScreen(
                "sh -c 'stty -echo; echo ready; while [ ! -e \"$0\" ]; do sleep 0.1; done; "
                    + "seq -f LATER-%g 1 20; touch \"$0.done\"; exec sleep 1000' \(go)",
                earlier: 10, alternateScreen: true)
            #expect(try screen.waitForText("EARLIER-10\nready"))
            #expect(try screen.lockNow())
            _ = try directory.write("go", "")
            #expect(eventually { directory.read("go.done") != nil })
            #expect(try screen.unlock())
            let want = ["EARLIER-9", "EARLIER-10", "ready"] + (1...20).map { "LATER-\($0)" } + [""]
            try eventually {
                try screen.screen().split(separator: "\n", omittingEmptySubsequences: false).prefix(want.count)
                    .map(String.init) == want
            }
            let shown = try screen.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(Array(shown.prefix(want.count)) == want)
            let history = try screen.history().filter { $0.hasPrefix("EARLIER-") }
            #expect(history == (1...10).map { "EARLIER-\($0)" })
        }
    }

    /// The start-up question on a terminal the test drives: typing around the answer
    /// reaches the command intact, and a terminal that never answers still works.
    @Suite(.serialized) struct StartPositionAnswer {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        func session(_ command: [String]) throws -> TerminalDriver {
            let password = try makePasswordFile(in: directory)
            return try TerminalDriver(idlewrap: ["--password-file", password, "-t", "0", "--"] + command)
        }

        @Test func typingBeforeAndAfterTheAnswerReachesTheCommandIntact() throws {
            let terminal = try session(["sh", "-c", "stty -echo; echo READY; read line; echo \"GOT[$line]\""])
            #expect(terminal.expect("\u{1b}[6n"))
            // Typed before the answer, the answer cut across two reads, typed after it.
            #expect(try terminal.typeInSeparateReads([Array("before-\u{1b}[1".utf8), Array("2;1Rafter\r".utf8)]))
            #expect(terminal.expect("GOT[before-after]"))
            #expect(!terminal.hasShown("12;1R"))
        }

        @Test func aTerminalThatNeverAnswersStillWorksAndALateAnswerIsTakenOut() throws {
            let terminal = try session([
                "sh", "-c", "stty -echo; echo READY; read line; echo \"GOT[$line]\"; read line; echo \"AND[$line]\"",
            ])
            #expect(terminal.expect("\u{1b}[6n"))
            // Nothing waits for the answer: the command's output comes without one.
            #expect(terminal.expect("READY"))
            try terminal.type("first\r")
            #expect(terminal.expect("GOT[first]"))
            // Past the screen's patience, a late answer is still no key.
            #expect(terminal.waitUntil(timeout: 1.5) { false } == false)
            try terminal.type("\u{1b}[3;1Rsecond\r")
            #expect(terminal.expect("AND[second]"))
            #expect(!terminal.hasShown("3;1R"))
            #expect(terminal.waitForExit() == .exited(0))
        }

        /// A command that ends before the terminal answers (`idlewrap -- true` over a slow
        /// link): the answer idlewrap asked for is still idlewrap's, and never reaches the
        /// program that reads the terminal next (a shell would run `3;1R` as keys).
        @Test func anAnswerLaterThanTheCommandsEndIsTakenAtExit() throws {
            let password = try makePasswordFile(in: directory)
            let script =
                "\"$0\" --password-file \"$1\" -t 0 -- true; stty -echo -icanon min 0 time 10; "
                + "left=$(dd bs=64 count=1 2>/dev/null | od -An -c | tr -d ' \\n'); echo \"LEFT[$left]\""
            let terminal = try TerminalDriver(["sh", "-c", script, TerminalDriver.idlewrap, password])
            #expect(terminal.expect("\u{1b}[6n"))
            // The terminal answers 150 ms late: `true` is over by then.
            #expect(terminal.waitUntil(timeout: 0.15) { false } == false)
            try terminal.type("\u{1b}[3;1R")
            #expect(terminal.expect("LEFT["))
            #expect(terminal.waitForExit() == .exited(0))
            #expect(terminal.hasShown("LEFT[]"), "\(terminal.text.debugDescription)")
            #expect(!terminal.hasShown("3;1R"))
        }

        @Test func aTerminalThatNeverAnswersLocksAndUnlocks() throws {
            let terminal = try session(["sh", "-c", "stty -echo; echo READY; read line; echo \"GOT[$line]\""])
            #expect(terminal.expect("READY"))
            kill(terminal.process.pid, SIGUSR1)
            #expect(terminal.expect("Password for"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("READY"))
            try terminal.type("typed\r")
            #expect(terminal.expect("GOT[typed]"))
        }
    }
}

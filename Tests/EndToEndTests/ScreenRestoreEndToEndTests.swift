import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// The unlock gives back the command's screen exactly, repainted from the screen model,
    /// with tmux as the terminal: `capture-pane -p -e -N` and the cursor before the lock and
    /// after the unlock are the same, on a pane with an alternate screen and on one without
    /// (tmux's `alternate-screen off`, as on the Linux console or GNU screen's default).
    @Suite(.requires(.tmux)) struct ScreenRestore {
        static let alternateScreens = [true, false]
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        func wrapped(_ command: [String], alternateScreen: Bool = true, options: [String] = []) throws -> TmuxDriver {
            let password = try makePasswordFile(in: directory)
            return try TmuxDriver(
                [TerminalDriver.idlewrap, "--password-file", password, "-t", "0"] + options + ["--"] + command,
                options: ["alternate-screen": alternateScreen ? "on" : "off", "history-limit": "10000"])
        }

        func lock(_ screen: TmuxDriver) throws {
            #expect(try screen.lockNow())
        }

        func unlock(_ screen: TmuxDriver) throws {
            #expect(try screen.unlock())
        }

        /// The exact screen once it has stopped changing.
        func settled(_ screen: TmuxDriver) throws -> ExactScreen {
            var last = try screen.exactScreen()
            try eventually {
                var pause = timespec(tv_sec: 0, tv_nsec: 300_000_000)
                nanosleep(&pause, nil)
                let now = try screen.exactScreen()
                defer { last = now }
                return now == last
            }
            return last
        }

        /// A session locked, then `script` run in it to its end, still locked.
        func locked(whileRunning script: String, timeout: Double = TerminalDriver.defaultTimeout) throws
            -> TmuxDriver
        {
            let go = directory.file("go")
            let screen = try wrapped([
                "sh", "-c",
                "stty -echo; echo ready; while [ ! -e \"$0\" ]; do sleep 0.1; done; \(script); touch \"$0.done\"; "
                    + "exec sleep 1000",
                go,
            ])
            // Once the command runs, idlewrap has its signals in hand: SIGUSR1 locks.
            #expect(try screen.waitForText("ready"))
            try lock(screen)
            _ = try directory.write("go", "")
            #expect(
                eventually(timeout: timeout) { directory.read("go.done") != nil }, "\(script) did not end while locked")
            return screen
        }

        /// Locks and unlocks; `secret`, on the screen before, is nowhere while locked, and
        /// afterwards the screen is exactly what it was.
        func expectBackExactly(
            _ screen: TmuxDriver, hiding secret: String, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let before = try settled(screen)
            #expect(before.capture.contains(secret), sourceLocation: sourceLocation)
            try lock(screen)
            #expect(!(try screen.screen()).contains(secret), "shown while locked", sourceLocation: sourceLocation)
            try unlock(screen)
            try eventually { try screen.exactScreen() == before }
            let after = try screen.exactScreen()
            #expect(after == before, "before:\n\(before)\nafter:\n\(after)", sourceLocation: sourceLocation)
        }

        @Test(arguments: alternateScreens) func aShellComesBackExactly(alternateScreen: Bool) throws {
            let screen = try wrapped(
                ["env", "PS1=$ ", "bash", "--norc", "--noprofile"], alternateScreen: alternateScreen)
            #expect(try screen.waitForText("$"))
            try screen.type("printf '\\033[1;31mSHELL-SECRET\\033[0m \\033[4;38;5;40mplain\\033[0m\\n'; ls -l /usr")
            try screen.press("Enter")
            #expect(try screen.waitForText("SHELL-SECRET"))
            try expectBackExactly(screen, hiding: "SHELL-SECRET")
            // The shell goes on where it was.
            try screen.type("echo AFTER-$((6*7))")
            try screen.press("Enter")
            #expect(try screen.waitForText("AFTER-42"))
        }

        @Test(.requires(.vim), arguments: alternateScreens)
        func vimComesBackWithItsMessageLine(alternateScreen: Bool) throws {
            let file = try directory.write(
                "document.txt", (1...100).map { "line \($0) VIM-SECRET" }.joined(separator: "\n") + "\n")
            let screen = try wrapped(["vim", "-u", "NONE", "-N", file], alternateScreen: alternateScreen)
            #expect(try screen.waitForText("line 1 VIM-SECRET"))
            try screen.type(":echo 'MESSAGE-LINE-' . (6 * 7)")
            try screen.press("Enter")
            #expect(try screen.waitForText("MESSAGE-LINE-42"))
            try expectBackExactly(screen, hiding: "VIM-SECRET")
            #expect(try screen.screen().contains("MESSAGE-LINE-42"))
            try screen.type(":q!")
            try screen.press("Enter")
            #expect(try screen.waitForExitStatus() == 0)
        }

        @Test(.requires(.less), arguments: alternateScreens) func lessComesBackExactly(alternateScreen: Bool) throws {
            let file = try directory.write(
                "document.txt", (1...100).map { "line \($0) LESS-SECRET" }.joined(separator: "\n") + "\n")
            let screen = try wrapped(["less", file], alternateScreen: alternateScreen)
            #expect(try screen.waitForText("line 1 LESS-SECRET"))
            try screen.press("Space")
            #expect(try screen.waitForText("line 30 LESS-SECRET"))
            try expectBackExactly(screen, hiding: "LESS-SECRET")
            try screen.type("q")
            #expect(try screen.waitForExitStatus() == 0)
        }

        @Test(.requires(.top), arguments: alternateScreens) func topComesBackExactly(alternateScreen: Bool) throws {
            // Refreshing once a minute, top draws nothing new during the test.
            let screen = try wrapped(["top", "-d", "60"], alternateScreen: alternateScreen)
            #expect(try screen.waitForText("PID"))
            try expectBackExactly(screen, hiding: "PID")
            try screen.type("q")
            #expect(try screen.waitForExitStatus() == 0)
        }

        /// A dashboard that draws once and never again, even on SIGWINCH; it counts the
        /// SIGWINCHs it gets, and the lock sends none.
        @Test(arguments: alternateScreens) func aProgramThatDrawsOnceComesBack(alternateScreen: Bool) throws {
            let signals = directory.file("winch")
            let draw =
                "printf '\\033[?1049h\\033[2J\\033[3;5H\\033[44;97mDRAWN-ONCE\\033[0m\\033[6;1H\\033[7mstatus\\033[0m"
                + "\\033[?25l\\033[4;8H'"
            let screen = try wrapped(
                ["sh", "-c", "trap 'echo W >> \"$0\"' WINCH; \(draw); while :; do sleep 1; done", signals],
                alternateScreen: alternateScreen)
            #expect(try screen.waitForText("DRAWN-ONCE"))
            try expectBackExactly(screen, hiding: "DRAWN-ONCE")
            #expect(directory.read("winch") == nil, "the command heard SIGWINCH though the window never changed")
        }

        /// A program that redraws the whole screen several times in one write (vim while it
        /// scrolls): the model leaves out all but the last redraw (ScreenModel.applyRead),
        /// and what it repaints is that one, with the title and modes set in the others.
        @Test(arguments: alternateScreens) func redrawsInOneWriteComeBackAsTheLast(alternateScreen: Bool) throws {
            let frame =
                "\\033[m\\033[H\\033[2J\\033[1;1H\\033[34mFRAME-$i top\\033[m\\r\\n\\033[?25l"
                + "\\033]0;title $i\\007second \\033[31mline $i\\033[m\\033[5;1H\\033[7mstatus $i\\033[m"
            let script =
                "stty -echo; printf '\\033[?1049h'; i=0; printf \"\(frame)\\033[3;1HFIRST-ONLY\"; sleep 0.3; f=; "
                + "for i in 1 2 3 4 5; do f=\"$f\(frame)\"; done; printf \"$f\"; exec sleep 1000"
            let screen = try wrapped(["sh", "-c", script], alternateScreen: alternateScreen)
            #expect(try screen.waitForText("status 5"))
            try expectBackExactly(screen, hiding: "FRAME-5")
            #expect(try screen.screen().contains("line 5") && !(try screen.screen()).contains("FIRST-ONLY"))
        }

        /// The cursor waits at the right margin to wrap: after the unlock the next character
        /// still starts the next row instead of overwriting the last column.
        @Test(arguments: alternateScreens) func aPendingWrapSurvivesTheLock(alternateScreen: Bool) throws {
            let screen = try wrapped(
                ["sh", "-c", "stty -echo; printf 'WRAP-%075d' 0; read x; printf NEXT; exec sleep 1000"],
                alternateScreen: alternateScreen)
            #expect(try screen.waitForText("WRAP-"))
            try expectBackExactly(screen, hiding: "WRAP-")
            try screen.press("Enter")
            #expect(try screen.waitForText("NEXT"))
            let rows = try screen.screen().split(separator: "\n", omittingEmptySubsequences: false)
            #expect(rows[0] == "WRAP-" + String(repeating: "0", count: 75))
            #expect(rows[1] == "NEXT")
        }

        /// The command leaves origin mode on with a two-row scroll region: the lock screen
        /// draws from a known state and is whole, and the command's modes come back.
        @Test func aCommandInOriginModeKeepsItAndTheLockScreenIsLegible() throws {
            let screen = try wrapped([
                "sh", "-c",
                "stty -echo; printf 'ORIGIN-SECRET\\033[5;6r\\033[?6h'; read x; printf '\\033[1;1HTOP'; exec sleep 1000",
            ])
            #expect(try screen.waitForText("ORIGIN-SECRET"))
            let before = try settled(screen)
            try lock(screen)
            let locked = try screen.screen().split(separator: "\n", omittingEmptySubsequences: false)
            let lockedRow = try #require(locked.firstIndex { $0.contains("Locked") })
            let promptRow = try #require(locked.firstIndex { $0.contains("Password for") })
            #expect(promptRow - lockedRow >= 3, "the lock screen was squeezed into the command's region")
            #expect(try screen.format("#{origin_flag} #{scroll_region_upper}") == "0 0")
            try unlock(screen)
            try eventually { try screen.exactScreen() == before }
            #expect(try screen.exactScreen() == before)
            try screen.press("Enter")
            #expect(try screen.waitForText("TOP"))
            let rows = try screen.screen().split(separator: "\n", omittingEmptySubsequences: false)
            #expect(rows[4].hasPrefix("TOP"), "origin mode was lost: \(rows)")
        }

        /// `seq 1 3000` while locked: after the unlock every line is in the history, once
        /// and in order, and the screen shows its end.
        @Test func outputWhileLockedReachesTheScrollbackOnceAndInOrder() throws {
            let screen = try locked(whileRunning: "seq 1 3000")
            #expect(!(try screen.screen()).contains("3000"))
            try unlock(screen)
            #expect(try screen.waitForText("3000"))
            let numbers = try screen.history().compactMap { Int($0) }
            #expect(numbers == Array(1...3000), "history holds \(numbers.count) numbers")
        }

        /// 300 MB while locked: the command never waits, idlewrap's memory stays bounded, and
        /// the unlock shows the end of it and says how many lines missed the scrollback.
        @Test func aFloodWhileLockedFinishesAndItsScreenComesBack() throws {
            let started = MonotonicInstant.now()
            let screen = try locked(
                whileRunning: "yes FLOOD-LINE-0123456789abcdefghijklmnopqrstuvwxyz | head -c 300000000; echo FLOOD-END",
                timeout: 600)
            let pid = try screen.panePid()
            let took = (MonotonicInstant.now() - started) / .seconds(1)
            let peak = try #require(statusField("VmHWM", of: pid))
            #expect(peak < 64 * 1024, "idlewrap's peak memory was \(peak) kB")
            #expect(!(try screen.screen()).contains("FLOOD-LINE"))
            try unlock(screen)
            #expect(try screen.waitForText("FLOOD-END"))
            // The line just above the screen says how many lines the history misses.
            let history = try screen.history()
            let screenRows = try screen.screen().split(separator: "\n", omittingEmptySubsequences: false).count
            let notice = history.dropLast(screenRows).last ?? ""
            #expect(
                notice.hasPrefix("idlewrap: ") && notice.hasSuffix("earlier lines of output did not fit --hold-limit"))
            print("300 MB while locked: \(took) s with the session's start, idlewrap's peak resident memory \(peak) kB")
        }

        /// A resize while locked: the lock screen follows it, the command hears one SIGWINCH,
        /// and after the unlock the screen is the command's at the new size.
        @Test func aResizeWhileLockedComesBackAtTheNewSize() throws {
            let signals = directory.file("winch")
            let screen = try wrapped([
                "sh", "-c",
                "trap 'echo W >> \"$0\"' WINCH; printf '\\033[3;5HRESIZE-SECRET\\033[1;1H'; while :; do sleep 1; done",
                signals,
            ])
            #expect(try screen.waitForText("RESIZE-SECRET"))
            try lock(screen)
            try screen.resize(rows: 15, columns: 50)
            #expect(try screen.waitForText("Password for"))
            #expect(eventually { directory.read("winch") == "W\n" })
            try unlock(screen)
            #expect(try screen.waitForText("RESIZE-SECRET"))
            let rows = try screen.screen().split(separator: "\n", omittingEmptySubsequences: false)
            #expect(rows[2] == "    RESIZE-SECRET")
            #expect(try screen.format("#{cursor_x},#{cursor_y}") == "0,0")
            #expect(directory.read("winch") == "W\n")
        }
    }
}

/// A field of /proc/PID/status in kB, such as VmHWM.
func statusField(_ name: String, of pid: pid_t) -> Int? {
    guard let status = readText("/proc/\(pid)/status"),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") })
    else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "")
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// idlewrap typed at a real shell's prompt (bash in tmux), its session process ended
    /// abnormally: the pid the shell started (the guardian) keeps a locked terminal locked
    /// until the password, and nothing typed reaches the shell before it.
    @Suite(.requires(.tmux)) struct Guardian {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        /// The pane's bash, with idlewrap started at its prompt and its command (`sh`) ready.
        struct Started {
            let screen: TmuxDriver
            let guardian: pid_t
            let sessionProcess: pid_t
            let command: pid_t
        }

        func startAtAPrompt(command: String = "sh") throws -> Started {
            let password = try makePasswordFile(in: directory)
            let screen = try TmuxDriver(["env", "PS1=$ ", "bash", "--norc", "--noprofile", "-i"])
            #expect(try screen.waitForText("$"))
            try screen.type("'\(TerminalDriver.idlewrap)' --password-file '\(password)' -t 0 -- \(command)\r")
            try screen.type("echo inner-$((20+1))\r")
            #expect(try screen.waitForText("inner-21"))
            let guardian = try #require(onlyChild(of: try screen.panePid()), "no idlewrap under bash")
            let sessionProcess = try #require(onlyChild(of: guardian), "no session process under idlewrap")
            let command = try #require(onlyChild(of: sessionProcess), "no command under the session process")
            return Started(screen: screen, guardian: guardian, sessionProcess: sessionProcess, command: command)
        }

        @Test(arguments: [SIGKILL, SIGSEGV])
        func aSessionProcessEndingWhileLockedLeavesTheTerminalLocked(signal: Int32) throws {
            let started = try startAtAPrompt()
            let screen = started.screen
            kill(started.guardian, SIGUSR1)
            #expect(try screen.waitForText("Password for"))
            kill(started.sessionProcess, signal)
            #expect(try screen.waitForText("idlewrap failed"))
            #expect(try screen.waitForText("Password for"))
            // The command was in the dead session process's pseudo-terminal: hung up.
            #expect(eventually { !processExists(started.command) })
            try screen.type("echo PWNED-$((6*7))\r")
            #expect(try screen.waitForText("Wrong password"))
            #expect(try screen.waitForText("Password for"), "the pause after a failure does not end")
            try screen.type("exit\r")
            #expect(try screen.waitForText("2 failed attempts"))
            #expect(try screen.waitForText("Password for"), "the pause after a failure does not end")
            try screen.type("open sesame\r")
            #expect(try screen.waitForText("killed by signal \(signal)"))
            try screen.type("echo status=$?\r")
            #expect(try screen.waitForText("status=125"))
            let everything = try screen.history().joined(separator: "\n")
            #expect(!everything.contains("PWNED-42"), "\(everything)")
            #expect(processExists(try screen.panePid()), "the shell under idlewrap ended")
        }

        /// Unlocked, the terminal is the user's already: it goes back to the shell at once,
        /// with the modes the command had turned on off again.
        @Test func aSessionProcessEndingWhileUnlockedGivesTheTerminalBack() throws {
            let started = try startAtAPrompt()
            let screen = started.screen
            try screen.type("printf '\\033[?1003h\\033[?1006h\\033[?1049h'; echo modes-on\r")
            #expect(try screen.waitForText("modes-on"))
            kill(started.sessionProcess, SIGKILL)
            #expect(try screen.waitForText("killed by signal 9"))
            #expect(!(try screen.screen()).contains("Password for"))
            try screen.type("echo status=$?\r")
            #expect(try screen.waitForText("status=125"))
            #expect(try screen.format("#{mouse_any_flag}#{mouse_sgr_flag}#{alternate_on}") == "000")
            #expect(eventually { !processExists(started.command) })
        }

        /// The shell's job control, signals and exit status pass through the guardian.
        @Test func jobControlSignalsAndTheExitStatusStillWork() throws {
            let started = try startAtAPrompt()
            let screen = started.screen
            kill(started.guardian, SIGTSTP)
            #expect(try screen.waitForText("Stopped"))
            #expect(processState(started.sessionProcess) == "T")
            try screen.type("fg\r")
            try screen.type("echo back-$((2+3))\r")
            #expect(try screen.waitForText("back-5"))
            #expect(processState(started.sessionProcess) != "T")
            // A lock asked of the pid the shell started.
            kill(started.guardian, SIGUSR1)
            #expect(try screen.waitForText("Password for"))
            #expect(try screen.unlock())
            try screen.type("exit 7\r")
            // Typed only once idlewrap is gone: the exiting shell inside could take it.
            #expect(eventually { !processExists(started.guardian) && !processExists(started.sessionProcess) })
            try screen.type("echo status=$?\r")
            #expect(try screen.waitForText("status=7"))
        }
    }
}

/// The one child of `pid`, once it has exactly one.
private func onlyChild(of pid: pid_t) -> pid_t? {
    var child: pid_t?
    _ = eventually {
        let children = (readText("/proc/\(pid)/task/\(pid)/children") ?? "").split(separator: " ")
        child = children.count == 1 ? pid_t(children[0]) : nil
        return child != nil
    }
    return child
}

/// Whether `pid` is a process that has not ended (a zombie has).
private func processExists(_ pid: pid_t) -> Bool {
    guard let state = processState(pid) else { return false }
    return state != "Z"
}

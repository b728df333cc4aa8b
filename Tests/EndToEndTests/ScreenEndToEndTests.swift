import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// What a person sees, through tmux as the terminal emulator.
    @Suite(.requires(.tmux)) struct Screen {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        func wrapped(_ command: [String]) throws -> TmuxDriver {
            let password = try makePasswordFile(in: directory)
            return try TmuxDriver([TerminalDriver.idlewrap, "--password-file", password, "-t", "0", "--"] + command)
        }

        func lock(_ screen: TmuxDriver) throws {
            #expect(try screen.lockNow())
        }

        func unlock(_ screen: TmuxDriver) throws {
            #expect(try screen.unlock())
        }

        @Test func mainScreenSecretIsHiddenWhileLockedAndBackAfter() throws {
            // Not literally in the command line, which the lock screen shows.
            let screen = try wrapped(["sh", "-c", "echo TOP-SECRET-$((6*7)); exec cat"])
            #expect(try screen.waitForText("TOP-SECRET-42"))
            try lock(screen)
            let locked = try screen.screen()
            #expect(!locked.contains("TOP-SECRET-42"))
            #expect(locked.contains("Locked"))
            try unlock(screen)
            #expect(try screen.waitForText("TOP-SECRET-42"))
            try screen.type("still here")
            try screen.press("Enter")
            #expect(try screen.waitForScreen { $0.components("still here") == 2 })
        }

        @Test(.requires(.vim, .less), arguments: [["vim", "-u", "NONE", "-N"], ["less"]])
        func fullScreenProgramRedrawsAfterUnlock(program: [String]) throws {
            let file = try directory.write(
                "document.txt", (1...100).map { "line \($0) FULL-SCREEN-SECRET" }.joined(separator: "\n") + "\n")
            let screen = try wrapped(program + [file])
            #expect(try screen.waitForText("line 1 FULL-SCREEN-SECRET"))
            try lock(screen)
            #expect(!(try screen.screen()).contains("FULL-SCREEN-SECRET"))
            try unlock(screen)
            #expect(try screen.waitForScreen { $0.components("FULL-SCREEN-SECRET") >= 20 })
            let status = try quit(
                screen, with: program[0] == "vim" ? ":q!" : "q", then: program[0] == "vim" ? "Enter" : nil)
            #expect(status == 0)
        }

        @Test(.requires(.top)) func cursesProgramRedrawsAfterUnlock() throws {
            // top is a curses program that redraws on SIGWINCH.
            let screen = try wrapped(["top", "-d", "60"])
            #expect(try screen.waitForText("PID"))
            try lock(screen)
            #expect(!(try screen.screen()).contains("PID"))
            try unlock(screen)
            #expect(try screen.waitForText("PID"))
            #expect(try quit(screen, with: "q") == 0)
        }

        /// The exit status after typing `keys`. A key that lands while the
        /// program handles the redraw's SIGWINCH may be dropped by it, so
        /// quitting is retried.
        func quit(_ screen: TmuxDriver, with keys: String, then key: String? = nil) throws -> Int32? {
            for _ in 0..<5 {
                try screen.type(keys)
                if let key { try screen.press(key) }
                if let status = try screen.waitForExitStatus(timeout: 3) { return status }
            }
            return nil
        }
    }
}

extension String {
    /// How many times `needle` occurs.
    func components(_ needle: String) -> Int {
        split(separator: needle, omittingEmptySubsequences: false).count - 1
    }
}

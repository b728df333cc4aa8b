import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// A command that writes what a terminal keeps reading as a string, or polls the
    /// terminal, must neither hide the lock screen, keep its titles on show, keep the
    /// session unlocked, nor have its output garbled by the lock. tmux is the terminal:
    /// it is the strictest about strings.
    @Suite struct HostileOutput {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        /// idlewrap in tmux running the shell `script` (the lock screen shows only its path).
        func wrapped(script: String, options: [String: String] = [:]) throws -> TmuxDriver {
            let password = try makePasswordFile(in: directory)
            let path = try directory.write("script", script)
            return try TmuxDriver(
                [TerminalDriver.idlewrap, "--password-file", password, "-t", "0", "--", "sh", path], options: options)
        }

        func lock(_ screen: TmuxDriver) throws {
            #expect(try screen.lockNow())
        }

        func unlock(_ screen: TmuxDriver) throws {
            #expect(try screen.unlock())
        }

        /// printf formats of strings tmux ends only at `ESC \`, left open.
        @Test(
            .requires(.tmux),
            arguments: [
                #"\033Pq\033x"#,  // ESC followed by anything else
                #"\033Pq#0;2;0;0;0\030"#,  // CAN
                #"\033Ptmux;\033\033_Ga=T,f=100;AAAA\033\033\\"#,  // tmux passthrough of kitty graphics
            ])
        func aStringTmuxKeepsOpenDoesNotSwallowTheLockScreen(format: String) throws {
            let screen = try wrapped(script: "printf 'SCREEN-SECRET\\n'; printf '\(format)'; exec cat\n")
            #expect(try screen.waitForText("SCREEN-SECRET"))
            try lock(screen)
            let locked = try screen.screen()
            #expect(locked.contains("Locked"))
            #expect(!locked.contains("SCREEN-SECRET"))
        }

        struct TitleCase: Sendable, CustomTestStringConvertible {
            let format: String
            let variable: String
            var testDescription: String { "\(format) \(variable)" }
        }

        @Test(
            .requires(.tmux),
            arguments: [
                TitleCase(format: #"\033_%s\033\\"#, variable: "#{pane_title}"),  // APC: tmux's pane title
                TitleCase(format: #"\033]2;%s\030"#, variable: "#{pane_title}"),  // OSC 2 cut by CAN
                TitleCase(format: #"\033k%s\033\\"#, variable: "#{window_name}"),  // tmux's window name
            ])
        func titlesAreHiddenWhileLocked(_ title: TitleCase) throws {
            let screen = try wrapped(
                script: "printf '\(title.format)' \"TITLE-SECRET-$((6*7))\"; echo titled; exec cat\n",
                options: ["allow-rename": "on"])
            #expect(try screen.waitForText("titled"))
            #expect(try screen.waitForScreen { _ in (try? screen.format(title.variable)) == "TITLE-SECRET-42" })
            try lock(screen)
            #expect(!(try screen.format(title.variable)).contains("TITLE-SECRET"))
            try unlock(screen)
            // The title stack brings titles back; tmux keeps no stack of window names.
            if title.variable == "#{pane_title}" {
                #expect(try screen.waitForScreen { _ in (try? screen.format(title.variable)) == "TITLE-SECRET-42" })
            }
        }

        @Test(.requires(.tmux)) func aSequenceCutByTheLockArrivesWholeAfterTheUnlock() throws {
            let printed = directory.file("printed")
            let go = directory.file("go")
            let screen = try wrapped(
                script: """
                    stty -echo
                    printf 'plain \\033[3'
                    while [ ! -e \(go) ]; do sleep 0.1; done
                    printf '1mCOLOURED\\033[0m\\n'
                    touch \(printed)
                    exec cat

                    """)
            #expect(try screen.waitForText("plain"))
            try lock(screen)
            try directory.write("go", "")
            // The rest of the sequence is now held by the lock.
            #expect(try screen.waitForScreen { _ in directory.read("printed") != nil })
            try unlock(screen)
            #expect(try screen.waitForText("COLOURED"))
            #expect(!(try screen.screen()).contains("1mCOLOURED"))
            #expect((try screen.screen(attributes: true)).contains("\u{1b}[31mCOLOURED"))
        }

        /// OSC 7 tells the terminal the working directory, which terminals show in tab
        /// titles and tmux as #{pane_path}: it is hidden while locked, as the title is, and
        /// back at the unlock (issue 17, finding 7).
        @Test(.requires(.tmux)) func theWorkingDirectoryIsHiddenWhileLockedAndBackAfter() throws {
            let screen = try wrapped(
                script: "printf '\\033]7;file://host/tmp/SECRET-PROJECT\\033\\\\'; echo ready; exec sleep 1000")
            #expect(try screen.waitForText("ready"))
            #expect(try screen.format("#{pane_path}") == "file://host/tmp/SECRET-PROJECT")
            try lock(screen)
            let locked = try screen.format("#{pane_path}")
            #expect(!locked.contains("SECRET-PROJECT"), "shown while locked: \(locked)")
            try unlock(screen)
            #expect(try screen.format("#{pane_path}") == "file://host/tmp/SECRET-PROJECT")
        }

        @Test func clipboardRepliesDoNotKeepTheSessionUnlocked() throws {
            // The command asks for the clipboard every 300 ms; the test answers as a
            // terminal would. That must not count as activity.
            let password = try makePasswordFile(in: directory)
            let terminal = try TerminalDriver(
                idlewrap: [
                    "--password-file", password, "-t", "2", "--", "sh", "-c",
                    "while :; do printf '\\033]52;c;?\\007'; sleep 0.3; done",
                ])
            var answered = 0
            let deadline = MonotonicInstant.now() + .seconds(15)
            while !terminal.hasShown("Locked") && MonotonicInstant.now() < deadline {
                if terminal.expect("\u{1b}]52;c;?\u{7}", timeout: 1) {
                    try terminal.type("\u{1b}]52;c;c2VjcmV0IGNsaXBib2FyZA==\u{7}")
                    answered += 1
                }
            }
            #expect(terminal.hasShown("Locked"))
            #expect(answered >= 3)
        }

        @Test func aLongReplyInManyReadsDoesNotKeepTheSessionUnlocked() throws {
            // The clipboard holds 20 KB: each answer reaches idlewrap in 4 KiB
            // reads, none of them a whole reply.
            let password = try makePasswordFile(in: directory)
            let terminal = try TerminalDriver(
                idlewrap: [
                    "--password-file", password, "-t", "3", "--", "sh", "-c",
                    "while :; do printf '\\033]52;c;?\\007'; sleep 0.5; done",
                ])
            let clipboard = String(repeating: "c2VjcmV0IGNsaXBib2FyZA==", count: 850)
            let reply = Array("\u{1b}]52;c;\(clipboard)\u{1b}\\".utf8)
            let reads = stride(from: 0, to: reply.count, by: 4096).map {
                Array(reply[$0..<min($0 + 4096, reply.count)])
            }
            #expect(reads.count == 5)
            var answered = 0
            let deadline = MonotonicInstant.now() + .seconds(20)
            while !terminal.hasShown("Locked") && MonotonicInstant.now() < deadline {
                if terminal.expect("\u{1b}]52;c;?\u{7}", timeout: 1) {
                    #expect(try terminal.typeInSeparateReads(reads))
                    answered += 1
                }
            }
            #expect(terminal.hasShown("Locked"), "\(answered) answers")
            #expect(answered >= 4)
        }
    }
}

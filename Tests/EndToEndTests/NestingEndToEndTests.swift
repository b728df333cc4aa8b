import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// IDLEWRAP_TTY and IDLEWRAP_PID set by hand must not make idlewrap skip
    /// the lock; a real idlewrap around the terminal does (see also
    /// Relay.nestedIdlewrapRunsTheCommandDirectlyUnlessAsked).
    @Suite struct Nesting {
        /// A command for `sh -c` that fakes both variables, IDLEWRAP_PID
        /// naming the shell's parent (the parent of the terminal's session
        /// leader, as a real outer idlewrap would be), and then runs idlewrap
        /// (`$0`), which must wrap.
        static let fakedThenWrapped =
            #"IDLEWRAP_TTY=$(tty) IDLEWRAP_PID=$PPID exec "$0" -t 0 -k '^]' -- sh -c 'echo command-started; exec cat'"#

        /// The lock key locks, nothing typed while locked reaches the
        /// command, and only `password` unlocks.
        func expectWrappedAndLocked(_ terminal: TerminalDriver, password: String = "open sesame") throws {
            #expect(terminal.expect("command-started"))
            #expect(!terminal.hasShown("already wrapped"))
            try terminal.type("\u{1d}")
            #expect(terminal.expect("Password for"))
            // Typed while locked: must not reach cat.
            try terminal.type("leaked\r")
            #expect(terminal.expect("Wrong password"))
            #expect(terminal.expect("Password for"))
            try terminal.type(password + "\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            try terminal.type("after\r")
            #expect(terminal.expect("after"))
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))
            #expect(!terminal.hasShown("leaked"))
        }

        @Test func fakedTerminalAloneDoesNotSkipTheLock() throws {
            let terminal = try TerminalDriver([
                "sh", "-c", #"IDLEWRAP_TTY=$(tty) exec "$0" -t 0 -k '^]' -- sh -c 'echo command-started; exec cat'"#,
                TerminalDriver.idlewrap,
            ])
            try expectWrappedAndLocked(terminal)
        }

        @Test func badPidDoesNotSkipTheLock() throws {
            for pid in ["1", "0", "not-a-pid", "999999999"] {
                let terminal = try TerminalDriver([
                    "sh", "-c",
                    #"IDLEWRAP_TTY=$(tty) IDLEWRAP_PID=$1 exec "$0" -t 0 -k '^]' -- sh -c 'echo command-started; exec cat'"#,
                    TerminalDriver.idlewrap, pid,
                ])
                try expectWrappedAndLocked(terminal)
            }
        }

        @Test func fakedPidOfTheSessionsParentDoesNotSkipTheLock() throws {
            // $PPID is the test runner: the parent of this terminal's session
            // leader, like a real outer idlewrap, but not idlewrap.
            let terminal = try TerminalDriver(["sh", "-c", Self.fakedThenWrapped, TerminalDriver.idlewrap])
            try expectWrappedAndLocked(terminal)
        }

        @Test func aProcessMerelyNamedIdlewrapDoesNotCount() throws {
            // script(1) copied to a file named idlewrap: it holds the master
            // of a new terminal whose session leader is its child, and its
            // name is idlewrap, but it is another program.
            let directory = try TemporaryDirectory()
            let impostor = directory.file("idlewrap")
            try #require(TestUser.run(["/bin/cp", "/usr/bin/script", impostor]), "cannot copy script")
            let inner = Self.fakedThenWrapped.replacing("\"$0\"", with: "'\(TerminalDriver.idlewrap)'")
            let terminal = try TerminalDriver(
                [impostor, "-q", "-e", "-c", inner, "/dev/null"], environment: ["SHELL": "/bin/sh"])
            try expectWrappedAndLocked(terminal)
        }

        @Test(.enabled(if: TestUser.canBeMade, "needs root to add users"))
        func realNestingSkipsAndFakesDoNotForAnUnprivilegedUser() throws {
            let user = try TestUser(password: nil)
            // Inside a real idlewrap the inner one skips and sees the outer's pid.
            let nested = try user.terminal([
                user.idlewrap, "-a", "ask", "-t", "0", "--", "sh", "-c",
                #"echo "outer=[$IDLEWRAP_PID]"; "$0" -t 0 -- sh -c 'echo "inner=[$IDLEWRAP_PID]"'"#, user.idlewrap,
            ])
            #expect(nested.expect("Lock password:"))
            try nested.type("stand-in\r")
            #expect(nested.expect("Repeat password:"))
            try nested.type("stand-in\r")
            #expect(nested.waitForExit() == .exited(0))
            #expect(nested.hasShown("already wrapped"))
            let outer = nested.text.firstRange(of: "outer=[").map { nested.text[$0.upperBound...].prefix { $0 != "]" } }
            #expect(outer.map { !$0.isEmpty && nested.hasShown("inner=[\($0)]") } == true)

            // A look-alike named idlewrap, run by the user, does not count.
            let impostor = user.directory.file("fake/idlewrap")
            mkdir(user.directory.file("fake"), 0o755)
            try #require(TestUser.run(["/bin/cp", "/usr/bin/script", impostor]), "cannot copy script")
            let inner = Self.fakedThenWrapped.replacing("\"$0\"", with: "'\(user.idlewrap)' -a ask")
            let faked = try user.terminal(
                [impostor, "-q", "-e", "-c", inner, "/dev/null"], environment: ["SHELL": "/bin/sh"])
            #expect(faked.expect("Lock password:"))
            try faked.type("user-pass\r")
            #expect(faked.expect("Repeat password:"))
            try faked.type("user-pass\r")
            try expectWrappedAndLocked(faked, password: "user-pass")
        }
    }
}

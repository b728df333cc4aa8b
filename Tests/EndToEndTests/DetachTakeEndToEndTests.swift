import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// `idlewrap --attach --take`: a session whose terminal is alive is taken to another
    /// terminal. The old one is locked and told before the new one is served, and left as
    /// idlewrap found it; the new one needs the password; nothing typed on either before the
    /// unlock reaches the command. Both terminals are the test's own, the session a real
    /// user's (useradd), so that no other test's --list or --lock-all meets it.
    @Suite(.enabled(if: TestUser.canBeMade, "needs root to add a user"))
    struct DetachTake {
        let user: TestUser
        let received: String

        init() throws {
            user = try TestUser(password: nil)
            received = try user.privateDirectory("out") + "/received"
        }

        /// The user's session on terminal A, unlocked, its command recording every byte it
        /// gets (with mouse reporting and bracketed paste on, which the old terminal must not
        /// keep). The lock's password is "open sesame".
        func startSession() throws -> TerminalDriver {
            let recorder =
                "stty raw -echo; printf '\\033[?1000h\\033[?2004h'; echo recording; exec cat > \"$0\""
            let terminal = try user.setprivTerminal([
                user.idlewrap, "--auth", "ask", "--detach", "hangup", "-t", "0", "--", "sh", "-c", recorder, received,
            ])
            for prompt in ["Lock password:", "Repeat password:"] {
                try #require(terminal.expect(prompt), "\(terminal.text)")
                try terminal.type("open sesame\r")
            }
            try #require(terminal.expect("recording"), "\(terminal.text)")
            let socket = "\(user.runtimeDirectory)/\(terminal.process.pid)"
            try #require(terminal.waitUntil { access(socket, F_OK) == 0 }, "no \(socket)")
            return terminal
        }

        /// Terminal B: `idlewrap --attach --take PID` of the user's.
        func take(_ session: TerminalDriver) throws -> TerminalDriver {
            try take(pid: session.process.pid)
        }

        func take(pid: pid_t) throws -> TerminalDriver {
            try user.setprivTerminal([user.idlewrap, "--attach", "--take", String(pid)])
        }

        /// The child of `parent` (the session process of the idlewrap with that pid).
        func child(of parent: pid_t) throws -> pid_t {
            try #require(
                TestUser.output(of: ["pgrep", "-P", String(parent)]).flatMap { pid_t($0.prefix { $0.isNumber }) },
                "no child of \(parent)")
        }

        var recorded: String { (try? readFile(received)) ?? "" }

        /// What `terminal` shows now, as a screen model fed all it was sent.
        func model(of terminal: TerminalDriver) -> ScreenModel {
            let model = ScreenModel(rows: 24, columns: 80)
            terminal.transcript.withUnsafeBytes { model.feed($0) }
            return model
        }

        /// Ends the session started as `pid` from outside (SIGTERM to its session process,
        /// `process`): the attached terminal's client ends with its status, and nothing of it
        /// is left, under either pid.
        func end(_ pid: pid_t, process: pid_t, attached: TerminalDriver) {
            kill(process, SIGTERM)
            #expect(attached.waitForExit(timeout: 60) == .exited(143), "\(attached.text)")
            #expect(
                TerminalDriver.waitFor {
                    access("\(user.runtimeDirectory)/\(pid)", F_OK) != 0
                        && access("\(user.runtimeDirectory)/\(process)", F_OK) != 0
                        && access("/proc/\(process)", F_OK) != 0
                }, "the socket or the session process is left")
        }

        /// Once the guardian has gone, the session's socket is named by its session process
        /// (`process`), not by the guardian's pid, which a new idlewrap may get.
        func expectNamedByTheSessionProcess(_ pid: pid_t, process: pid_t) {
            #expect(
                TerminalDriver.waitFor {
                    access("\(user.runtimeDirectory)/\(pid)", F_OK) != 0
                        && access("\(user.runtimeDirectory)/\(process)", F_OK) == 0
                }, "the socket is still named by the guardian's pid \(pid), not by \(process)")
        }

        /// The first terminal's idlewrap, whose session another terminal took, is over: it
        /// exited 129 (a hang-up's status), its shell has the terminal back.
        func expectGivenBack(_ first: TerminalDriver) {
            #expect(first.waitForExit(timeout: 30) == .exited(129), "\(first.text)")
        }

        @Test func aTakenTerminalIsLockedToldAndLeftAsItWasFound() throws {
            let first = try startSession()
            let process = try child(of: first.process.pid)
            try first.type("before|")
            #expect(first.waitUntil { recorded == "before|" })
            let second = try take(first)
            #expect(second.expect("Password for \(user.name):"), "\(second.text)")
            // Told before the new terminal was served: there already when that shows.
            first.pump(timeout: 1)
            #expect(first.hasShown("idlewrap: this session was taken over by another terminal"), "\(first.text)")
            // The old terminal: its settings as idlewrap found them, the main screen cleared
            // but for the line that says why, no input mode the command had on.
            #expect(first.waitForAttributes { sameSettings($0, first.initialAttributes) }, "A is left raw")
            let shown = model(of: first)
            #expect(!shown.isAlternateScreen, "A is left on the lock screen")
            #expect(!shown.modes.isSet(privateMode: 1000) && !shown.modes.isSet(privateMode: 2004))
            #expect(shown.modes.cursorVisible)
            let rows = (0..<shown.rows).map { shown.text(row: $0) }.map { $0.trimmingSuffix(" ") }.filter {
                !$0.isEmpty
            }
            #expect(rows == ["idlewrap: this session was taken over by another terminal"], "\(rows)")
            // Typed on either before the unlock: never the command's.
            try first.type("typed-on-A|\r")
            try second.type("typed-on-B|\u{15}open sesame\r")
            #expect(second.expect("\u{1b}[?1049l"), "\(second.text)")
            try first.type("late-on-A|")
            try second.type("after|")
            #expect(second.waitUntil { recorded.hasSuffix("after|") }, "\(recorded)")
            #expect(recorded == "before|after|")
            #expect(!second.hasShown("taken over"))
            expectGivenBack(first)
            end(first.process.pid, process: process, attached: second)
        }

        /// A terminal that an `--attach` passed is taken in turn: its client exits 129 (a
        /// hang-up) and leaves it as it found it, and the third needs the password too.
        @Test func anAttachedTerminalTakenInTurnIsGivenBack() throws {
            let first = try startSession()
            let process = try child(of: first.process.pid)
            let second = try take(first)
            #expect(second.expect("Password for \(user.name):"), "\(second.text)")
            try second.type("open sesame\r")
            #expect(second.expect("\u{1b}[?1049l"), "\(second.text)")
            try second.type("second|")
            #expect(second.waitUntil { recorded == "second|" }, "\(recorded)")
            expectNamedByTheSessionProcess(first.process.pid, process: process)
            let third = try take(pid: process)
            #expect(third.expect("Password for \(user.name):"), "\(third.text)")
            #expect(second.waitForExit(timeout: 60) == .exited(129), "\(second.text)")
            #expect(second.hasShown("idlewrap: this session was taken over by another terminal"))
            #expect(sameSettings(try second.attributes(), second.initialAttributes), "B is left raw")
            let shown = model(of: second)
            #expect(!shown.isAlternateScreen && shown.modes.cursorVisible)
            #expect(!shown.modes.isSet(privateMode: 1000) && !shown.modes.isSet(privateMode: 2004))
            try third.type("typed-on-C|\u{15}open sesame\r")
            #expect(third.expect("\u{1b}[?1049l"), "\(third.text)")
            try third.type("third|")
            #expect(third.waitUntil { recorded.hasSuffix("third|") }, "\(recorded)")
            #expect(recorded == "second|third|")
            expectGivenBack(first)
            end(first.process.pid, process: process, attached: third)
        }

        @Test func aHalfTypedPasswordStaysWithTheTerminalItWasTypedOn() throws {
            let first = try startSession()
            let process = try child(of: first.process.pid)
            #expect(first.waitForAttributes { !$0.isCanonical })
            first.signal(SIGUSR1)
            #expect(first.expect("Password for \(user.name):"), "\(first.text)")
            // Read by the session (the terminal's queue empties), never submitted.
            #expect(try first.typeInSeparateReads([Array("open".utf8)]))
            let second = try take(first)
            #expect(first.expect("taken over by another terminal"), "\(first.text)")
            #expect(second.expect("Password for \(user.name):"), "\(second.text)")
            // The rest of the password alone is wrong here: the new terminal's answer starts empty.
            #expect(try second.unlockAfterAWrongPassword(" sesame", then: "open sesame"), "\(second.text)")
            try second.type("after|")
            #expect(second.waitUntil { recorded == "after|" }, "\(recorded)")
            expectGivenBack(first)
            end(first.process.pid, process: process, attached: second)
        }
    }
}

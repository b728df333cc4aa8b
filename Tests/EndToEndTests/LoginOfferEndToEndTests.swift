import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// The login offer of detached sessions (`attach` in a file, `--attach-at-login`) through a real sshd, with
    /// idlewrap as the user's login shell: a login after a dropped connection is offered
    /// the session; one key takes it back, after its password, or starts a new shell;
    /// commands over ssh and `never` are not asked anything.
    @Suite(.enabled(if: getuid() == 0, "needs root to add users and run sshd"), .requires(.sshd, .ssh))
    struct LoginOffer {
        static let offer = "detached session"

        /// A session of the fixture's user left detached by a dropped connection, its
        /// command stopped at a screen that no longer changes; the pid of its idlewrap.
        static func detachedSession(_ fixture: Detach.Fixture) throws -> pid_t {
            let (first, pid) = try fixture.startCommand()
            // No detached session yet: the first login was offered nothing.
            #expect(!first.hasShown(offer), "\(first.text)")
            fixture.dropConnection(first)
            try fixture.server.directory.write("stop", "", mode: 0o644)
            try SSHServer.run(["cp", fixture.server.directory.file("stop"), fixture.server.home + "/STOP"])
            #expect(TerminalDriver.waitFor { fixture.read("LOG")?.contains("stopped") == true })
            let detached = TerminalDriver.waitFor(timeout: 30) {
                let list = try? TerminalDriver(
                    fixture.server.ssh(["-T"], "\(fixture.server.idlewrap) --list --json"))
                return list?.waitForExit(timeout: 30) == .exited(0)
                    && list?.text.contains("\"state\": \"detached\"") == true
            }
            try #require(detached, "the session did not detach: \(fixture.server.log)")
            return pid
        }

        /// A login with a terminal that shows the offer of the one detached session.
        static func offered(_ fixture: Detach.Fixture) throws -> TerminalDriver {
            let login = try TerminalDriver(fixture.server.ssh(["-tt"], nil))
            #expect(login.expect("idlewrap: you have 1 detached session:"), "\(login.text) \(fixture.server.log)")
            #expect(login.expect("  1  sh, detached since "))
            #expect(login.expect("or n or Enter for a new shell: "))
            return login
        }

        /// idlewrap as the login shell, or sshd's `ForceCommand idlewrap`.
        @Test(arguments: [false, true])
        func aLoginOffersTheDetachedSessionAndOneKeyTakesItBackAfterThePassword(forceCommand: Bool) throws {
            let fixture = try Detach.Fixture(forceCommand: forceCommand)
            let pid = try Self.detachedSession(fixture)

            // `n`: a new shell, and the session stays detached.
            let second = try Self.offered(fixture)
            try second.type("n")
            try second.type("\(fixture.server.idlewrap) --list --json; echo \"list\"\"ed $?\"\r")
            #expect(second.expect("listed 0"), "\(second.text)")
            #expect(second.hasShown("\"state\": \"detached\""), "\(second.text)")
            try second.type("exit\r")
            #expect(second.waitForExit(timeout: 60) == .exited(0))

            // `1`: the session's lock screen, and nothing of its screen before the password.
            let third = try Self.offered(fixture)
            try third.type("1")
            #expect(third.expect("Password for \(fixture.server.user):"), "\(third.text)")
            #expect(!third.hasShown("line 1"))
            try third.type("wrong\r")
            #expect(third.expect("Wrong password"))
            #expect(third.expect("Password for"))
            try third.type("open sesame\r")
            #expect(third.expect("\u{1b}[?1049l"))
            let size = WindowSize(rows: 24, columns: 80)
            let screen = try fixture.expectedScreen(size: size)
            #expect(
                third.waitUntil { fixture.shown(third, size: size) == screen },
                "\(fixture.shown(third, size: size)) != \(screen)")
            try third.type("hello\r")
            #expect(third.expect("got hello"))
            try third.type("quit\r")
            #expect(third.waitForExit(timeout: 60) == .exited(7))
            // Neither the key that chose nor the wrong password reached the command.
            #expect(fixture.read("LOG")?.contains("got 1") == false)
            #expect(fixture.read("LOG")?.contains("wrong") == false)
            fixture.expectNothingLeft(pid)
        }

        @Test(arguments: [false, true])
        func commandsOverSSHAndNeverAreNotAskedAndAlwaysAttachesTheOnlyOne(forceCommand: Bool) throws {
            let fixture = try Detach.Fixture(forceCommand: forceCommand)
            _ = try Self.detachedSession(fixture)
            // A command, without a terminal and with one: it runs, nothing asked.
            for options in [["-T"], ["-tt"]] {
                let command = try TerminalDriver(fixture.server.ssh(options, "echo hi"))
                #expect(command.waitForExit(timeout: 60) == .exited(0), "\(options) \(command.text)")
                #expect(command.text.contains("hi"), "\(options) \(command.text)")
                #expect(!command.hasShown(Self.offer), "\(options) \(command.text)")
            }
            // `never`: a login is a new shell, as before there were detached sessions.
            try fixture.server.directory.write(
                "config", "detach = hangup\ntimeout = 0\nattach = never\n", mode: 0o644)
            try SSHServer.run([
                "cp", fixture.server.directory.file("config"), fixture.server.home + "/.config/idlewrap/config",
            ])
            let login = try TerminalDriver(fixture.server.ssh(["-tt"], nil))
            try login.type("echo \"mark\"\"er\"\r")
            #expect(login.expect("marker"), "\(login.text)")
            #expect(!login.hasShown(Self.offer), "\(login.text)")
            try login.type("exit\r")
            #expect(login.waitForExit(timeout: 60) == .exited(0))
            // `always`: the only one is taken back at once, after its password all the same.
            try fixture.server.directory.write(
                "config", "detach = hangup\ntimeout = 0\nattach = always\n", mode: 0o644)
            try SSHServer.run([
                "cp", fixture.server.directory.file("config"), fixture.server.home + "/.config/idlewrap/config",
            ])
            let taken = try TerminalDriver(fixture.server.ssh(["-tt"], nil))
            #expect(taken.expect("idlewrap: taking back your detached session: sh, detached since "), "\(taken.text)")
            #expect(taken.expect("Password for \(fixture.server.user):"), "\(taken.text)")
            #expect(!taken.hasShown("you have"))
            try taken.type("open sesame\r")
            #expect(taken.expect("\u{1b}[?1049l"))
            try taken.type("quit\r")
            #expect(taken.waitForExit(timeout: 60) == .exited(7))
        }
    }
}

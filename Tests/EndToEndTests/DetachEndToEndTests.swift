import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// `detach = hangup` through a real sshd: the ssh client is killed (no clean close), the
    /// command goes on, and the next login takes the session back after the password.
    @Suite(.enabled(if: getuid() == 0, "needs root to add users and run sshd"), .requires(.sshd, .ssh))
    struct Detach {
        /// A login server whose user's idlewrap detaches on a hang-up and never idles into a
        /// lock, and a command for it: until STOP exists it counts (COUNTER) and draws a
        /// line per count; then it says so and echoes what is typed (`quit` exits 7). With
        /// `exitAtStop`, it exits 7 at once instead. Everything it draws goes to LOG too,
        /// and it starts with a cleared screen, so LOG alone gives its screen.
        final class Fixture {
            let server: SSHServer
            /// `forceCommand`: sshd's `ForceCommand idlewrap` for a user whose shell is
            /// /bin/sh, instead of idlewrap as the login shell.
            init(exitAtStop: Bool = false, forceCommand: Bool = false) throws {
                server = try SSHServer(
                    shell: forceCommand ? "/bin/sh" : nil, configuration: forceCommand ? ["ForceCommand IDLEWRAP"] : [])
                let home = server.home
                try server.directory.write("config", "detach = hangup\ntimeout = 0\n", mode: 0o644)
                try SSHServer.run(["cp", server.directory.file("config"), home + "/.config/idlewrap/config"])
                let script = """
                    stty -echo -onlcr
                    printf '\\033[H\\033[2J' | tee -a LOG
                    i=0
                    while [ ! -e STOP ]; do
                        i=$((i+1)); echo $i > COUNTER.new; mv COUNTER.new COUNTER
                        printf 'line %s\\r\\n' $i | tee -a LOG; sleep 0.1
                    done
                    printf 'stopped\\r\\n' | tee -a LOG
                    \(exitAtStop ? "exit 7" : "")
                    while read -r line; do
                        printf 'got %s\\r\\n' "$line" | tee -a LOG
                        [ "$line" = quit ] && exit 7
                    done

                    """
                try server.directory.write("script", script, mode: 0o644)
                try SSHServer.run(["cp", server.directory.file("script"), home + "/script"])
                try SSHServer.run(["chown", "-R", "\(server.user):", home])
            }

            deinit {
                // A session a failed test left detached must not outlive its user.
                TestUser.run(["pkill", "-KILL", "-u", server.user])
                if let uid = getpwnam(server.user)?.pointee.pw_uid {
                    TestUser.run(["rm", "-rf", RuntimeDirectory.temporaryDirectory(uid: uid)])
                }
            }

            var counter: Int { Int((read("COUNTER") ?? "").prefix { $0.isNumber }) ?? 0 }

            func read(_ name: String) -> String? {
                try? readFile(server.home + "/" + name)
            }

            /// The first login: the command running in a detaching session; the pid of
            /// that session's idlewrap.
            func startCommand() throws -> (TerminalDriver, pid_t) {
                let terminal = try TerminalDriver(server.ssh(["-tt"], nil))
                // Split, so that only the answer says "pid=".
                try terminal.type("echo \"p\"\"id=$IDLEWRAP_PID end\"\r")
                guard terminal.expect("pid="), terminal.expect(" end"),
                    let pid = terminal.text.split(separator: "pid=").last.flatMap({ pid_t($0.prefix { $0.isNumber }) })
                else { throw TmuxError(message: "no pid: \(terminal.text) \(server.log)") }
                try terminal.type("exec sh script\r")
                guard TerminalDriver.waitFor({ self.counter >= 3 }) else {
                    throw TmuxError(message: "the command does not count: \(terminal.text)")
                }
                return (terminal, pid)
            }

            /// The connection drops: the client dies without a word.
            func dropConnection(_ terminal: TerminalDriver) {
                terminal.signal(SIGKILL)
                _ = terminal.waitForExit(timeout: 10)
            }

            /// A later login that attaches, at `size`.
            func attach(size: WindowSize, _ arguments: [String] = []) throws -> TerminalDriver {
                try TerminalDriver(
                    server.ssh(["-tt"], ([server.idlewrap, "--attach"] + arguments).joined(separator: " ")),
                    size: size)
            }

            /// The screen LOG gives, on a terminal of `size` that was 24x80 while it was drawn.
            func expectedScreen(size: WindowSize) throws -> [String] {
                let model = ScreenModel(rows: 24, columns: 80)
                try readFileBytes(server.home + "/LOG").withUnsafeBytes { model.feed($0) }
                model.resize(rows: Int(size.rows), columns: Int(size.columns))
                return rows(model)
            }

            func rows(_ model: ScreenModel) -> [String] {
                (0..<model.rows).map { model.text(row: $0) } + ["cursor \(model.cursor)"]
            }

            /// What `terminal` shows now.
            func shown(_ terminal: TerminalDriver, size: WindowSize) -> [String] {
                let model = ScreenModel(rows: Int(size.rows), columns: Int(size.columns))
                terminal.transcript.withUnsafeBytes { model.feed($0) }
                return rows(model)
            }

            /// Nothing of the session is left: its processes, its socket.
            func expectNothingLeft(_ pid: pid_t, sourceLocation: SourceLocation = #_sourceLocation) {
                let socket =
                    RuntimeDirectory.temporaryDirectory(uid: getpwnam(server.user)?.pointee.pw_uid ?? 0)
                    + "/\(pid)"
                #expect(
                    TerminalDriver.waitFor {
                        access("/proc/\(pid)", F_OK) != 0 && access(socket, F_OK) != 0
                            && TestUser.output(of: ["pgrep", "-u", server.user]) == nil
                    }, "left: \(TestUser.output(of: ["ps", "-u", server.user, "-o", "pid,args"]) ?? "")",
                    sourceLocation: sourceLocation)
            }
        }

        @Test(arguments: [WindowSize(rows: 24, columns: 80), WindowSize(rows: 30, columns: 100)])
        func aDroppedConnectionLeavesTheCommandRunningUntilTheNextLoginTakesItBack(size: WindowSize) throws {
            let fixture = try Fixture()
            let (first, pid) = try fixture.startCommand()
            fixture.dropConnection(first)
            // The command goes on, never held up.
            let dropped = fixture.counter
            #expect(TerminalDriver.waitFor { fixture.counter >= dropped + 10 }, "the command stopped counting")
            let list = try TerminalDriver(fixture.server.ssh(["-T"], "\(fixture.server.idlewrap) --list --json"))
            #expect(list.waitForExit(timeout: 60) == .exited(0))
            #expect(list.text.contains("\"state\": \"detached\""), "\(list.text)")
            try fixture.server.directory.write("stop", "", mode: 0o644)
            try SSHServer.run(["cp", fixture.server.directory.file("stop"), fixture.server.home + "/STOP"])
            #expect(TerminalDriver.waitFor { fixture.read("LOG")?.contains("stopped") == true })
            let counted = fixture.counter
            #expect(counted > dropped + 10)

            let second = try fixture.attach(size: size)
            // The lock screen, and nothing of the command's, until the password.
            #expect(second.expect("Password for \(fixture.server.user):"), "\(second.text) \(fixture.server.log)")
            #expect(!second.hasShown("line 1"))
            try second.type("early-typed\r")
            #expect(second.expect("Wrong password"))
            #expect(second.expect("Password for"))
            try second.type("open sesame\r")
            #expect(second.expect("\u{1b}[?1049l"))
            let expected = try fixture.expectedScreen(size: size)
            #expect(
                second.waitUntil { fixture.shown(second, size: size) == expected },
                "\(fixture.shown(second, size: size)) != \(expected)")
            // Typing reaches the command now, and only now.
            try second.type("hello\r")
            #expect(second.expect("got hello"))
            // A session with a terminal is not taken without --take.
            let third = try fixture.attach(size: size, [String(pid)])
            #expect(third.waitForExit(timeout: 60) == .exited(125))
            #expect(third.hasShown("the session has a terminal (--take takes it)"), "\(third.text)")
            try second.type("quit\r")
            #expect(second.waitForExit(timeout: 60) == .exited(7))
            #expect(fixture.read("LOG")?.contains("early-typed") == false)
            fixture.expectNothingLeft(pid)
        }

        @Test func aCommandThatExitedWhileDetachedShowsItsLastScreenAfterThePassword() throws {
            let fixture = try Fixture(exitAtStop: true)
            let (first, pid) = try fixture.startCommand()
            fixture.dropConnection(first)
            try fixture.server.directory.write("stop", "", mode: 0o644)
            try SSHServer.run(["cp", fixture.server.directory.file("stop"), fixture.server.home + "/STOP"])
            #expect(TerminalDriver.waitFor { fixture.read("LOG")?.contains("stopped") == true })
            // Exited, and still there, locked, waiting for the next login.
            #expect(TestUser.output(of: ["pgrep", "-u", fixture.server.user, "-f", "sh script"]) == nil)
            #expect(access("/proc/\(pid)", F_OK) == 0)
            let size = WindowSize(rows: 24, columns: 80)
            let second = try fixture.attach(size: size)
            #expect(second.expect("Password for \(fixture.server.user):"), "\(second.text)")
            try second.type("open sesame\r")
            #expect(second.waitForExit(timeout: 60) == .exited(7))
            let expected = try fixture.expectedScreen(size: size)
            #expect(fixture.shown(second, size: size).dropLast() == expected.dropLast())
            fixture.expectNothingLeft(pid)
        }

        /// Root may lock another user's session, never take it: the kernel names who asks
        /// (SO_PEERCRED), whatever reaches the socket.
        @Test func rootIsRefusedAnotherUsersSession() throws {
            let fixture = try Fixture()
            let (first, pid) = try fixture.startCommand()
            fixture.dropConnection(first)
            let uid = try #require(getpwnam(fixture.server.user)?.pointee.pw_uid)
            let socket = RuntimeDirectory.temporaryDirectory(uid: uid) + "/\(pid)"
            #expect(TerminalDriver.waitFor { access(socket, F_OK) == 0 })
            let connection = try UnixSocket.connect(to: socket)
            defer { try? connection.close() }
            let terminal = try PseudoTerminal()
            let replica = try FileDescriptor.open(terminal.replicaPath, O_RDWR | O_NOCTTY)
            defer { try? replica.close() }
            let request = Array("attach\n".utf8)
            _ = try request.withUnsafeBytes {
                try UnixSocket.send($0, passing: [replica, replica], on: connection)
            }
            try connection.setNonblocking(false)
            var reply = [UInt8](repeating: 0, count: 256)
            let count = try reply.withUnsafeMutableBytes { try connection.read(into: $0) }
            #expect(String(decoding: reply[..<count], as: UTF8.self) == "refused uid 0 is not the session's user\n")
            // The session goes on, detached.
            let counted = fixture.counter
            #expect(TerminalDriver.waitFor { fixture.counter > counted + 3 })
            let list = try TerminalDriver(fixture.server.ssh(["-T"], "\(fixture.server.idlewrap) --list"))
            #expect(list.waitForExit(timeout: 60) == .exited(0))
            #expect(list.text.contains("detached"), "\(list.text)")
            // Once the command is idle, so is the detached session: not one wake-up.
            try fixture.server.directory.write("stop", "", mode: 0o644)
            try SSHServer.run(["cp", fixture.server.directory.file("stop"), fixture.server.home + "/STOP"])
            #expect(TerminalDriver.waitFor { fixture.read("LOG")?.contains("stopped") == true })
            let session = try #require(
                TestUser.output(of: ["pgrep", "-P", String(pid)]).flatMap { pid_t($0.prefix { $0.isNumber }) })
            func switches() -> Int? {
                (try? readFile("/proc/\(session)/status"))?.split(separator: "\n")
                    .first { $0.hasPrefix("voluntary_ctxt_switches:") }
                    .flatMap { Int($0.split(separator: "\t").last ?? "") }
            }
            // The last output's round (and the lock screen's refresh it asked for) first.
            usleep(500_000)
            let before = try #require(switches())
            usleep(3_000_000)
            #expect(switches() == before, "the detached session woke up while idle")
        }
    }
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// --lock-all and --list through the real binary, with sessions of real
    /// users (useradd), run through setpriv in their own terminals.
    @Suite(.enabled(if: TestUser.canBeMade, "needs root to add users")) struct LockAll {
        let idlewrap = TerminalDriver.idlewrap

        /// A wrapped `cat` of `user`'s with a password asked at start, once
        /// its control socket is there; in `namespace` when one is given.
        func session(
            of user: TestUser, options: [String] = ["-t", "0"], command: [String] = ["cat"],
            runtimeDirectory: String = "", registers: Bool = true, in namespace: PrivateRuntime? = nil
        ) throws -> TerminalDriver {
            let arguments = [user.idlewrap, "--auth", "ask"] + options + ["--"] + command
            let terminal =
                try namespace.map { try user.terminal(in: $0, arguments, runtimeDirectory: runtimeDirectory) }
                ?? user.setprivTerminal(arguments, runtimeDirectory: runtimeDirectory)
            try #require(terminal.expect("Lock password:"), "\(terminal.text)")
            try terminal.type("pw\r")
            try #require(terminal.expect("Repeat password:"))
            try terminal.type("pw\r")
            if registers {
                var socket = socketPath(of: terminal, user, runtimeDirectory: runtimeDirectory)
                if let namespace { socket = namespace.hostPath(socket) }
                try #require(terminal.waitUntil { access(socket, F_OK) == 0 }, "no \(socket): \(terminal.text)")
            }
            // The socket is there before the session process is: a signal or a key sent
            // now would meet the start-up.
            try #require(terminal.waitForAttributes { !$0.isCanonical })
            return terminal
        }

        func socketPath(of terminal: TerminalDriver, _ user: TestUser, runtimeDirectory: String = "") -> String {
            let directory = runtimeDirectory.isEmpty ? user.runtimeDirectory : runtimeDirectory + "/idlewrap"
            return "\(directory)/\(terminal.process.pid)"
        }

        /// What is typed reaches cat, which writes it back: not locked.
        func expectRelays(_ terminal: TerminalDriver, _ text: String = "still open") throws {
            try terminal.type(text + "\r")
            #expect(terminal.expect("\(text)\r\n\(text)"), "\(terminal.text)")
        }

        func unlock(_ terminal: TerminalDriver) throws {
            try terminal.type("pw\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
        }

        func end(_ terminal: TerminalDriver) {
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
        }

        @Test(.enabled(if: PrivateRuntime.isAvailable, "needs mount namespaces with unshare and nsenter (util-linux)"))
        func lockAllLocksEverySessionOfTheUserAndNoOneElses() throws {
            let alice = try TestUser(password: nil)
            let bob = try TestUser(password: nil)
            // Root's --all-users sees only these sessions: no other test's.
            let namespace = try PrivateRuntime(keeping: [alice.directory.path, bob.directory.path])
            let first = try session(of: alice, in: namespace)
            let second = try session(of: alice, in: namespace)
            let bobs = try session(of: bob, in: namespace)

            let locked = try alice.runToEnd(in: namespace, [alice.idlewrap, "--lock-all"])
            #expect(locked.status == .exited(0))
            #expect(locked.text == "locked 2 sessions\n")
            #expect(first.expect("Password for \(alice.name):"))
            #expect(second.expect("Password for \(alice.name):"))
            try expectRelays(bobs)
            #expect(!bobs.hasShown("Password for"))

            // Bob may not even ask about Alice's sessions.
            let refused = try bob.runToEnd(in: namespace, [bob.idlewrap, "--lock-all", "--user", alice.name])
            #expect(refused.status == .exited(125))
            #expect(refused.text == "idlewrap: only root can reach another user's sessions\n")
            let refusedList = try bob.runToEnd(in: namespace, [bob.idlewrap, "--list", "--all-users"])
            #expect(refusedList.status == .exited(125))
            #expect(refusedList.text == "idlewrap: only root can use --all-users\n")
            try expectRelays(bobs, "still mine")

            // Root reaches any user's: one user, then everyone.
            let rootForBob = TestUser.result(of: namespace.command([idlewrap, "--lock-all", "--user", bob.name]))
            #expect(rootForBob.status == .exited(0))
            #expect(rootForBob.text == "locked 1 session\n")
            #expect(bobs.expect("Password for \(bob.name):"))
            for terminal in [first, second, bobs] { try unlock(terminal) }
            let rootForAll = TestUser.result(of: namespace.command([idlewrap, "--lock-all", "--all-users"]))
            #expect(rootForAll.status == .exited(0), "\(rootForAll.text)")
            #expect(rootForAll.text == "locked 3 sessions\n")
            #expect(first.expect("Password for \(alice.name):"))
            #expect(second.expect("Password for \(alice.name):"))
            #expect(bobs.expect("Password for \(bob.name):"))
            for terminal in [first, second, bobs] { end(terminal) }

            // With no session left there is nothing to lock: pkill's 1.
            let none = try alice.runToEnd(in: namespace, [alice.idlewrap, "--lock-all"])
            #expect(none.status == .exited(1))
            #expect(none.text == "locked 0 sessions\n")
        }

        @Test func lockAllFromInsideAWrappedShellLocksItsOwnSessionToo() throws {
            let alice = try TestUser(password: nil)
            let other = try session(of: alice)
            let shell = try session(of: alice, command: ["/bin/sh"])
            try shell.type("'\(alice.idlewrap)' --lock-all\r")
            #expect(shell.expect("Password for \(alice.name):"))
            #expect(other.expect("Password for \(alice.name):"))
            // Its answer was held while locked, and comes after the unlock.
            try unlock(shell)
            #expect(shell.expect("locked 2 sessions"))
            end(shell)
            end(other)
        }

        @Test(.requires(.python3)) func aConnectionFromAnotherUserGetsNothing() throws {
            let alice = try TestUser(password: nil)
            let bob = try TestUser(password: nil)
            let terminal = try session(of: alice)
            let socket = socketPath(of: terminal, alice)
            // The directory's mode keeps Bob out; open the way to check that
            // the session itself refuses him (SO_PEERCRED).
            #expect(chmod(alice.runtimeDirectory, 0o711) == 0)
            #expect(chmod(socket, 0o777) == 0)
            defer { chmod(alice.runtimeDirectory, 0o700) }
            let script = """
                import socket, sys
                s = socket.socket(socket.AF_UNIX)
                s.connect(sys.argv[2])
                s.settimeout(20)
                try:
                    s.sendall(sys.argv[1].encode() + b"\\n")
                    reply = s.recv(4096)
                except (BrokenPipeError, ConnectionResetError):
                    # Closed before or after reading the request: no answer either way.
                    reply = b""
                print("reply", repr(reply))
                """
            for request in ["lock", "status"] {
                let attempt = try bob.runToEnd(["/usr/bin/python3", "-c", script, request, socket])
                #expect(attempt.status == .exited(0), "\(attempt.text)")
                #expect(attempt.text == "reply b''\n")
            }
            try expectRelays(terminal)
            // The same request from Alice is answered.
            let answered = try alice.runToEnd(["/usr/bin/python3", "-c", script, "status", socket])
            #expect(answered.text.contains("state unlocked"), "\(answered.text)")
            end(terminal)
        }

        @Test(.requires(.python3)) func listShowsEachSessionInBothFormats() throws {
            let alice = try TestUser(password: nil)
            let locked = try session(of: alice, options: ["-t", "0"])
            // Named by its program, never its arguments (they may hold secrets).
            let open = try session(of: alice, options: ["-t", "10m"], command: ["/bin/cat", "-"])
            locked.signal(SIGUSR1)
            #expect(locked.expect("Password for"))

            let table = try alice.runToEnd([alice.idlewrap, "--list"])
            #expect(table.status == .exited(0))
            let lines = table.text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(lines.first == ["PID", "TTY", "USER", "COMMAND", "IDLE", "STATE", "LOCKS", "IN"])
            func row(_ terminal: TerminalDriver) -> [String]? {
                lines.first { $0.first == String(terminal.process.pid) }
            }
            let tty = { (terminal: TerminalDriver) in String(terminal.terminal.replicaPath.dropFirst("/dev/".count)) }
            #expect(lines.count == 3, "\(table.text)")
            let lockedRow = try #require(row(locked), "\(table.text)")
            #expect(Array(lockedRow[1...3]) == [tty(locked), alice.name, "cat"])
            #expect(lockedRow[4].hasSuffix("s"))
            #expect(Array(lockedRow[5...]) == ["locked", "-"])
            let openRow = try #require(row(open), "\(table.text)")
            #expect(Array(openRow[1...3]) == [tty(open), alice.name, "cat"])
            #expect(openRow[5] == "unlocked")
            #expect(["10m00s", "9m59s", "9m58s", "9m57s"].contains(openRow[6]), "\(openRow)")

            let json = try alice.runToEnd([alice.idlewrap, "--list", "--json"])
            #expect(json.status == .exited(0))
            let directory = try TemporaryDirectory()
            let file = try directory.write("list.json", json.text, mode: 0o644)
            let valid = TestUser.result(of: ["/usr/bin/python3", "-m", "json.tool", file])
            #expect(valid.status == .exited(0), "\(json.text)")
            let fields = TestUser.result(of: [
                "/usr/bin/python3", "-c",
                """
                import json, sys
                for s in json.load(open(sys.argv[1])):
                    print(sorted(s), s["pid"], s["terminal"], s["user"], s["command"], s["locked"], s["locks_in_seconds"], type(s["idle_seconds"]).__name__)
                """, file,
            ])
            let keys =
                "['command', 'detached_since', 'idle_seconds', 'locked', 'locks_in_seconds', 'pid', 'state', 'terminal', 'user']"
            let parsed = fields.text.split(separator: "\n").map(String.init)
            #expect(parsed.count == 2, "\(fields.text)")
            #expect(
                parsed.contains(
                    "\(keys) \(locked.process.pid) \(locked.terminal.replicaPath) \(alice.name) cat True None int"),
                "\(fields.text)")
            let openLine = parsed.first { $0.contains(" \(open.process.pid) ") } ?? ""
            #expect(
                openLine.hasPrefix("\(keys) \(open.process.pid) \(open.terminal.replicaPath) \(alice.name) cat False "))
            let locksIn = Int(openLine.split(separator: " ").dropLast().last ?? "") ?? 0
            #expect((590...600).contains(locksIn), "\(openLine)")
            end(locked)
            end(open)
        }

        @Test func staleSocketsAreCleanedAndASilentClientStallsNothing() throws {
            let alice = try TestUser(password: nil)
            let terminal = try session(of: alice)
            // A session killed by SIGKILL leaves its socket with nobody listening.
            let stale = "\(alice.runtimeDirectory)/999999"
            try? UnixSocket.listen(at: stale).close()
            #expect(lchown(stale, alice.uid, alice.gid) == 0)

            // A client (root, so it passes SO_PEERCRED) that connects and says nothing.
            let silent = try UnixSocket.connect(to: socketPath(of: terminal, alice))
            defer { try? silent.close() }
            try expectRelays(terminal, "typed while a client waits")
            let list = try alice.runToEnd([alice.idlewrap, "--list"])
            #expect(list.status == .exited(0))
            #expect(list.text.split(separator: "\n").count == 2, "\(list.text)")
            #expect(access(stale, F_OK) != 0, "the stale socket is still there")
            // More silent clients than the session serves at once.
            var crowd: [FileDescriptor] = []
            defer { for connection in crowd { try? connection.close() } }
            for _ in 0..<(ControlServer.maximumConnections + 4) {
                crowd.append(try UnixSocket.connect(to: socketPath(of: terminal, alice)))
            }
            try expectRelays(terminal, "typed in a crowd")
            // The session gives up on each silent client, without an answer.
            for connection in [silent] + crowd {
                var slot = pollfd(fd: connection.rawValue, events: Int16(POLLIN), revents: 0)
                #expect(poll(&slot, 1, 20_000) == 1)
                var byte: UInt8 = 0
                #expect(read(connection.rawValue, &byte, 1) <= 0, "closed without an answer")
            }
            try expectRelays(terminal, "and after")
            let later = try alice.runToEnd([alice.idlewrap, "--list"])
            #expect(later.status == .exited(0), "\(later.text)")
            end(terminal)
        }

        @Test func aRuntimeDirectoryOfTheUsersOwnIsUsed() throws {
            let alice = try TestUser(password: nil)
            let runtime = try TemporaryDirectory()
            #expect(chown(runtime.path, alice.uid, alice.gid) == 0)
            #expect(chmod(runtime.path, 0o700) == 0)
            let terminal = try session(of: alice, runtimeDirectory: runtime.path)
            let info = try FileSystem.status(ofPath: runtime.path + "/idlewrap", followingLinks: false)
            #expect(info.st_uid == alice.uid && info.st_mode & 0o777 == 0o700)
            #expect(access(alice.runtimeDirectory, F_OK) != 0, "registered in /tmp as well")
            let locked = try alice.runToEnd([alice.idlewrap, "--lock-all"], runtimeDirectory: runtime.path)
            #expect(locked.text == "locked 1 session\n")
            #expect(terminal.expect("Password for \(alice.name):"))
            end(terminal)
            #expect(access(socketPath(of: terminal, alice, runtimeDirectory: runtime.path), F_OK) != 0)
        }

        @Test func anUnsafeDirectoryIsRefusedAndTheSessionRunsAllTheSame() throws {
            let alice = try TestUser(password: nil)
            // Alice's own, but open to others.
            #expect(mkdir(alice.runtimeDirectory, 0o755) == 0)
            #expect(chown(alice.runtimeDirectory, alice.uid, alice.gid) == 0)
            #expect(chmod(alice.runtimeDirectory, 0o755) == 0)
            // And an XDG_RUNTIME_DIR that is not hers: neither is used.
            let notHers = try TemporaryDirectory()
            let terminal = try session(of: alice, runtimeDirectory: notHers.path, registers: false)
            #expect(
                terminal.expect(
                    "idlewrap: not registering for --lock-all and --list: \(alice.runtimeDirectory) does not have mode 0700"
                ))
            try expectRelays(terminal)
            #expect(try FileSystem.entries(ofDirectory: alice.runtimeDirectory).isEmpty)
            #expect(access(notHers.path + "/idlewrap", F_OK) != 0)
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for \(alice.name):"))
            end(terminal)
        }

        @Test func theSocketGoesOnEveryWayOut() throws {
            let alice = try TestUser(password: nil)
            // The command exits.
            let exiting = try session(of: alice)
            let exitingSocket = socketPath(of: exiting, alice)
            try exiting.type([0x04])
            #expect(exiting.waitForExit() == .exited(0))
            #expect(access(exitingSocket, F_OK) != 0)
            // idlewrap is signalled.
            let signalled = try session(of: alice)
            let signalledSocket = socketPath(of: signalled, alice)
            end(signalled)
            #expect(access(signalledSocket, F_OK) != 0)
            // --kill-after ends a locked session.
            let killed = try session(of: alice, options: ["-t", "0", "--kill-after", "1"])
            let killedSocket = socketPath(of: killed, alice)
            let locked = try alice.runToEnd([alice.idlewrap, "--lock-all"])
            #expect(locked.text == "locked 1 session\n")
            #expect(killed.waitForExit() == .exited(129))
            #expect(access(killedSocket, F_OK) != 0)
        }
    }
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// What root's --lock-all and --list make of runtime directories and sockets
    /// that other users control: real users (useradd), hostile programs of
    /// theirs, and the real binary, all in a mount namespace of the test's own
    /// whose /tmp and /run/user only they use (`PrivateRuntime`).
    @Suite(.usersInPrivateRuntime, .requires(.python3))
    struct ControlSocket {
        let idlewrap = TerminalDriver.idlewrap

        /// `user`'s wrapped `cat` with a password asked at start, once its
        /// control socket is there (at `/tmp/idlewrap-UID/PID`, no XDG_RUNTIME_DIR).
        func session(of user: TestUser, in namespace: PrivateRuntime, options: [String] = ["-t", "0"])
            throws -> TerminalDriver
        {
            let terminal = try user.terminal(
                in: namespace, [user.idlewrap, "--auth", "ask"] + options + ["--", "cat"])
            try #require(terminal.expect("Lock password:"), "\(terminal.text)")
            try terminal.type("pw\r")
            try #require(terminal.expect("Repeat password:"))
            try terminal.type("pw\r")
            let socket = namespace.hostPath("\(user.runtimeDirectory)/\(terminal.process.pid)")
            try #require(terminal.waitUntil { access(socket, F_OK) == 0 }, "no \(socket): \(terminal.text)")
            // The socket is there before the session process is.
            try #require(terminal.waitForAttributes { !$0.isCanonical })
            return terminal
        }

        /// Root's idlewrap with `arguments` in `namespace`, to its end.
        func asRoot(_ arguments: [String], in namespace: PrivateRuntime) throws
            -> (status: TerminationStatus?, text: String, seconds: Double)
        {
            let started = MonotonicInstant.now()
            let driver = try TerminalDriver(
                namespace.command([idlewrap] + arguments), environment: ["XDG_RUNTIME_DIR": ""])
            let status = driver.waitForExit(timeout: 60)
            return (status, driver.text.replacing("\r\n", with: "\n"), (MonotonicInstant.now() - started).inSeconds)
        }

        /// Starts root's `--lock-all --all-users` in `namespace` and waits for
        /// `session` of `user` to lock: how many seconds that took, and the
        /// --lock-all, still running or not.
        func lockAllAsRoot(in namespace: PrivateRuntime, waitingFor session: TerminalDriver, of user: TestUser)
            throws -> (seconds: Double, locker: TerminalDriver)
        {
            let started = MonotonicInstant.now()
            let locker = try TerminalDriver(
                namespace.command([idlewrap, "--lock-all", "--all-users"]), environment: ["XDG_RUNTIME_DIR": ""])
            #expect(session.expect("Password for \(user.name):", timeout: 30))
            return ((MonotonicInstant.now() - started).inSeconds, locker)
        }

        /// A python3 program of `user`'s in `namespace`, started, once it printed `ready`.
        func program(of user: TestUser, in namespace: PrivateRuntime, _ script: String, _ arguments: [String] = [])
            throws -> TerminalDriver
        {
            let file = try user.directory.write("program-\(UInt32.random(in: 0...999_999)).py", script, mode: 0o644)
            let driver = try user.terminal(in: namespace, ["/usr/bin/python3", file] + arguments)
            try #require(driver.expect("ready"), "\(driver.text)")
            return driver
        }

        @Test func rootNeverDeletesThroughADirectoryTheUserSwappedForALink() throws {
            let alice = try TestUser(password: nil)
            let namespace = try PrivateRuntime(keeping: [alice.directory.path])
            // A root-owned directory with a file named like a session's socket.
            let victim = "/tmp/victim"
            #expect(mkdir(namespace.hostPath(victim), 0o755) == 0)
            let file = namespace.hostPath("\(victim)/4194000")
            #expect(creat(file, 0o644) >= 0)
            // Alice's first socket accepts and stays silent; once root is on
            // it, her directory becomes a link to the victim, in which root's
            // next connection meets a file that refuses it.
            let attacker = try program(
                of: alice, in: namespace,
                """
                import os, socket, sys, time
                directory = "/tmp/idlewrap-%d" % os.getuid()
                os.mkdir(directory, 0o700)
                silent = socket.socket(socket.AF_UNIX); silent.bind(directory + "/1"); silent.listen(8)
                left = socket.socket(socket.AF_UNIX); left.bind(directory + "/4194000"); left.close()
                print("ready", flush=True)
                connection, _ = silent.accept()
                os.rename(directory, directory + ".old")
                os.symlink(sys.argv[1], directory)
                print("swapped", flush=True)
                time.sleep(60)
                """, [victim])
            let locked = try asRoot(["--lock-all", "--all-users"], in: namespace)
            #expect(attacker.expect("swapped", timeout: 5), "\(attacker.text)")
            #expect(access(file, F_OK) == 0, "root deleted \(victim)/4194000: \(locked.text)")
            #expect(locked.status == .exited(125), "\(locked.text)")
        }

        @Test func silentSocketsOfOneUserDoNotHoldUpAnother() throws {
            let alice = try TestUser(password: nil)
            let bob = try TestUser(password: nil)
            let namespace = try PrivateRuntime(keeping: [alice.directory.path, bob.directory.path])
            // Alice's uid comes first: she is asked first.
            #expect(alice.uid < bob.uid)
            let bobs = try session(of: bob, in: namespace)
            // Six sockets that accept and never answer.
            let silent = try program(
                of: alice, in: namespace,
                """
                import os, socket, time
                directory = "/tmp/idlewrap-%d" % os.getuid()
                os.mkdir(directory, 0o700)
                listeners = []
                for name in range(1, 7):
                    s = socket.socket(socket.AF_UNIX); s.bind("%s/%d" % (directory, name)); s.listen(8)
                    listeners.append(s)
                print("ready", flush=True)
                time.sleep(120)
                """)
            let (seconds, locker) = try lockAllAsRoot(in: namespace, waitingFor: bobs, of: bob)
            // Before, each silent socket had 3 s of patience, one after another.
            #expect(seconds < ControlTiming.oneWait, "Bob's session locked only after \(seconds) s")
            #expect(locker.waitForExit() == .exited(125), "\(locker.text)")
            silent.signal(SIGTERM)
        }

        @Test func stoppedSessionsAreAskedAtOnceUnderOneDeadline() throws {
            let alice = try TestUser(password: nil)
            let bob = try TestUser(password: nil)
            let namespace = try PrivateRuntime(keeping: [alice.directory.path, bob.directory.path])
            #expect(alice.uid < bob.uid)
            var stopped: [TerminalDriver] = []
            for _ in 0..<6 { stopped.append(try session(of: alice, in: namespace)) }
            for terminal in stopped { terminal.signalJob(SIGSTOP) }
            defer { for terminal in stopped { terminal.signalJob(SIGCONT) } }
            let bobs = try session(of: bob, in: namespace)
            let started = MonotonicInstant.now()
            let (seconds, locker) = try lockAllAsRoot(in: namespace, waitingFor: bobs, of: bob)
            #expect(seconds < ControlTiming.oneWait, "Bob's session locked only after \(seconds) s")
            #expect(locker.waitForExit(timeout: 60) == .exited(125), "\(locker.text)")
            let total = (MonotonicInstant.now() - started).inSeconds
            // One deadline for all, not one for each of the six.
            #expect(total < 2 * ControlTiming.oneWait, "--lock-all took \(total) s")
            let text = locker.text.replacing("\r\n", with: "\n")
            #expect(text.contains("locked 1 session\n"), "\(text)")
            for terminal in stopped {
                #expect(text.contains("/\(terminal.process.pid): no answer within 3 s"), "\(text)")
            }
        }

        @Test func rootTakesTheUserAndThePidFromTheKernelNotFromTheReply() throws {
            let alice = try TestUser(password: nil)
            let namespace = try PrivateRuntime(keeping: [alice.directory.path])
            _ = try namespace.makeUserRuntimeDirectory(of: alice)
            // A program named idlewrap (a copy of python3) that claims to be
            // root's session, under its own pid in both of Alice's directories
            // and under two more names.
            let fake = alice.directory.file("idlewrap-fake/idlewrap")
            #expect(mkdir(alice.directory.file("idlewrap-fake"), 0o755) == 0)
            #expect(TestUser.run(["/bin/cp", "/usr/bin/python3", fake]))
            let script = try alice.directory.write(
                "fake.py",
                """
                import os, select, socket, time
                pid = os.getpid()
                names = []
                for directory in ["/tmp/idlewrap-%d" % os.getuid(), "/run/user/%d/idlewrap" % os.getuid()]:
                    os.mkdir(directory, 0o700)
                    names.append("%s/%d" % (directory, pid))
                names += ["/tmp/idlewrap-%d/1" % os.getuid(), "/tmp/idlewrap-%d/2" % os.getuid()]
                listeners = []
                for name in names:
                    s = socket.socket(socket.AF_UNIX); s.bind(name); s.listen(8); listeners.append(s)
                print("ready", flush=True)
                status = "pid 1\\nterminal /dev/pts/99\\nuser root\\ncommand sshd\\nidle 0\\nstate unlocked\\nlocks-in none\\n"
                while True:
                    for s in select.select(listeners, [], [])[0]:
                        connection, _ = s.accept()
                        try:
                            request = connection.recv(64)
                            connection.sendall(b"locked\\n" if request == b"lock\\n" else status.encode())
                        except OSError:
                            pass
                        connection.close()
                """, mode: 0o644)
            let program = try alice.terminal(in: namespace, [fake, script])
            try #require(program.expect("ready"), "\(program.text)")
            let pid = program.process.pid

            let list = try asRoot(["--list", "--all-users"], in: namespace)
            let rows = list.text.split(separator: "\n").filter { !$0.hasPrefix("idlewrap:") }.dropFirst()
            #expect(rows.count == 1, "\(list.text)")
            let fields = rows.first?.split(separator: " ").map(String.init) ?? []
            #expect(fields.first == String(pid), "\(list.text)")
            #expect(fields.count > 2 && fields[2] == alice.name, "\(list.text)")
            #expect(!list.text.contains(" root "), "\(list.text)")
            #expect(list.text.contains("/tmp/idlewrap-\(alice.uid)/1: "), "\(list.text)")
            #expect(list.status == .exited(125))

            let locked = try asRoot(["--lock-all", "--all-users"], in: namespace)
            #expect(locked.text.contains("locked 1 session\n"), "\(locked.text)")
        }

        /// Root believes an answer only from a process that is idlewrap, as the kernel names
        /// the sender with the answer: a listener named idlewrap under its own pid that hands
        /// its socket to another program (python3) to answer is refused.
        @Test func rootBelievesOnlyAnAnswerThatAnIdlewrapSent() throws {
            let alice = try TestUser(password: nil)
            let namespace = try PrivateRuntime(keeping: [alice.directory.path])
            let fake = alice.directory.file("idlewrap-fake/idlewrap")
            #expect(mkdir(alice.directory.file("idlewrap-fake"), 0o755) == 0)
            #expect(TestUser.run(["/bin/cp", "/usr/bin/python3", fake]))
            let script = try alice.directory.write(
                "handing.py",
                """
                import os, socket, time
                directory = "/tmp/idlewrap-%d" % os.getuid()
                os.mkdir(directory, 0o700)
                s = socket.socket(socket.AF_UNIX); s.bind("%s/%d" % (directory, os.getpid())); s.listen(8)
                os.set_inheritable(s.fileno(), True)
                answer = "import socket, sys\\ns = socket.socket(fileno=int(sys.argv[1]))\\nwhile True:\\n"
                answer += " c, _ = s.accept(); c.recv(64); c.sendall(b'locked\\\\n'); c.close()\\n"
                if os.fork() == 0:
                    os.execv("/usr/bin/python3", ["python3", "-c", answer, str(s.fileno())])
                print("ready", flush=True)
                time.sleep(120)
                """, mode: 0o644)
            let program = try alice.terminal(in: namespace, [fake, script])
            try #require(program.expect("ready"), "\(program.text)")
            let locked = try asRoot(["--lock-all", "--user", alice.name], in: namespace)
            #expect(locked.status == .exited(125), "\(locked.text)")
            #expect(locked.text.contains("is not idlewrap"), "\(locked.text)")
            #expect(!locked.text.contains("locked 1 session"), "\(locked.text)")
        }

        @Test func aPlantedRuntimeDirectoryIsSaidLoudly() throws {
            let alice = try TestUser(password: nil)
            let bob = try TestUser(password: nil)
            let logger = try FakeSyslog()
            let namespace = try PrivateRuntime(keeping: [alice.directory.path, bob.directory.path], syslog: logger)
            // Bob makes Alice's directory first.
            let planted = namespace.hostPath(alice.runtimeDirectory)
            #expect(mkdir(planted, 0o700) == 0 && chown(planted, bob.uid, bob.gid) == 0)
            let problem = "\(alice.runtimeDirectory) is not owned by uid \(alice.uid)"

            // -q does not hide it.
            let terminal = try alice.terminal(
                in: namespace, [alice.idlewrap, "-q", "--auth", "ask", "-t", "0", "--", "cat"])
            try #require(terminal.expect("Lock password:"), "\(terminal.text)")
            try terminal.type("pw\r")
            try #require(terminal.expect("Repeat password:"))
            try terminal.type("pw\r")
            #expect(terminal.expect("not registering for --lock-all and --list: \(problem)"), "\(terminal.text)")
            var records: [String] = []
            #expect(
                terminal.waitUntil {
                    records += logger.messages()
                    return records.contains {
                        $0.hasPrefix("<84>") && $0.contains("not registered for --lock-all and --list: \(problem)")
                    }
                }, "\(records)")

            for command in ["--lock-all", "--list"] {
                let result = try alice.runToEnd(in: namespace, [alice.idlewrap, command])
                #expect(result.status == .exited(125), "\(command): \(result.text)")
                #expect(result.text.contains("idlewrap: \(problem)"), "\(command): \(result.text)")
            }
            let rootsList = try asRoot(["--list", "--all-users"], in: namespace)
            #expect(rootsList.status == .exited(125), "\(rootsList.text)")
            #expect(rootsList.text.contains(problem), "\(rootsList.text)")
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
        }

        @Test func aSocketOfALiveProcessThatDoesNotListenYetIsNotRemoved() throws {
            let alice = try TestUser(password: nil)
            let namespace = try PrivateRuntime(keeping: [alice.directory.path])
            // Bound, not listening yet: a session in the middle of starting.
            let program = try program(
                of: alice, in: namespace,
                """
                import os, socket, time
                directory = "/tmp/idlewrap-%d" % os.getuid()
                os.mkdir(directory, 0o700)
                s = socket.socket(socket.AF_UNIX); s.bind("%s/%d" % (directory, os.getpid()))
                print("ready", flush=True)
                time.sleep(60)
                """)
            let socket = namespace.hostPath("\(alice.runtimeDirectory)/\(program.process.pid)")
            #expect(access(socket, F_OK) == 0)
            let locked = try alice.runToEnd(in: namespace, [alice.idlewrap, "--lock-all"])
            #expect(locked.text == "locked 0 sessions\n")
            #expect(access(socket, F_OK) == 0, "the socket of a live process was removed as stale")
        }
    }
}

/// How long root's --lock-all waits for sessions, in seconds, as the tests
/// measure it.
enum ControlTiming {
    static let oneWait = ControlClient.patience.inSeconds
}

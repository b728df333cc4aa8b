import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// A detached session (`--detach hangup`) and what is around it: the runtime directory
    /// logind removes, the system log, and what other programs put in or against its control
    /// socket for `--attach`. Real users (useradd) in a mount namespace of the test's own
    /// whose /tmp, /run/user and /dev/log only they see (`PrivateRuntime`, `FakeSyslog`).
    @Suite(.usersInPrivateRuntime, .requires(.python3))
    struct DetachRuntime {
        static let sshConnection = "192.0.2.7 51000 192.0.2.1 22"
        let alice: TestUser
        let logger: FakeSyslog
        let namespace: PrivateRuntime
        /// Alice's /run/user/UID, as pam_systemd makes it at her login.
        let runtime: String

        init() throws {
            alice = try TestUser(password: nil)
            logger = try FakeSyslog()
            namespace = try PrivateRuntime(keeping: [alice.directory.path], syslog: logger)
            runtime = try namespace.makeUserRuntimeDirectory(of: alice)
        }

        /// `arguments` as `user` in the namespace, logged in over ssh with a runtime
        /// directory (when there is one).
        func terminal(_ user: TestUser, _ arguments: [String]) throws -> TerminalDriver {
            try TerminalDriver(
                namespace.command(
                    ["setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--init-groups", "--"] + arguments),
                environment: [
                    "XDG_RUNTIME_DIR": access(namespace.hostPath(runtime), F_OK) == 0 ? runtime : "",
                    "XDG_CONFIG_HOME": "", "HOME": "/", "USER": user.name, "LOGNAME": user.name,
                    "SSH_CONNECTION": Self.sshConnection,
                ])
        }

        /// Alice's `sh` that says `ready` and echoes every line it reads as `got LINE`, in a
        /// session that detaches at a hang-up; the lock's password is "open sesame".
        func startSession() throws -> TerminalDriver {
            let session = try terminal(
                alice,
                [
                    alice.idlewrap, "--auth", "ask", "--detach", "hangup", "-t", "0", "--",
                    "sh", "-c", "echo ready; while read -r line; do echo \"got $line\"; done",
                ])
            for prompt in ["Lock password:", "Repeat password:"] {
                try #require(session.expect(prompt), "\(session.text)")
                try session.type("open sesame\r")
            }
            try #require(session.expect("ready"), "\(session.text)")
            try #require(session.waitUntil { access(socket(of: session), F_OK) == 0 }, "no socket: \(session.text)")
            return session
        }

        /// Where the test finds the session's socket: in /tmp, which logind leaves alone.
        func socket(of session: TerminalDriver) -> String {
            namespace.hostPath("\(alice.runtimeDirectory)/\(session.process.pid)")
        }

        /// The terminal goes away as the kernel says it (SIGHUP to the process the login
        /// started); the session detaches, which `--list` shows.
        func detach(_ session: TerminalDriver) throws {
            session.signal(SIGHUP)
            #expect(
                TerminalDriver.waitFor {
                    (try? run(alice, [alice.idlewrap, "--list"]))?.text.contains("detached") == true
                }, "the session does not detach")
        }

        /// Runs `arguments` as `user` to the end.
        func run(_ user: TestUser, _ arguments: [String]) throws -> (status: TerminationStatus?, text: String) {
            let driver = try terminal(user, arguments)
            let status = driver.waitForExit(timeout: 60)
            return (status, driver.text.replacing("\r\n", with: "\n"))
        }

        /// Alice's `--attach`, through the password, to the command's screen.
        func attachAndUnlock() throws -> TerminalDriver {
            let attached = try terminal(alice, [alice.idlewrap, "--attach"])
            #expect(attached.expect("Password for \(alice.name):"), "\(attached.text)")
            try attached.type("open sesame\r")
            #expect(attached.expect("\u{1b}[?1049l"), "\(attached.text)")
            try attached.type("hello\r")
            #expect(attached.expect("got hello"), "\(attached.text)")
            return attached
        }

        /// The records the logger got so far, with those of before.
        func records(_ kept: inout [String], containing needle: String) -> Bool {
            kept += logger.messages()
            return kept.contains { $0.contains(needle) }
        }

        /// logind ends Alice's last login: her runtime directory goes (its tmpfs unmounted
        /// and the directory removed). The detached session, registered in /tmp, lives on.
        @Test func aDetachedSessionOutlivesTheRuntimeDirectory() throws {
            let session = try startSession()
            try detach(session)
            #expect(TestUser.run(["rm", "-rf", namespace.hostPath(runtime)]))
            #expect(access(socket(of: session), F_OK) == 0)
            let attached = try attachAndUnlock()
            #expect(access(socket(of: session), F_OK) == 0)
            try attached.type("\u{04}")
            #expect(attached.waitForExit(timeout: 60) == .exited(0), "\(attached.text)")
            #expect(TerminalDriver.waitFor { access(socket(of: session), F_OK) != 0 }, "the socket is left")
        }

        /// Detaching, attaching and a refused attach reach the system log, with the user,
        /// the command and the ssh connection; root, who may lock Alice's session, may not
        /// take it, and that is logged too.
        @Test func detachingAndAttachingAreLogged() throws {
            let session = try startSession()
            try detach(session)
            var kept: [String] = []
            let detached = "detached: user=\(alice.name) tty=/dev/pts/"
            #expect(session.waitUntil { records(&kept, containing: detached) }, "\(kept)")
            let record = kept.first { $0.contains(detached) } ?? ""
            // authpriv notice.
            #expect(record.hasPrefix("<85>"), "\(record)")
            #expect(record.hasSuffix("command='sh' ssh='\(Self.sshConnection)'"), "\(record)")

            let connection = try UnixSocket.connect(to: socket(of: session))
            defer { try? connection.close() }
            let terminal = try PseudoTerminal()
            let replica = try FileDescriptor.open(terminal.replicaPath, O_RDWR | O_NOCTTY)
            defer { try? replica.close() }
            _ = try Array("attach\n".utf8).withUnsafeBytes {
                try UnixSocket.send($0, passing: [replica, replica], on: connection)
            }
            let refused = "attach refused: uid 0 is not the session's user (pid \(getpid()), uid 0): user=\(alice.name)"
            #expect(session.waitUntil { records(&kept, containing: refused) }, "\(kept)")
            #expect(kept.first { $0.contains(refused) }?.hasPrefix("<84>") == true, "\(kept)")

            let attached = try attachAndUnlock()
            #expect(attached.waitUntil { records(&kept, containing: "attached (pid ") }, "\(kept)")
            try attached.type("\u{04}")
            #expect(attached.waitForExit(timeout: 60) == .exited(0), "\(attached.text)")
        }

        /// What another user may have left where Alice's sessions register, before her
        /// first one: `--attach` names it and uses nothing in it.
        @Test(arguments: ["another user's directory", "a link to another user's directory", "mode 0755"])
        func aPlantedDirectoryIsRefusedByName(planted: String) throws {
            let bob = try TestUser(password: nil)
            let directory = alice.runtimeDirectory
            let host = namespace.hostPath(directory)
            let bobs = namespace.hostPath("/tmp/bobs")
            #expect(mkdir(bobs, 0o700) == 0 && chown(bobs, bob.uid, bob.gid) == 0)
            let problem: String
            switch planted {
            case "another user's directory":
                #expect(mkdir(host, 0o700) == 0 && chown(host, bob.uid, bob.gid) == 0)
                problem = "\(directory) is not owned by uid \(alice.uid)"
            case "a link to another user's directory":
                #expect(symlink(bobs, host) == 0)
                problem = "\(directory) is not a directory"
            default:
                #expect(mkdir(host, 0o755) == 0 && chown(host, alice.uid, alice.gid) == 0 && chmod(host, 0o755) == 0)
                problem = "\(directory) does not have mode 0700"
            }
            let result = try run(alice, [alice.idlewrap, "--attach"])
            #expect(result.status == .exited(125), "\(result.text)")
            #expect(result.text.contains("idlewrap: \(problem)\n"), "\(result.text)")
        }

        /// A python3 program of Alice's in the namespace, started, once it printed `ready`.
        func program(_ script: String, _ arguments: [String] = []) throws -> TerminalDriver {
            let file = try alice.directory.write("program-\(UInt32.random(in: 0...999_999)).py", script, mode: 0o644)
            let driver = try terminal(alice, ["/usr/bin/python3", file] + arguments)
            try #require(driver.expect("ready"), "\(driver.text)")
            return driver
        }

        /// In the directory itself: a socket named by a pid that another process listens on,
        /// and a link named by a pid to the session's real socket. `--attach` says why it
        /// will not use either, and passes its terminal to neither.
        @Test func aPlantedSocketOrLinkNeverGetsTheTerminal() throws {
            let session = try startSession()
            let planted = try program(
                """
                import os, socket, sys
                directory = "/tmp/idlewrap-%d" % os.getuid()
                os.symlink(sys.argv[1], directory + "/4194001")
                s = socket.socket(socket.AF_UNIX); s.bind(directory + "/4194002"); s.listen(8)
                print("ready", flush=True)
                while True:
                    connection, _ = s.accept()
                    message, descriptors, _, _ = socket.recv_fds(connection, 64, 4)
                    if message or descriptors:
                        print("got %r with %d descriptors" % (message, len(descriptors)), flush=True)
                    connection.close()
                """, ["\(alice.runtimeDirectory)/\(session.process.pid)"])
            // Each names the planted socket (which might have been the session asked for).
            let problem =
                "idlewrap: \(alice.runtimeDirectory)/4194002: answered by process \(planted.process.pid), "
                + "not by process 4194002\n"
            let link = try run(alice, [alice.idlewrap, "--attach", "4194001"])
            #expect(link.status == .exited(125), "\(link.text)")
            #expect(link.text.contains("idlewrap: no session 4194001 of yours"), "\(link.text)")
            #expect(link.text.contains(problem), "\(link.text)")
            let socket = try run(alice, [alice.idlewrap, "--attach", "4194002"])
            #expect(socket.status == .exited(125), "\(socket.text)")
            #expect(socket.text.contains(problem), "\(socket.text)")
            planted.pump(timeout: 0.5)
            #expect(!planted.hasShown("got "), "\(planted.text)")
            // The session itself is untouched: still unlocked, relaying.
            try session.type("still here\r")
            #expect(session.expect("got still here"), "\(session.text)")
        }

        /// Clients of Alice's own that connect and say nothing, or half a request, hold up
        /// nothing: the session relays and locks, `--list` is answered at once, and an
        /// attach is served.
        @Test func slowClientsHoldUpNothing() throws {
            let session = try startSession()
            let slow = try program(
                """
                import socket, sys, time
                clients = []
                for said in [b"", b"att", b"attach"]:
                    c = socket.socket(socket.AF_UNIX); c.connect(sys.argv[1]); c.sendall(said); clients.append(c)
                print("ready", flush=True)
                time.sleep(120)
                """, ["\(alice.runtimeDirectory)/\(session.process.pid)"])
            try session.type("relayed\r")
            #expect(session.expect("got relayed", timeout: ControlServer.patience.inSeconds), "\(session.text)")
            let started = MonotonicInstant.now()
            let list = try run(alice, [alice.idlewrap, "--list"])
            #expect(list.status == .exited(0), "\(list.text)")
            let seconds = (MonotonicInstant.now() - started).inSeconds
            #expect(seconds < ControlServer.patience.inSeconds, "--list took \(seconds) s")
            session.signal(SIGUSR1)
            #expect(
                session.expect("Password for \(alice.name):", timeout: ControlServer.patience.inSeconds),
                "\(session.text)")
            let taken = try terminal(alice, [alice.idlewrap, "--attach", "--take", String(session.process.pid)])
            #expect(taken.expect("Password for \(alice.name):"), "\(taken.text)")
            #expect(session.expect("taken over by another terminal"), "\(session.text)")
            slow.signal(SIGTERM)
            try taken.type("open sesame\r")
            #expect(taken.expect("\u{1b}[?1049l"), "\(taken.text)")
            try taken.type("\u{04}")
            #expect(taken.waitForExit(timeout: 60) == .exited(0), "\(taken.text)")
        }

        /// Another user cannot reach Alice's session: not through `--attach`, which looks
        /// only at Bob's own, nor by connecting to its socket, whose directory is Alice's
        /// alone; the session goes on, unaffected. The session never hears of Bob's
        /// `--attach`, or of root's: each records its own refusal, with the pid it asked for.
        @Test func anotherUserCannotAttach() throws {
            let session = try startSession()
            try detach(session)
            let bob = try TestUser(password: nil)
            let pid = String(session.process.pid)
            let attach = try run(bob, [alice.idlewrap, "--attach", pid])
            #expect(attach.status == .exited(1), "\(attach.text)")
            #expect(attach.text.contains("idlewrap: no session \(pid) of yours"), "\(attach.text)")
            var kept: [String] = []
            let refused = "attach refused: session \(pid) is uid \(alice.uid)'s: user=\(bob.name) tty=/dev/pts/"
            #expect(TerminalDriver.waitFor { records(&kept, containing: refused) }, "\(kept)")
            let record = kept.first { $0.contains(refused) } ?? ""
            // authpriv warning, as the session's own refusals.
            #expect(record.hasPrefix("<84>"), "\(record)")
            #expect(record.hasSuffix("command='idlewrap' ssh='\(Self.sshConnection)'"), "\(record)")
            let asRoot = try TerminalDriver(namespace.command([alice.idlewrap, "--attach", pid]))
            #expect(asRoot.waitForExit(timeout: 60) != .exited(0), "\(asRoot.text)")
            let refusedRoot = "attach refused: session \(pid) is uid \(alice.uid)'s: user=root "
            #expect(TerminalDriver.waitFor { records(&kept, containing: refusedRoot) }, "\(kept)")
            let connect = try run(
                bob,
                [
                    "/usr/bin/python3", "-c",
                    "import socket, sys\ntry:\n socket.socket(socket.AF_UNIX).connect(sys.argv[1]); print('connected')\n"
                        + "except OSError as e: print('refused', e.errno)",
                    "\(alice.runtimeDirectory)/\(pid)",
                ])
            #expect(connect.text.contains("refused \(EACCES)"), "\(connect.text)")
            let attached = try attachAndUnlock()
            try attached.type("\u{04}")
            #expect(attached.waitForExit(timeout: 60) == .exited(0), "\(attached.text)")
        }
    }
}

import Glibc
import PTYKit
import Testing

@testable import idlewrap

extension EndToEnd {
    /// What root's --lock-all and --list make of runtime directories and sockets
    /// that other users control: real users (useradd), hostile programs of
    /// theirs, and the real binary, all in a mount namespace of the test's own
    /// whose /tmp and /run/user only they use (`PrivateRuntime`).
    @Suite(.enabled(if: TestUser.canBeMade && PrivateRuntime.isAvailable, "needs root and mount namespaces"))
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
            return (status, driver.text.replacing("\r\n", with: "\n"), Double(MonotonicInstant.now() - started) / 1e9)
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

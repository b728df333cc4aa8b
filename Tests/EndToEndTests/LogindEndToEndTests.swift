import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// logind's Lock signal on a private system bus, with a stand-in for logind.
    @Suite struct Logind {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        var ourSession: String { LogindBus.sessionPrefix + "c7" }

        /// idlewrap with a password file around `cat`, never locking on idle,
        /// in login session `sessionID` (unset if empty).
        func session(
            _ bus: LogindBus, sessionID: String = "c7", options: [String] = ["--verbose"]
        ) throws -> TerminalDriver {
            let password = try makePasswordFile(in: directory)
            return try TerminalDriver(
                idlewrap: ["--password-file", password, "-t", "0"] + options + ["--", "cat"],
                environment: bus.environment.merging(["XDG_SESSION_ID": sessionID]) { $1 })
        }

        func unlock(_ terminal: TerminalDriver) throws {
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
        }

        func end(_ terminal: TerminalDriver) {
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
        }

        @Test(.requires(.dbusDaemon, .dbusSend, .python3, .pythonDBus, .pythonGObject))
        func aLockSignalForOurSessionLocks() throws {
            let bus = try LogindBus(in: directory)
            let terminal = try session(bus)
            #expect(terminal.expect("following logind session \(ourSession)"))
            #expect(bus.caller(of: "GetSession c7") != nil)
            try bus.lock(ourSession)
            #expect(terminal.expect("Password for"))
            try unlock(terminal)
            // Every Lock locks again, as `loginctl lock-session` run twice.
            try bus.lock(ourSession)
            #expect(terminal.expect("Password for"))
            try unlock(terminal)
            end(terminal)
        }

        @Test(.requires(.dbusDaemon, .dbusSend, .python3, .pythonDBus, .pythonGObject))
        func withoutASessionIDTheSessionOfItsProcessIsFollowed() throws {
            let bus = try LogindBus(in: directory)
            let terminal = try session(bus, sessionID: "")
            let path = LogindBus.sessionPrefix + "bypid"
            #expect(terminal.expect("following logind session \(path)"))
            #expect(bus.caller(of: "GetSessionByPID \(terminal.process.pid)") != nil)
            try bus.lock(path)
            #expect(terminal.expect("Password for"))
            try unlock(terminal)
            end(terminal)
        }

        @Test(.requires(.dbusDaemon, .dbusSend, .python3, .pythonDBus, .pythonGObject))
        func lockSignalsForAnotherSessionOrFromAnotherSenderAreIgnored() throws {
            let bus = try LogindBus(in: directory)
            let terminal = try session(bus)
            #expect(terminal.expect("following logind session \(ourSession)"))
            let idlewrap = try #require(bus.caller(of: "GetSession c7"))
            // logind locking another session.
            try bus.lock(LogindBus.sessionPrefix + "c8")
            // Someone who does not own org.freedesktop.login1, to everyone
            // and to idlewrap alone (the bus delivers that whatever the match rules).
            try bus.send(["--type=signal", ourSession, "org.freedesktop.login1.Session.Lock"])
            try bus.send(["--type=signal", "--dest=" + idlewrap, ourSession, "org.freedesktop.login1.Session.Lock"])
            try bus.ping(idlewrap)
            // Everything before the ping is handled: still unlocked, so what
            // is typed reaches cat, which writes it back.
            try terminal.type("still open\r")
            #expect(terminal.expect("still open\r\nstill open"))
            #expect(!terminal.hasShown("Password for"))
            try bus.lock(ourSession)
            #expect(terminal.expect("Password for"))
            try unlock(terminal)
            end(terminal)
        }

        @Test(.requires(.dbusDaemon, .dbusSend, .python3, .pythonDBus, .pythonGObject))
        func aRestartedLogindIsFollowed() throws {
            let bus = try LogindBus(in: directory)
            let terminal = try session(bus)
            #expect(terminal.expect("following logind session \(ourSession)"))
            try bus.restartLogind()
            // The Lock comes from another unique name now, which owns
            // org.freedesktop.login1 since the restart.
            try bus.lock(ourSession)
            #expect(terminal.expect("Password for"))
            try unlock(terminal)
            end(terminal)
        }

        @Test(.requires(.dbusDaemon, .dbusSend, .python3, .pythonDBus, .pythonGObject))
        func losingTheBusLeavesTheSessionRunning() throws {
            let bus = try LogindBus(in: directory)
            let terminal = try session(bus)
            #expect(terminal.expect("following logind session \(ourSession)"))
            bus.stopBus()
            #expect(terminal.expect("not following logind: the system bus connection failed"))
            try terminal.type("still open\r")
            #expect(terminal.expect("still open\r\nstill open"))
            // The closed connection is no longer polled: idlewrap sleeps.
            #expect(terminal.waitUntil { isAsleepInPoll(sessionProcessPid(of: terminal) ?? -1) })
            end(terminal)
        }

        @Test(.requires(.dbusDaemon, .dbusSend, .python3, .pythonDBus, .pythonGObject))
        func anUnknownSessionIsNotFollowed() throws {
            let bus = try LogindBus(in: directory)
            let terminal = try session(bus, sessionID: "gone")
            #expect(
                terminal.expect(
                    "not following logind: logind did not name our session: org.freedesktop.login1.NoSuchSession"))
            try terminal.type("still open\r")
            #expect(terminal.expect("still open\r\nstill open"))
            end(terminal)
        }

        @Test func withoutABusItRunsSilentlyAndVerboseSaysSo() throws {
            let environment = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + directory.file("no-bus")]
            let password = try makePasswordFile(in: directory)
            let quiet = try TerminalDriver(
                idlewrap: ["--password-file", password, "--", "sh", "-c", "echo ran"], environment: environment)
            #expect(quiet.waitForExit() == .exited(0))
            #expect(quiet.hasShown("ran"))
            #expect(!quiet.hasShown("logind"))
            let verbose = try TerminalDriver(
                idlewrap: ["--password-file", password, "--verbose", "--", "sh", "-c", "echo ran"],
                environment: environment)
            #expect(verbose.waitForExit() == .exited(0))
            #expect(verbose.hasShown("idlewrap: not following logind: no system bus: No such file or directory"))
            #expect(verbose.hasShown("ran"))
        }

        @Test(.enabled(if: access(SDBusLibrary.defaultSystemBus, F_OK) != 0, "a system bus runs here"))
        func withoutTheStandardBusVerboseSaysSo() throws {
            let password = try makePasswordFile(in: directory)
            let verbose = try TerminalDriver(
                idlewrap: ["--password-file", password, "--verbose", "--", "sh", "-c", "echo ran"],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": ""])
            #expect(verbose.waitForExit() == .exited(0))
            #expect(verbose.hasShown("idlewrap: not following logind: no system bus at /run/dbus/system_bus_socket"))
        }

        @Test(.requires(.dbusDaemon, .dbusSend, .python3, .pythonDBus, .pythonGObject))
        func idleWithTheBusConnectedNeverWakes() throws {
            let bus = try LogindBus(in: directory)
            let terminal = try session(bus)
            #expect(terminal.expect("following logind session \(ourSession)"))
            // Counted from when it sleeps in poll: going to sleep is a switch too.
            #expect(terminal.waitUntil { isAsleepInPoll(sessionProcessPid(of: terminal) ?? -1) })
            // Both of idlewrap's processes: the session process and its guardian.
            let processes = [terminal.process.pid, sessionProcessPid(of: terminal) ?? -1]
            let before = try processes.map(contextSwitches).reduce(0, +)
            _ = terminal.waitUntil(timeout: 3) { false }
            let after = try processes.map(contextSwitches).reduce(0, +)
            #expect(after == before, "idlewrap woke \(after - before) times in 3 s while idle")
            try bus.lock(ourSession)
            #expect(terminal.expect("Password for"))
            end(terminal)
        }

        func isAsleepInPoll(_ pid: pid_t) -> Bool {
            guard let channel = try? readFile("/proc/\(pid)/wchan"), let stat = try? readFile("/proc/\(pid)/stat"),
                let state = stat.split(separator: ")").last?.split(separator: " ").first
            else { return false }
            return state == "S" && channel.contains("poll")
        }

        /// Voluntary and involuntary context switches of `pid` so far: a
        /// process asleep in poll makes none.
        func contextSwitches(of pid: pid_t) throws -> Int {
            let status = try readFile("/proc/\(pid)/status")
            return status.split(separator: "\n")
                .filter { $0.hasPrefix("voluntary_ctxt_switches:") || $0.hasPrefix("nonvoluntary_ctxt_switches:") }
                .compactMap { Int($0.split(separator: "\t").last ?? "") }
                .reduce(0, +)
        }
    }
}

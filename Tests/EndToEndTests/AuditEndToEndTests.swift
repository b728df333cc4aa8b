import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// `idlewrap --audit` through the real binary, as root, on a host laid out under a
    /// directory of the test's own (`IDLEWRAP_AUDIT_ROOT`): real users made with useradd
    /// (their passwd lines copied there), a real sshd judging its config with `sshd -T`,
    /// PAM stacks, shell start-up files, logind.conf, utmp. Each check passes on the
    /// correctly deployed host, and each planted mistake is the gap it is. One test runs on
    /// the real paths of this machine.
    @Suite(
        .enabled(if: TestUser.canBeMade, "needs root to add users"), .requires(.sshd, .python3))
    struct Audit {
        /// A correctly deployed host: alice has idlewrap as login shell with `shell =`,
        /// bob's ssh logins get a ForceCommand from a Match block and his shell is dash.
        final class Host {
            let root: TemporaryDirectory
            let alice: TestUser
            let bob: TestUser

            init() throws {
                root = try TemporaryDirectory()
                chmod(root.path, 0o755)
                alice = try TestUser(password: nil)
                bob = try TestUser(password: nil)
                for directory in [
                    "etc", "etc/idlewrap", "etc/ssh", "etc/pam.d", "etc/profile.d", "etc/systemd",
                    "etc/systemd/logind.conf.d", "etc/security", "var", "var/run",
                ] {
                    try #require(mkdir(root.file(directory), 0o755) == 0, "mkdir \(directory): errno \(errno)")
                }
                #expect(TestUser.run(["usermod", "-s", alice.idlewrap, alice.name]))
                try writePasswd([alice, bob])
                try write("etc/shells", "/bin/sh\n/bin/bash\n\(alice.idlewrap)\n")
                try write("etc/idlewrap/config", Self.policy)
                try #require(
                    TestUser.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", root.file("etc/ssh/host")]))
                try sshd(["Match User \(bob.name)", "    ForceCommand \(alice.idlewrap) -q"])
                try write("etc/pam.d/idlewrap", "auth required pam_unix.so\naccount required pam_unix.so\n")
                try write("etc/profile.d/tmout.sh", "declare -xr TMOUT=900\n")
                try write("etc/systemd/logind.conf", "[Login]\nStopIdleSessionSec=1200\n")
                // sshd -T refuses to run without its privilege separation directory.
                mkdir("/run/sshd", 0o755)
            }

            /// The system file of the correctly deployed host.
            static let policy = "shell = /bin/bash\ntimeout = 10m\nmax-timeout = 10m\nmax-kill-after = 1h\n"

            @discardableResult
            func write(_ name: String, _ text: String, mode: mode_t = 0o644) throws -> String {
                try root.write(name, text, mode: mode)
            }

            /// The accounts' real passwd lines, as useradd and usermod wrote them.
            func writePasswd(_ users: [TestUser]) throws {
                let lines = try readFile("/etc/passwd").split(separator: "\n").filter { line in
                    users.contains { line.hasPrefix($0.name + ":") }
                }
                try write("etc/passwd", lines.joined(separator: "\n") + "\n")
            }

            /// sshd_config: the host key, `alive` (sshd takes a keyword's first value), `lines`.
            func sshd(_ lines: [String], alive: (Int, Int) = (300, 3)) throws {
                let head = [
                    "HostKey \(root.file("etc/ssh/host"))", "ClientAliveInterval \(alive.0)",
                    "ClientAliveCountMax \(alive.1)",
                ]
                try write("etc/ssh/sshd_config", (head + lines).joined(separator: "\n") + "\n")
            }

            /// `idlewrap --audit --json` (with `arguments`, and `environment` for root) on
            /// this host, as root or as `user`: its status, and per check `id subject status
            /// control` then its evidence as `= ITEM` lines, as python3 read the JSON.
            func audit(
                _ arguments: [String] = [], as user: TestUser? = nil, environment: [String: String] = [:]
            ) throws -> Result {
                let output = root.file("report.json")
                unlink(output)
                let command = [user?.idlewrap ?? TerminalDriver.idlewrap, "--audit", "--json"] + arguments
                let runner: TerminalDriver
                if let user {
                    try write("report.json", "", mode: 0o666)
                    runner = try user.setprivTerminal(
                        ["/bin/sh", "-c", "\"$@\" > \(output)", "sh"] + command)
                } else {
                    runner = try TerminalDriver(
                        ["/bin/sh", "-c", "\"$@\" > \(output)", "sh"] + command,
                        environment: environment.merging([AuditHost.rootVariable: root.path]) { $1 })
                }
                let status = runner.waitForExit()
                let summary = try #require(
                    TestUser.output(of: [
                        "/usr/bin/python3", "-c",
                        "import json,sys\nr=json.load(open(sys.argv[1]))\n"
                            + "print(r['scope'], r['summary']['gap'])\n"
                            + "for c in r['checks']:\n"
                            + " print(c['id'], c['subject'] or '-', c['status'], c['control'])\n"
                            + " for e in c['evidence']: print('=', e)",
                        output,
                    ]), "not JSON: \((try? readFile(output)) ?? "") \(runner.text)")
                return Result(
                    status: status, lines: summary.replacing("\r\n", with: "\n").split(separator: "\n").map(String.init)
                )
            }

            struct Result {
                let status: TerminationStatus?
                let lines: [String]

                func status(of id: String, _ subject: String = "-") -> String? {
                    lines.first { $0.hasPrefix("\(id) \(subject) ") }.map { String($0.split(separator: " ")[2]) }
                }

                var gaps: [String] {
                    lines.filter { !$0.hasPrefix("= ") && $0.split(separator: " ").count == 4 && $0.contains(" gap ") }
                }

                /// The evidence of the first check `id subject`.
                func evidence(of id: String, _ subject: String = "-") -> [String] {
                    guard let start = lines.firstIndex(where: { $0.hasPrefix("\(id) \(subject) ") }) else { return [] }
                    return lines[(start + 1)...].prefix { $0.hasPrefix("= ") }.map { String($0.dropFirst(2)) }
                }
            }
        }

        @Test("a correctly deployed host reports no gap, and exit status 0")
        func correctlyDeployed() throws {
            let host = try Host()
            let result = try host.audit()
            #expect(result.status == .exited(0), "\(result.lines)")
            #expect(result.gaps.isEmpty, "\(result.lines)")
            #expect(result.lines.first == "host 0")
            #expect(result.status(of: "account-wrapped", host.alice.name) == "pass")
            #expect(result.status(of: "account-wrapped", host.bob.name) == "pass")
            for (id, subject) in [
                ("shells-listed", "/etc/shells"), ("config-owner", "/etc/idlewrap/config"),
                ("binary-owner", host.alice.idlewrap), ("policy-max-timeout", "/etc/idlewrap/config"),
                ("policy-kill-after", "/etc/idlewrap/config"), ("policy-lock-ssh-commands", "/etc/idlewrap/config"),
                ("pattern-hiding", "-"), ("pam-unlock", "/etc/pam.d/idlewrap"), ("tmout-conflict", "TMOUT"),
                ("logind-idle-conflict", "logind"), ("sshd-alive-conflict", "sshd"),
            ] {
                #expect(result.status(of: id, subject) == "pass", "\(id) \(subject): \(result.lines)")
            }
            #expect(result.lines.contains("pattern-hiding - pass AC-11(1)"))
            #expect(result.lines.contains("policy-kill-after /etc/idlewrap/config pass AC-12"))
        }

        @Test("an unwrapped user is a gap; profile.d wrapping does not count")
        func unwrappedUser() throws {
            let host = try Host()
            let carol = try TestUser(password: nil)
            try host.writePasswd([host.alice, host.bob, carol])
            try host.write("etc/profile.d/idlewrap.sh", "[ -n \"$IDLEWRAP_TTY\" ] || exec idlewrap\n")
            let result = try host.audit()
            #expect(result.status == .exited(1))
            #expect(result.gaps == ["account-wrapped \(carol.name) gap AC-11"], "\(result.lines)")
        }

        @Test("a ForceCommand missing in the Match block that applies is a gap")
        func forceCommandMissingInMatch() throws {
            let host = try Host()
            try host.sshd([
                "Match User \(host.alice.name)", "    ForceCommand \(host.alice.idlewrap)",
                "Match User \(host.bob.name)", "    X11Forwarding no",
            ])
            let result = try host.audit()
            #expect(result.status == .exited(1))
            #expect(result.gaps == ["account-wrapped \(host.bob.name) gap AC-11"], "\(result.lines)")
        }

        @Test("a ForceCommand through bash, which reads the user's ~/.bashrc first, is a gap")
        func forceCommandThroughBash() throws {
            let host = try Host()
            #expect(TestUser.run(["usermod", "-s", "/bin/bash", host.bob.name]))
            try host.writePasswd([host.alice, host.bob])
            let result = try host.audit()
            #expect(result.gaps == ["account-wrapped \(host.bob.name) gap AC-11"], "\(result.lines)")
        }

        @Test("a world-writable system file, or a group-writable idlewrap, is a gap")
        func worldWritableConfiguration() throws {
            let host = try Host()
            chmod(host.root.file("etc/idlewrap/config"), 0o666)
            let result = try host.audit()
            #expect(result.status == .exited(1))
            // A run refuses such a file, so every wrapped login would fail: a gap of its own.
            #expect(
                Set(result.gaps) == [
                    "config-owner /etc/idlewrap/config gap AC-11", "policy-file /etc/idlewrap/config gap AC-11",
                ], "\(result.lines)")
            chmod(host.root.file("etc/idlewrap/config"), 0o644)
            chmod(host.alice.idlewrap, 0o775)
            #expect(try host.audit().gaps == ["binary-owner \(host.alice.idlewrap) gap AC-11"])
        }

        @Test("a system file idlewrap refuses is a gap of its own")
        func brokenConfiguration() throws {
            let host = try Host()
            try host.write("etc/idlewrap/config", Host.policy + "timeout = soon\n")
            let result = try host.audit()
            #expect(result.gaps == ["policy-file /etc/idlewrap/config gap AC-11"], "\(result.lines)")
        }

        @Test(
            "a system file a run refuses as too large or not UTF-8 is a policy-file gap, in the run's words",
            arguments: ["larger than", "not valid UTF-8"])
        func configurationARunRefuses(words: String) throws {
            let host = try Host()
            // One byte over the limit, or a comment with a byte that is not UTF-8.
            let bytes =
                words == "larger than"
                ? Array((Host.policy + "#").utf8)
                    + Array(repeating: UInt8(ascii: "x"), count: ConfigurationFiles.maximumSize)
                : Array((Host.policy + "# caf").utf8) + [0xFF, 0x0A]
            let file = try host.write("etc/idlewrap/config", "")
            let descriptor = open(file, O_WRONLY | O_TRUNC)
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            try #require(written == bytes.count, "write \(file): errno \(errno)")
            let result = try host.audit()
            #expect(result.status == .exited(1))
            #expect(result.gaps.contains("policy-file /etc/idlewrap/config gap AC-11"), "\(result.lines)")
            // The words a run says, from the run's own reader.
            let table = try TerminalDriver(idlewrap: ["--audit"], environment: [AuditHost.rootVariable: host.root.path])
            #expect(table.waitForExit() == .exited(1))
            #expect(table.text.contains("/etc/idlewrap/config: the configuration file is \(words)"), "\(table.text)")
            let run = try TerminalDriver(
                idlewrap: ["--", "true"], environment: ["IDLEWRAP_SYSTEM_CONFIG": host.root.file("etc/idlewrap/config")]
            )
            #expect(run.waitForExit() == .exited(125))
            #expect(run.text.contains("the configuration file is \(words)"), "\(run.text)")
        }

        @Test("a PAM stack without account, or with a missing module, is a gap; --pam-confdir is honoured")
        func pamStack() throws {
            let host = try Host()
            try host.write("etc/pam.d/idlewrap", "auth required pam_unix.so\n")
            #expect(try host.audit().gaps == ["pam-unlock /etc/pam.d/idlewrap gap AC-11"])
            try host.write("etc/pam.d/idlewrap", "auth required pam_unix.so\naccount required pam_nowhere.so\n")
            #expect(try host.audit().gaps == ["pam-unlock /etc/pam.d/idlewrap gap AC-11"])
            let other = try TemporaryDirectory()
            try other.write("unlock", "auth required pam_unix.so\naccount required pam_unix.so\n", mode: 0o644)
            let result = try host.audit(["--pam-confdir", other.path, "--pam-service", "unlock"])
            #expect(result.status == .exited(0), "\(result.lines)")
            #expect(result.status(of: "pam-unlock", other.file("unlock")) == "pass", "\(result.lines)")
            // Where the site does not allow pam, the stack does not matter.
            try host.write("etc/pam.d/idlewrap", "auth required pam_unix.so\n")
            try host.write("etc/idlewrap/config", Host.policy + "auth-methods = file\n")
            let filesOnly = try host.audit()
            #expect(filesOnly.status(of: "pam-unlock", "/etc/pam.d/idlewrap") == "n/a", "\(filesOnly.lines)")
            #expect(filesOnly.gaps.isEmpty, "\(filesOnly.lines)")
        }

        @Test("a readonly TMOUT=60 is a gap; so are logind and sshd ending sessions before the lock")
        func conflicts() throws {
            let host = try Host()
            try host.write("etc/profile.d/tmout.sh", "readonly TMOUT=60\nexport TMOUT\n")
            #expect(try host.audit().gaps == ["tmout-conflict TMOUT gap AC-11"])
            try host.write("etc/profile.d/tmout.sh", "TMOUT=60\n")
            #expect(try host.audit().gaps.isEmpty)
            try host.write("etc/systemd/logind.conf.d/idle.conf", "[Login]\nStopIdleSessionSec=5min\n")
            #expect(try host.audit().gaps == ["logind-idle-conflict logind gap AC-11"])
            unlink(host.root.file("etc/systemd/logind.conf.d/idle.conf"))
            try host.sshd(["Match User \(host.bob.name)", "    ForceCommand \(host.alice.idlewrap)"], alive: (60, 2))
            #expect(try host.audit().gaps == ["sshd-alive-conflict sshd gap AC-11"])
        }

        @Test("the site policy against the target: max-timeout, max-kill-after, lock-ssh-commands, --timeout")
        func policy() throws {
            let host = try Host()
            try host.write("etc/idlewrap/config", "shell = /bin/bash\ntimeout = 10m\nlock-ssh-commands = no\n")
            let result = try host.audit()
            #expect(
                Set(result.gaps) == [
                    "policy-max-timeout /etc/idlewrap/config gap AC-11",
                    "policy-kill-after /etc/idlewrap/config gap AC-12",
                    "policy-lock-ssh-commands /etc/idlewrap/config gap AC-11",
                ], "\(result.lines)")
            try host.write(
                "etc/idlewrap/config", "shell = /bin/bash\ntimeout = 5m\nmax-timeout = 10m\nmax-kill-after = 1h\n")
            #expect(try host.audit().gaps.isEmpty)
            #expect(try host.audit(["--timeout", "5m"]).gaps == ["policy-max-timeout /etc/idlewrap/config gap AC-11"])
        }

        @Test("idlewrap as login shell without shell =, or missing from /etc/shells, is a gap")
        func loginShellSetUp() throws {
            let host = try Host()
            try host.write("etc/shells", "/bin/sh\n/bin/bash\n")
            #expect(try host.audit().gaps == ["shells-listed /etc/shells gap AC-11"])
            try host.write("etc/shells", "/bin/sh\n/bin/bash\n\(host.alice.idlewrap)\n")
            try host.write("etc/idlewrap/config", "timeout = 10m\nmax-timeout = 10m\nmax-kill-after = 1h\n")
            #expect(try host.audit().gaps == ["account-wrapped \(host.alice.name) gap AC-11"])
        }

        @Test("sessions now: a login without idlewrap is a gap, an idlewrap session is listed with its state")
        func sessionsNow() throws {
            let host = try Host()
            let session = try wrappedSession(of: host.alice)
            let utmp = try host.write("var/run/utmp", "")
            try addLogin(utmp, user: host.alice.name, line: session.terminal.replicaPath, pid: session.process.pid)
            var result = try host.audit()
            #expect(result.status(of: "session-unwrapped") == "pass", "\(result.lines)")
            #expect(result.status(of: "session-wrapped") == "pass", "\(result.lines)")
            try addLogin(utmp, user: host.bob.name, line: "/dev/pts/iwaudit", pid: getpid())
            result = try host.audit()
            #expect(result.gaps == ["session-unwrapped /dev/pts/iwaudit gap AC-11"], "\(result.lines)")
            session.signal(SIGTERM)
            _ = session.waitForExit()
        }

        @Test(
            "sessions now from logind's bus: an unwrapped terminal session is a gap, a wrapped one passes; else utmp",
            .requires(.dbusDaemon, .dbusSend, .pythonDBus, .pythonGObject, .libsystemd))
        func sessionsNowFromLogind() throws {
            let host = try Host()
            let session = try wrappedSession(of: host.alice)
            let bus = try LogindBus(in: host.root)
            let tty = String(session.terminal.replicaPath.dropFirst("/dev/".count))
            try bus.addSession(
                "c1", uid: host.alice.uid, user: host.alice.name, tty: tty, leader: session.process.pid, remote: true)
            // Not terminal sessions of people: a desktop's (it locks with its desktop),
            // cron's, a greeter's, and an ssh command without a terminal.
            try bus.addSession(
                "c2", uid: host.bob.uid, user: host.bob.name, tty: "tty2", leader: getpid(), type: "wayland")
            try bus.addSession(
                "c3", uid: 0, user: "root", tty: "pts/iwcron", leader: getpid(), sessionClass: "background")
            try bus.addSession("c4", uid: 0, user: "gdm", tty: "tty1", leader: getpid(), sessionClass: "greeter")
            try bus.addSession("c5", uid: host.bob.uid, user: host.bob.name, tty: "", leader: getpid(), remote: true)
            var result = try host.audit(environment: bus.environment)
            #expect(result.status == .exited(0), "\(result.lines)")
            #expect(result.status(of: "session-unwrapped") == "pass", "\(result.lines)")
            #expect(
                result.evidence(of: "session-unwrapped")
                    == ["logind session c1: \(host.alice.name) on /dev/\(tty), pid \(session.process.pid), remote"],
                "\(result.lines)")
            #expect(result.status(of: "session-wrapped") == "pass", "\(result.lines)")
            try bus.addSession("c6", uid: host.bob.uid, user: host.bob.name, tty: "pts/iwlogind", leader: getpid())
            result = try host.audit(environment: bus.environment)
            #expect(result.status == .exited(1))
            #expect(result.gaps == ["session-unwrapped /dev/pts/iwlogind gap AC-11"], "\(result.lines)")
            #expect(
                result.evidence(of: "session-unwrapped", "/dev/pts/iwlogind")
                    == ["logind session c6: \(host.bob.name) on /dev/pts/iwlogind, pid \(getpid()), local"],
                "\(result.lines)")
            // A bus without logind: utmp's list, and the evidence says why.
            bus.stopLogind()
            let utmp = try host.write("var/run/utmp", "")
            try addLogin(utmp, user: host.alice.name, line: session.terminal.replicaPath, pid: session.process.pid)
            result = try host.audit(environment: bus.environment)
            #expect(result.status(of: "session-unwrapped") == "pass", "\(result.lines)")
            let evidence = result.evidence(of: "session-unwrapped")
            #expect(
                evidence.first?.hasPrefix("logind: logind did not list its sessions: org.freedesktop.DBus.Error")
                    == true
                    && evidence.first?.hasSuffix("; utmp read instead") == true
                    && evidence.dropFirst().first?.hasPrefix("utmp: \(host.alice.name) on ") == true,
                "\(evidence)")
            session.signal(SIGTERM)
            _ = session.waitForExit()
        }

        @Test("an idlewrap session on a terminal with TERM=dumb, which its lock cannot clear, is a pattern-hiding gap")
        func dumbTerminalSession() throws {
            let host = try Host()
            let dumb = try wrappedSession(of: host.alice, term: "dumb")
            let xterm = try wrappedSession(of: host.alice, term: "xterm-256color")
            let result = try host.audit()
            #expect(result.status == .exited(1), "\(result.lines)")
            // Every idlewrap session of this machine is audited: only ours are looked for.
            #expect(result.gaps.contains("pattern-hiding \(dumb.terminal.replicaPath) gap AC-11(1)"), "\(result.lines)")
            #expect(!result.gaps.contains { $0.hasPrefix("pattern-hiding \(xterm.terminal.replicaPath) ") })
            #expect(
                result.evidence(of: "pattern-hiding", dumb.terminal.replicaPath)
                    == ["pid \(dumb.process.pid) \(dumb.terminal.replicaPath) \(host.alice.name) cat: TERM=dumb"],
                "\(result.lines)")
            #expect(result.status(of: "pattern-hiding") == "pass", "\(result.lines)")
            for session in [dumb, xterm] {
                session.signal(SIGTERM)
                _ = session.waitForExit()
            }
        }

        /// An idlewrap session of `user` around cat that never locks on idle (with `term`
        /// as TERM, if given), once it answers `--list`.
        private func wrappedSession(of user: TestUser, term: String? = nil) throws -> TerminalDriver {
            let session = try user.setprivTerminal(
                (term.map { ["/usr/bin/env", "TERM=" + $0] } ?? []) + [
                    user.idlewrap, "--auth", "ask", "-t", "0", "--", "cat",
                ])
            try #require(session.expect("Lock password:"), "\(session.text)")
            try session.type("pw\r")
            try #require(session.expect("Repeat password:"))
            try session.type("pw\r")
            // The socket is there before the session process serves it (it is made before
            // the split, and the command is started after): the audit's 3 s for an answer
            // must not race that start on a loaded machine. The event: the session answers.
            let pid = String(session.process.pid)
            try #require(
                session.waitUntil {
                    (try? user.runToEnd([user.idlewrap, "--list"]))?.text.contains(pid) == true
                }, "the session never answered --list: \(session.text)")
            return session
        }

        /// Records a login in the utmp file at `path`, as login and sshd do.
        private func addLogin(_ path: String, user: String, line: String, pid: pid_t) throws {
            var entry = utmp()
            entry.ut_type = Int16(USER_PROCESS)
            entry.ut_pid = pid
            let name = line.hasPrefix("/dev/") ? String(line.dropFirst(5)) : line
            withUnsafeMutableBytes(of: &entry.ut_line) { copy(name, into: $0) }
            withUnsafeMutableBytes(of: &entry.ut_id) { copy(String(name.suffix(4)), into: $0) }
            withUnsafeMutableBytes(of: &entry.ut_user) { copy(user, into: $0) }
            _ = path.withCString { utmpname($0) }
            setutent()
            let written = pututline(&entry) != nil
            endutent()
            _ = utmpname("/var/run/utmp")
            try #require(written, "pututline failed: errno \(errno)")
        }

        private func copy(_ text: String, into buffer: UnsafeMutableRawBufferPointer) {
            for (index, byte) in text.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }

        @Test("a user audits their own logins only, on the host's real paths")
        func userScope() throws {
            let host = try Host()
            let result = try host.audit(as: host.bob)
            #expect(result.lines.first?.hasPrefix("user ") == true, "\(result.lines)")
            let accounts = result.lines.filter { $0.hasPrefix("account-wrapped ") }
            // The real /etc/passwd: bob's shell is /bin/sh, and the real sshd_config
            // has no ForceCommand for him.
            #expect(accounts.count == 1 && accounts[0].hasPrefix("account-wrapped \(host.bob.name) "), "\(accounts)")
        }

        @Test("root on this machine's real paths: one JSON object, root's own account among the checks")
        func realPaths() throws {
            let output = try TemporaryDirectory()
            let runner = try TerminalDriver([
                "/bin/sh", "-c", "\"$0\" --audit --json > \"$1\"", TerminalDriver.idlewrap, output.file("report"),
            ])
            let status = runner.waitForExit()
            #expect(status == .exited(0) || status == .exited(1), "\(runner.text)")
            let summary = TestUser.output(of: [
                "/usr/bin/python3", "-c",
                "import json,sys\nr=json.load(open(sys.argv[1]))\nprint(r['scope'], len(r['checks']))\n"
                    + "print(' '.join(sorted(set(c['id'] for c in r['checks']))))",
                output.file("report"),
            ])
            #expect(summary?.hasPrefix("host ") == true, "\(summary ?? "not JSON")")
            #expect(summary?.contains("account-wrapped") == true)
            #expect(summary?.contains("pam-unlock") == true)
            #expect(summary?.contains("session-unwrapped") == true)
        }

        @Test("bad usage: an operand, --user; the table for people")
        func usageAndTable() throws {
            let extra = try TerminalDriver(idlewrap: ["--audit", "ls"])
            #expect(extra.waitForExit() == .exited(125))
            #expect(extra.text.contains("idlewrap: extra operand 'ls': --audit takes no COMMAND"))
            let host = try Host()
            let table = try TerminalDriver(idlewrap: ["--audit"], environment: [AuditHost.rootVariable: host.root.path])
            #expect(table.waitForExit() == .exited(0))
            #expect(table.text.contains("STATUS  CONTROL   CHECK"), "\(table.text)")
            #expect(table.text.contains("0 gaps, "))
            // The user's own file plays no part: a mistake there does not stop the audit.
            let broken = try TemporaryDirectory()
            try #require(mkdir(broken.file("idlewrap"), 0o700) == 0)
            try broken.write("idlewrap/config", "no such key = 1\n")
            let despite = try TerminalDriver(
                idlewrap: ["--audit"],
                environment: [AuditHost.rootVariable: host.root.path, "XDG_CONFIG_HOME": broken.path])
            #expect(despite.waitForExit() == .exited(0), "\(despite.text)")
            let missing = try TerminalDriver(
                idlewrap: ["--audit"], environment: [AuditHost.rootVariable: host.root.file("nowhere")])
            #expect(missing.waitForExit() == .exited(125))
        }
    }
}

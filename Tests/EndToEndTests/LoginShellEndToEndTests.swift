import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// idlewrap started as a login shell: `-idlewrap` (as login, `su -` and sshd
    /// start a login shell) through bash's `exec -a`, and `idlewrap -c CMD`.
    @Suite struct LoginShellMode {
        let directory: TemporaryDirectory
        /// XDG_CONFIG_HOME with the default password file ("open sesame") in it,
        /// since a login shell takes no options.
        let configHome: String

        init() throws {
            directory = try TemporaryDirectory()
            configHome = directory.file("config")
            try #require(mkdir(configHome, 0o700) == 0 && mkdir(configHome + "/idlewrap", 0o700) == 0)
            let setter = try TerminalDriver([
                "sh", "-c", "printf 'open sesame\\n' | \"$0\" --set-password \"$1\"", TerminalDriver.idlewrap,
                configHome + "/idlewrap/password",
            ])
            try #require(setter.waitForExit() == .exited(0), "--set-password failed: \(setter.text)")
        }

        /// idlewrap run with argv[0] `name` and `arguments`, in a terminal, with a
        /// home of its own (no startup files) and the password file above.
        func start(
            as name: String, _ arguments: [String], environment: [String: String] = [:]
        ) throws -> TerminalDriver {
            let quoted = arguments.map { "'" + $0.replacing("'", with: "'\\''") + "'" }.joined(separator: " ")
            return try TerminalDriver(
                ["bash", "-c", "exec -a '\(name)' \"$0\" \(quoted)", TerminalDriver.idlewrap],
                environment: ["HOME": directory.path, "XDG_CONFIG_HOME": configHome, "SHELL": TerminalDriver.idlewrap]
                    .merging(environment) { _, given in given })
        }

        func lockAndUnlock(_ terminal: TerminalDriver) throws {
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
        }

        @Test func loginStartRunsTheRealShellAsALoginShellWrapped() throws {
            let terminal = try start(as: "-idlewrap", [])
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            try terminal.type("echo \"pid=$IDLEWRAP_PID shell=$SHELL zero=$0\"\r")
            #expect(terminal.expect("pid=\(terminal.process.pid) shell=/bin/sh zero=-sh"))
            try lockAndUnlock(terminal)
            try terminal.type("exit 5\r")
            #expect(terminal.waitForExit() == .exited(5))
        }

        @Test func commandWithATerminalIsWrapped() throws {
            let terminal = try start(as: "idlewrap", ["-c", "echo \"pid=$IDLEWRAP_PID shell=$SHELL zero=$0\"; cat"])
            #expect(terminal.expect("pid=\(terminal.process.pid) shell=/bin/sh zero=sh"))
            try lockAndUnlock(terminal)
            try terminal.type("after the unlock\r")
            #expect(terminal.expect("after the unlock\r\nafter the unlock"))
            try terminal.type([0x04])
            #expect(terminal.waitForExit() == .exited(0))
        }

        /// `su - user -c CMD` starts the login shell as `-idlewrap -c CMD`: the
        /// real shell hears that it is a login shell too.
        @Test func loginCommandTellsTheRealShellItIsALoginShell() throws {
            let terminal = try start(as: "-idlewrap", ["-c", "echo \"zero=$0 pid=$IDLEWRAP_PID\"; exit 9"])
            #expect(terminal.expect("zero=-sh pid=\(terminal.process.pid)"))
            #expect(terminal.waitForExit() == .exited(9))
        }

        /// scp, rsync and git: no terminal, so the real shell runs in idlewrap's
        /// place, its status and bytes untouched, and nothing is said on stderr.
        @Test func commandWithoutATerminalIsAPlainExec() throws {
            let command =
                "printf '\\001\\377bytes\\r\\n'; echo \"shell=$SHELL pid=${IDLEWRAP_PID-unset} zero=$0\"; exit 7"
            let script = """
                "$0" -c "$1" </dev/null >"$2" 2>"$3"; echo "status=$?"
                """
            let terminal = try TerminalDriver(
                ["sh", "-c", script, TerminalDriver.idlewrap, command, directory.file("out"), directory.file("err")],
                environment: ["SHELL": TerminalDriver.idlewrap, "XDG_CONFIG_HOME": configHome])
            #expect(terminal.expect("status=7"))
            #expect(terminal.waitForExit() == .exited(0))
            let output = try readFileBytes(directory.file("out"))
            #expect(output == [0x01, 0xff] + Array("bytes\r\nshell=/bin/sh pid=unset zero=sh\n".utf8))
            #expect(directory.read("err") == "")
        }

        @Test(arguments: [
            ("-idlewrap", ["-t", "0"]), ("-idlewrap", ["--nested", "-c", "true"]), ("-idlewrap", ["-c"]),
            ("idlewrap", ["-c", "true", "extra"]), ("-idlewrap", ["-lc", "true"]), ("-idlewrap", ["--help"]),
        ])
        func optionsOtherThanCAreRefused(name: String, arguments: [String]) throws {
            let terminal = try start(as: name, arguments)
            #expect(terminal.waitForExit() == .exited(125))
            #expect(terminal.hasShown("idlewrap: "))
            #expect(!terminal.hasShown("USAGE"))
        }

        /// A system file (root's, through IDLEWRAP_SYSTEM_CONFIG, which only root
        /// may name) with `text`, as environment for `start`.
        func systemFile(_ text: String) throws -> [String: String] {
            try directory.write("system-config", text, mode: 0o644)
            return ["IDLEWRAP_SYSTEM_CONFIG": directory.file("system-config")]
        }

        @Test(.enabled(if: getuid() == 0, "IDLEWRAP_SYSTEM_CONFIG is honoured only for root"))
        func theSystemFileNamesTheRealShell() throws {
            let environment = try systemFile("shell = /bin/bash\n")
            let terminal = try start(as: "-idlewrap", [], environment: environment)
            try terminal.type("echo \"zero=$0 shell=$SHELL pid=$IDLEWRAP_PID bash=${BASH_VERSION%%.*}\"\r")
            #expect(terminal.expect("zero=-bash shell=/bin/bash pid=\(terminal.process.pid) bash=5"))
            try terminal.type("exit\r")
            #expect(terminal.waitForExit() == .exited(0))
        }

        @Test(.enabled(if: getuid() == 0, "IDLEWRAP_SYSTEM_CONFIG is honoured only for root"))
        func aRealShellThatIsIdlewrapIsRefused() throws {
            let environment = try systemFile("shell = \(TerminalDriver.idlewrap)\n")
            let terminal = try start(as: "-idlewrap", [], environment: environment)
            #expect(terminal.waitForExit() == .exited(125))
            #expect(terminal.hasShown("that is idlewrap itself"))
        }

        /// An automation host: a command with a terminal runs unlocked, silently;
        /// an interactive login still locks.
        @Test(.enabled(if: getuid() == 0, "IDLEWRAP_SYSTEM_CONFIG is honoured only for root"))
        func lockSSHCommandsNoRunsCommandsUnlocked() throws {
            let environment = try systemFile("lock-ssh-commands = no\n")
            let command = try start(
                as: "idlewrap", ["-c", "echo \"pid=${IDLEWRAP_PID-unset} shell=$SHELL\"; exit 4"],
                environment: environment)
            #expect(command.expect("pid=unset shell=/bin/sh"))
            #expect(command.waitForExit() == .exited(4))
            #expect(!command.hasShown("idlewrap:"))
            let login = try start(as: "-idlewrap", [], environment: environment)
            try lockAndUnlock(login)
            try login.type("echo \"pid=$IDLEWRAP_PID\"; exit\r")
            #expect(login.expect("pid=\(login.process.pid)"))
            #expect(login.waitForExit() == .exited(0))
        }

        /// The same under a ForceCommand (SSH_ORIGINAL_COMMAND set, normal mode).
        @Test(.enabled(if: getuid() == 0, "IDLEWRAP_SYSTEM_CONFIG is honoured only for root"))
        func lockSSHCommandsNoUnderAForceCommand() throws {
            var environment = try systemFile("lock-ssh-commands = no\n")
            environment["SSH_ORIGINAL_COMMAND"] = "echo \"pid=${IDLEWRAP_PID-unset}\"; exit 6"
            let terminal = try start(as: "idlewrap", [], environment: environment)
            #expect(terminal.expect("pid=unset"))
            #expect(terminal.waitForExit() == .exited(6))
            #expect(terminal.hasShown("lock-ssh-commands = no"))
        }

        @Test(.enabled(if: getuid() == 0, "IDLEWRAP_SYSTEM_CONFIG is honoured only for root"))
        func aUserFileCannotUnlockSSHCommands() throws {
            let environment = try systemFile("")
            try directory.write("config/idlewrap/config", "lock-ssh-commands = no\n")
            let terminal = try start(
                as: "idlewrap", ["-c", "echo \"pid=$IDLEWRAP_PID \"; exit 2"], environment: environment)
            #expect(terminal.expect("ignoring your settings: \(configHome)/idlewrap/config:1:"))
            #expect(terminal.expect("pid=\(terminal.process.pid) "))
            #expect(terminal.waitForExit() == .exited(2))
        }

        /// A mistake in the user's own file must not shut them out of every login,
        /// scp included: the system file alone applies, and stderr says so.
        @Test func aBrokenUserFileIsIgnoredWithANotice() throws {
            try directory.write("config/idlewrap/config", "timeout = soon\n")
            let command = try start(as: "idlewrap", ["-c", "echo \"pid=$IDLEWRAP_PID \"; exit 3"])
            #expect(
                command.expect(
                    "idlewrap: ignoring your settings: \(configHome)/idlewrap/config:1: invalid duration 'soon'"))
            #expect(command.expect("pid=\(command.process.pid) "))
            #expect(command.waitForExit() == .exited(3))
            let login = try start(as: "-idlewrap", [])
            #expect(login.expect("ignoring your settings"))
            try lockAndUnlock(login)
            try login.type("exit 1\r")
            #expect(login.waitForExit() == .exited(1))
        }

        /// A user whose $SHELL is idlewrap starts plain `idlewrap`: it runs a
        /// real shell, and tells the shell's children that one is SHELL.
        @Test func plainStartWithIdlewrapAsShellRunsARealShell() throws {
            let terminal = try start(as: "idlewrap", ["-t", "0"])
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            try terminal.type("echo \"shell=$SHELL\"; exit\r")
            #expect(terminal.expect("shell=/"))
            #expect(!terminal.hasShown("shell=\(TerminalDriver.idlewrap)"))
            #expect(terminal.waitForExit() == .exited(0))
        }
    }

    /// `ssh -tt host CMD` (Ansible without pipelining) locks like any session,
    /// but when the command ends while locked nobody may be there to unlock:
    /// idlewrap ends without showing what was held.
    @Suite struct SSHCommandEndingWhileLocked {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        /// The command prints `started`, then waits until the test has seen the
        /// lock screen (the file `go` exists), then runs `rest`.
        func session(_ rest: String, environment: [String: String] = [:], arguments: [String] = []) throws
            -> TerminalDriver
        {
            let password = try makePasswordFile(in: directory)
            let command = "echo started; while [ ! -e '\(directory.file("go"))' ]; do sleep 0.05; done; \(rest)"
            return try TerminalDriver(
                idlewrap: ["--password-file", password, "-t", "0"] + arguments,
                environment: ["SSH_ORIGINAL_COMMAND": command].merging(environment) { _, given in given })
        }

        func lockThenLetTheCommandGoOn(_ terminal: TerminalDriver) throws {
            #expect(terminal.expect("started"))
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            try directory.write("go", "")
        }

        @Test func heldOutputIsDiscardedAndTheExitSays125() throws {
            let terminal = try session("echo SEC$((1))RET; exit 3")
            try lockThenLetTheCommandGoOn(terminal)
            #expect(terminal.waitForExit() == .exited(125))
            #expect(!terminal.hasShown("SEC1RET"))
            #expect(
                terminal.hasShown(
                    "idlewrap: the command ended while the session was locked; its held output was discarded"))
            #expect(terminal.hasShown("\u{1b}[?1049l\u{1b}[1;1H\u{1b}[2J"))
            #expect(sameSettings(try terminal.attributes(), terminal.initialAttributes))
        }

        @Test func withNothingHeldTheStatusIsTheCommands() throws {
            let terminal = try session("exit 3")
            try lockThenLetTheCommandGoOn(terminal)
            #expect(terminal.waitForExit() == .exited(3))
            #expect(!terminal.hasShown("discarded"))
        }

        /// Without SSH_ORIGINAL_COMMAND the contract stands: locked until the
        /// password, then the held output.
        @Test func anInteractiveSessionStillWaitsForThePassword() throws {
            let password = try makePasswordFile(in: directory)
            let command =
                "echo started; while [ ! -e '\(directory.file("go"))' ]; do sleep 0.05; done; echo SEC$((1))RET"
            let terminal = try TerminalDriver(idlewrap: [
                "--password-file", password, "-t", "0", "--", "sh", "-c", command,
            ])
            try lockThenLetTheCommandGoOn(terminal)
            #expect(!terminal.waitUntil(timeout: 2) { !terminal.process.isRunning })
            #expect(!terminal.hasShown("SEC1RET"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("SEC1RET"))
            #expect(terminal.waitForExit() == .exited(0))
        }
    }
}

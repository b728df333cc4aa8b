import Testing

@testable import idlewrap

@Suite struct LoginShellTests {
    @Test func theModeIsADashedNameOrAFirstArgumentC() {
        #expect(LoginShell.applies(invokedAs: "-idlewrap", arguments: []))
        #expect(LoginShell.applies(invokedAs: "idlewrap", arguments: ["-c", "ls"]))
        #expect(LoginShell.applies(invokedAs: "/usr/local/bin/idlewrap", arguments: ["-c"]))
        #expect(!LoginShell.applies(invokedAs: "idlewrap", arguments: []))
        #expect(!LoginShell.applies(invokedAs: "idlewrap", arguments: ["-t", "5m", "-c", "ls"]))
        #expect(!LoginShell.applies(invokedAs: "idlewrap", arguments: ["--", "-c"]))
    }

    @Test func onlyNothingOrExactlyCCommandIsAccepted() throws {
        #expect(try LoginShell.request(invokedAs: "-idlewrap", arguments: []) == .login)
        #expect(
            try LoginShell.request(invokedAs: "idlewrap", arguments: ["-c", "ls -l"]) == .command("ls -l", login: false)
        )
        #expect(try LoginShell.request(invokedAs: "-idlewrap", arguments: ["-c", ""]) == .command("", login: true))
        for arguments in [["-c"], ["-c", "ls", "x"], ["-l"], ["-lc", "ls"], ["--help"], ["-t", "0"]] {
            #expect(throws: UsageError.self) { try LoginShell.request(invokedAs: "-idlewrap", arguments: arguments) }
        }
    }

    @Test func theRealShellRunsAsIdlewrapWasStarted() {
        #expect(
            LoginShell.plan(.login, shell: "/bin/bash")
                == CommandPlan(
                    arguments: ["-bash"], executable: "/bin/bash", isSSHCommand: false, isLogin: true,
                    shellVariable: "/bin/bash"))
        #expect(
            LoginShell.plan(.command("id", login: false), shell: "/bin/sh")
                == CommandPlan(
                    arguments: ["sh", "-c", "id"], executable: "/bin/sh", isSSHCommand: true, shellVariable: "/bin/sh"))
        #expect(LoginShell.plan(.command("id", login: true), shell: "/usr/bin/zsh").arguments == ["-zsh", "-c", "id"])
    }

    /// Where detached sessions are offered: a login's shell, never a command.
    @Test func onlyALoginsShellIsALogin() {
        #expect(LoginShell.plan(.login, shell: "/bin/sh").isLogin)
        #expect(!LoginShell.plan(.command("id", login: true), shell: "/bin/sh").isLogin)
        func plan(_ command: [String], _ variables: [String: String]) -> CommandPlan {
            CommandPlan.resolve(
                command: command, login: false, configuredShell: nil,
                environment: Environment(entries: (variables.map { "\($0.key)=\($0.value)" } + ["SHELL=/bin/sh"])))
        }
        let ssh = ["SSH_CONNECTION": "10.0.0.1 5000 10.0.0.2 22"]
        #expect(plan([], ssh).isLogin)
        #expect(!plan([], ssh.merging(["SSH_ORIGINAL_COMMAND": "scp -t ."]) { $1 }).isLogin)
        #expect(!plan(["vim"], ssh).isLogin)
        #expect(!plan([], [:]).isLogin)
    }

    @Test func theRealShellIsAnAbsolutePathAndNotIdlewrap() throws {
        #expect(try LoginShell.realShell(configured: nil) == "/bin/sh")
        #expect(try LoginShell.realShell(configured: "/bin/bash") == "/bin/bash")
        #expect(throws: UsageError.self) { try LoginShell.realShell(configured: "bash") }
        #expect(throws: UsageError.self) { try LoginShell.realShell(configured: "/proc/self/exe") }
    }
}

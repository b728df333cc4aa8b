import Testing

@testable import idlewrap

@Suite("--audit's readers of other programs' configuration")
struct AuditParserTests {
    private func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test("sshd -T output: keywords, ForceCommand none or a command, ClientAlive's product")
    func sshdOutput() {
        let sshd = SSHDConfiguration(
            parsing: """
                port 22
                clientaliveinterval 300
                clientalivecountmax 2
                forcecommand /usr/bin/idlewrap -t 10m
                subsystem sftp /usr/lib/openssh/sftp-server
                """)
        #expect(sshd.forceCommand == "/usr/bin/idlewrap -t 10m")
        #expect(sshd.clientAliveLimit == 600)
        #expect(sshd.value("subsystem") == "sftp /usr/lib/openssh/sftp-server")
        let plain = SSHDConfiguration(parsing: "forcecommand none\nclientaliveinterval 0\nclientalivecountmax 3\n")
        #expect(plain.forceCommand == nil)
        #expect(plain.clientAliveLimit == nil)
        // OpenSSH 8.2 and later: a count of 0 turns the check off.
        #expect(SSHDConfiguration(parsing: "clientaliveinterval 60\nclientalivecountmax 0").clientAliveLimit == nil)
    }

    @Test(
        "a readonly TMOUT, however a baseline spells it",
        arguments: [
            ("declare -xr TMOUT=600", 600), ("declare -rx TMOUT=60", 60), ("readonly TMOUT=900; export TMOUT", 900),
            ("typeset -r TMOUT=300", 300), ("typeset -xr TMOUT=\"120\"", 120),
            ("if [ -z \"$SSH_TTY\" ]; then readonly TMOUT=60; fi", 60),
            ("[ -n \"$BASH\" ] && declare -r TMOUT=45 # STIG", 45),
        ])
    func readonlyTimeout(line: String, seconds: Int) throws {
        let timeout = try #require(ShellTimeout(file: "/etc/profile.d/tmout.sh", lines: lines(line)))
        #expect(timeout.isReadonly)
        #expect(timeout.seconds == seconds)
        #expect(timeout.evidence == ["/etc/profile.d/tmout.sh:1: \(line)"])
    }

    @Test("SLES's three-line TMOUT file: the value on one line, readonly on the next")
    func threeLines() throws {
        let timeout = try #require(
            ShellTimeout(file: "/etc/profile.d/autologout.sh", lines: lines("TMOUT=600\nreadonly TMOUT\nexport TMOUT")))
        #expect(timeout.isReadonly)
        #expect(timeout.seconds == 600)
        #expect(timeout.evidence.count == 3)
    }

    @Test("TMOUT that users can unset, and scripts that never name it")
    func notReadonly() throws {
        let timeout = try #require(ShellTimeout(file: "f", lines: lines("export TMOUT=600\ndeclare -x TMOUT")))
        #expect(!timeout.isReadonly)
        #expect(timeout.seconds == 600)
        #expect(ShellTimeout(file: "f", lines: lines("# readonly TMOUT=60\nexport PATH\nTMOUTX=5")) == nil)
    }

    @Test("logind.conf: StopIdleSessionSec in [Login], the last file winning, systemd time spans")
    func logind() {
        var logind = LogindConfiguration()
        logind.apply(file: "/etc/systemd/logind.conf", lines: lines("[Login]\n#StopIdleSessionSec=infinity\n"))
        #expect(logind.stopIdleSeconds == nil)
        logind.apply(file: "/etc/systemd/logind.conf.d/stig.conf", lines: lines("[Login]\nStopIdleSessionSec=600\n"))
        #expect(logind.stopIdleSeconds == 600)
        #expect(logind.evidence == "/etc/systemd/logind.conf.d/stig.conf:2: StopIdleSessionSec=600")
        logind.apply(file: "z.conf", lines: lines("[Other]\nStopIdleSessionSec=5\n"))
        #expect(logind.stopIdleSeconds == 600)
        logind.apply(file: "zz.conf", lines: lines("[Login]\nStopIdleSessionSec = infinity"))
        #expect(logind.stopIdleSeconds == nil)
        #expect(LogindConfiguration.seconds(of: "10min") == 600)
        #expect(LogindConfiguration.seconds(of: "1h 30min") == 5400)
        #expect(LogindConfiguration.seconds(of: "5m30s") == 330)
        #expect(LogindConfiguration.seconds(of: "2500ms") == 2)
        #expect(LogindConfiguration.seconds(of: "ten") == nil)
        #expect(LogindConfiguration.seconds(of: "10 parsecs") == nil)
    }

    private let files: [String: String] = [
        "/p/idlewrap":
            "# unlock\n@include common-auth\n-account [success=1 default=ignore] pam_sss.so\naccount include common-account\n",
        "/p/common-auth":
            "auth [success=1 default=ignore] pam_unix.so nullok\nauth requisite pam_deny.so\nauth required pam_faillock.so authfail deny=5\n",
        "/p/common-account": "account required pam_unix.so\nsession required pam_unix.so\n",
    ]

    private func stack(_ service: String, _ files: [String: String]) -> PAMStack {
        PAMStack(file: "/p/\(service)", shown: service, directory: "/p") { path in
            files[path].map { $0.split(separator: "\n", omittingEmptySubsequences: false) }
        }
    }

    @Test("a PAM stack: @include, include, bracketed controls, optional modules, comments")
    func pamStack() {
        let stack = stack("idlewrap", files)
        #expect(stack.missingFiles.isEmpty)
        #expect(stack.lines("auth").map(\.moduleName) == ["pam_unix.so", "pam_deny.so", "pam_faillock.so"])
        #expect(stack.lines("account").map(\.moduleName) == ["pam_sss.so", "pam_unix.so"])
        #expect(stack.lines("account").map(\.optionalModule) == [true, false])
        #expect(stack.lines("account")[0].control == "[success=1 default=ignore]")
        #expect(stack.lines("session").isEmpty)
        #expect(stack.lines("auth")[0].evidence == "common-auth:1: auth [success=1 default=ignore] pam_unix.so nullok")
        let faillock = PAMStack.faillockSettings(
            arguments: stack.lines("auth")[2].arguments, configuration: lines("# deny = 9\nunlock_time = 900\n"))
        #expect(faillock == ["deny": "5", "unlock_time": "900"])
    }

    @Test("a PAM stack without account, or with a file that is not there")
    func pamStackGaps() {
        var withoutAccount = files
        withoutAccount["/p/idlewrap"] = "@include common-auth\n"
        #expect(stack("idlewrap", withoutAccount).lines("account").isEmpty)
        #expect(stack("idlewrap", ["/p/idlewrap": "@include nothing-here\n"]).missingFiles == ["nothing-here"])
        #expect(stack("absent", [:]).missingFiles == ["absent"])
    }

    @Test("passwd and /etc/shells: which accounts can log in interactively")
    func accounts() {
        let accounts = AccountChecks.accounts(
            passwd: lines(
                "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/:/usr/sbin/nologin\nalice:x:1000:1000::/home/alice:"
                    + "\nbob:x:1001:1001::/home/bob:/usr/bin/idlewrap\nsync:x:4:65534::/bin:/bin/sync\n"),
            file: "/etc/passwd")
        let shells = AccountChecks.shells(lines("# /etc/shells\n/bin/sh\n/bin/bash\n"))
        #expect(shells == ["/bin/sh", "/bin/bash"])
        #expect(accounts.map(\.name) == ["root", "daemon", "alice", "bob", "sync"])
        #expect(accounts[2].shell == "/bin/sh")
        #expect(accounts[3].evidence == "/etc/passwd:4: bob:x:1001:1001::/home/bob:/usr/bin/idlewrap")
        #expect(
            accounts.filter { AccountChecks.isInteractive($0, shells: shells) }.map(\.name) == ["root", "alice", "bob"])
    }
}

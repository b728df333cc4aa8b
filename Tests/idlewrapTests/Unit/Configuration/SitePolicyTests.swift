import Testing

@testable import idlewrap

private let systemPath = "/etc/idlewrap/config"

/// The system file `text`, then `arguments` with `IDLEWRAP_TIMEOUT` as `variable`,
/// and a user file `user`.
private func parse(
    system text: String, user: String = "", _ arguments: [String], variable: String? = nil
) throws(UsageError) -> Invocation {
    var files = Settings()
    try ConfigurationText.apply(text, file: .system, path: systemPath, to: &files)
    try ConfigurationText.apply(user, file: .user, path: "/home/alice/.config/idlewrap/config", to: &files)
    return try Options.parse(arguments, environment: { $0 == "IDLEWRAP_TIMEOUT" ? variable : nil }, startingFrom: files)
}

private func run(system text: String, user: String = "", _ arguments: [String], variable: String? = nil) throws
    -> Options
{
    let invocation = try parse(system: text, user: user, arguments, variable: variable)
    guard case .run(let options) = invocation else { throw UsageError(message: "not a run: \(invocation)") }
    return options
}

private func refusal(system text: String, _ arguments: [String]) -> UsageError? {
    do throws(UsageError) {
        _ = try parse(system: text, arguments)
        return nil
    } catch {
        return error
    }
}

@Suite("Site policy")
struct SitePolicyTests {
    @Test("max-timeout lowers a longer or off timeout from the command line, the environment or the user file")
    func maxTimeout() throws {
        let policy = "max-timeout = 15m"
        let lowered = try run(system: policy, ["-t", "off"])
        #expect(lowered.timeout == .seconds(900))
        #expect(
            lowered.policyChanges == [
                PolicyChange(
                    key: "timeout", requested: "off", requestedAt: .commandLine(spelled: "-t"), allowed: "15m",
                    limitKey: "max-timeout", limitAt: .file(.system, path: systemPath, line: 1))
            ])
        #expect(lowered.policyChanges[0].wasAskedFor)
        #expect(
            lowered.policyChanges[0].notice
                == "timeout off (-t) is longer than max-timeout (/etc/idlewrap/config:1); using 15m")
        #expect(try run(system: policy, ["--timeout", "0"]).timeout == .seconds(900))
        #expect(try run(system: policy, ["-t", "16m"]).timeout == .seconds(900))
        #expect(try run(system: policy, [], variable: "1h").timeout == .seconds(900))
        #expect(
            try run(system: policy, [], variable: "1h").policyChanges.first?.requestedAt
                == .environment(variable: "IDLEWRAP_TIMEOUT"))
        #expect(try run(system: policy, user: "timeout = off", []).timeout == .seconds(900))
        #expect(try run(system: policy + "\ntimeout = 20m", []).timeout == .seconds(900))
        // Shorter is fine, and nothing is reported.
        let shorter = try run(system: policy, ["-t", "1m"])
        #expect(shorter.timeout == .seconds(60) && shorter.policyChanges.isEmpty)
        #expect(try run(system: policy, ["-t", "15m"]).policyChanges.isEmpty)
        // A default longer than the limit is lowered without a notice.
        let byDefault = try run(system: "max-timeout = 2m", [])
        #expect(byDefault.timeout == .seconds(120))
        #expect(byDefault.policyChanges.count == 1 && !byDefault.policyChanges[0].wasAskedFor)
        // max-timeout = off: no limit.
        #expect(try run(system: "max-timeout = off", ["-t", "off"]).timeout == .zero)
    }

    @Test("--hold-limit is at most max-hold-limit: 1G unless the system file says otherwise")
    func maxHoldLimit() throws {
        let capped = try run(system: "", ["--hold-limit", "2G"])
        #expect(capped.holdLimit == 1 << 30)
        #expect(
            capped.policyChanges.map(\.notice) == [
                "hold-limit 2G (--hold-limit) is larger than max-hold-limit (default); using 1G"
            ])
        #expect(try run(system: "", ["--hold-limit", "1G"]).policyChanges.isEmpty)
        let site = try run(system: "max-hold-limit = 64M", user: "hold-limit = 100M", [])
        #expect(site.holdLimit == 64 << 20)
        #expect(
            site.policyChanges.map(\.notice) == [
                "hold-limit 100M (/home/alice/.config/idlewrap/config:1) is larger than max-hold-limit"
                    + " (/etc/idlewrap/config:1); using 64M"
            ])
        // The default is within any limit but a smaller one, lowered without a notice.
        let byDefault = try run(system: "max-hold-limit = 1M", [])
        #expect(byDefault.holdLimit == 1 << 20 && !byDefault.policyChanges[0].wasAskedFor)
        #expect(try run(system: "max-hold-limit = 4G", ["--hold-limit", "2G"]).holdLimit == 2 << 30)
        // Only the system file sets the limit.
        #expect(throws: UsageError.self) { try run(system: "", user: "max-hold-limit = 4G", []) }
        #expect(throws: UsageError.self) { try run(system: "", ["--max-hold-limit", "4G"]) }
    }

    @Test("max-kill-after applies by default and lowers a longer --kill-after")
    func maxKillAfter() throws {
        let policy = "max-kill-after = 1h"
        let byDefault = try run(system: policy, [])
        #expect(byDefault.killAfter == .seconds(3600))
        #expect(byDefault.policyChanges.count == 1 && !byDefault.policyChanges[0].wasAskedFor)
        let off = try run(system: policy, ["--kill-after", "off"])
        #expect(off.killAfter == .seconds(3600) && off.policyChanges[0].wasAskedFor)
        #expect(try run(system: policy, ["--kill-after", "2h"]).killAfter == .seconds(3600))
        let shorter = try run(system: policy, ["--kill-after", "10m"])
        #expect(shorter.killAfter == .seconds(600) && shorter.policyChanges.isEmpty)
        #expect(try run(system: "", []).killAfter == .zero)
    }

    @Test("auth-methods refuses another method, whoever asks for it, naming the rule")
    func authMethods() throws {
        let policy = "# methods\nauth-methods = pam, file"
        let refused = try #require(refusal(system: policy, ["-a", "ask"]))
        #expect(
            refused.message
                == "-a ask is not allowed by site policy: only pam, file may be used (auth-methods, /etc/idlewrap/config:2)"
        )
        #expect(refused.auditRecord == "refused --auth ask: not in auth-methods")
        #expect(
            refusal(system: "auth-methods = pam", ["--password-file", "/p"])?.message
                == "--password-file (which means auth file) is not allowed by site policy: only pam may be used (auth-methods, /etc/idlewrap/config:1)"
        )
        #expect(
            refusal(system: "auth-methods = pam\nauth = ask", [])?.message
                == "/etc/idlewrap/config:2: auth ask is not allowed by site policy: only pam may be used (auth-methods, /etc/idlewrap/config:1)"
        )
        #expect(try run(system: policy, ["-a", "file"]).auth == .file)
        #expect(try run(system: policy, []).authPolicy == AuthPolicy(allowed: [.pam, .file]))
        #expect(AuthPolicy().allows(.ask) && !AuthPolicy(allowed: [.pam]).allows(.ask))
    }

    @Test("a PAM stack of the user's own (--pam-confdir) is refused where the site sets auth-methods")
    func ownPAMStack() throws {
        let policy = "auth-methods = pam"
        let refused = try #require(refusal(system: policy, ["--pam-confdir", "/home/alice/pam"]))
        #expect(
            refused.message
                == "--pam-confdir is not allowed by site policy, which sets the methods that may unlock (auth-methods, /etc/idlewrap/config:1)"
        )
        #expect(refused.auditRecord == "refused --pam-confdir from --pam-confdir: auth-methods is set")
        #expect(refusal(system: "auth-methods = pam, file", ["-a", "pam", "--pam-confdir", "/p"]) != nil)
        #expect(throws: UsageError.self) { try run(system: policy, user: "pam-confdir = /home/alice/pam", []) }
        // The site's own stack, a method that is not PAM, or no policy at all: no refusal.
        #expect(
            try run(system: policy + "\npam-confdir = /etc/idlewrap/pam", []).pamConfigDirectory == "/etc/idlewrap/pam")
        #expect(try run(system: "auth-methods = pam, file", ["-a", "file", "--pam-confdir", "/p"]).auth == .file)
        #expect(try run(system: "max-timeout = 15m", ["--pam-confdir", "/p"]).pamConfigDirectory == "/p")
    }

    @Test("a PAM service of the user's choice (--pam-service) is refused where the site sets auth-methods")
    func ownPAMService() throws {
        let policy = "auth-methods = pam"
        let refused = try #require(refusal(system: policy, ["--pam-service", "login"]))
        #expect(
            refused.message
                == "--pam-service is not allowed by site policy, which sets the methods that may unlock (auth-methods, /etc/idlewrap/config:1)"
        )
        #expect(refused.auditRecord == "refused --pam-service from --pam-service: auth-methods is set")
        #expect(throws: UsageError.self) { try run(system: policy, user: "pam-service = login", []) }
        #expect(throws: UsageError.self) {
            try run(system: policy + "\npam-service = sshd", ["--pam-service", "sshd"])
        }
        #expect(try run(system: policy + "\npam-service = sshd", []).pamService == "sshd")
        #expect(try run(system: "auth-methods = pam, file", ["-a", "file", "--pam-service", "login"]).auth == .file)
        #expect(try run(system: "max-timeout = 15m", ["--pam-service", "login"]).pamService == "login")
    }

    @Test("--set-password is refused where the file method is not allowed")
    func setPasswordNeedsTheFileMethod() throws {
        let refused = try #require(refusal(system: "auth-methods = pam, ask", ["--set-password"]))
        #expect(
            refused.message
                == "--set-password: the file method is not allowed by site policy: only pam, ask may be used (auth-methods, /etc/idlewrap/config:1)"
        )
        #expect(refused.auditRecord != nil)
        let allowed = try parse(system: "auth-methods = file\nmin-password-length = 10", ["--set-password", "/p"])
        guard case .setPassword(let file, let options) = allowed else {
            Issue.record("not --set-password: \(allowed)")
            return
        }
        #expect(file == "/p" && options.minPasswordLength == 10)
    }

    @Test("min-password-length counts characters, not bytes")
    func characters() {
        for (text, count) in [("", 0), ("abc", 3), ("été", 3), ("日本語", 3), ("🔒x", 2)] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBytes { characterCount(ofUTF8: $0) } == count, "\(text)")
        }
    }

    @Test("fixed keeps the system file's detach and attach over every other source, with a notice")
    func fixedSettings() throws {
        let policy = "detach = hangup\nattach = never\nfixed = detach, attach"
        let fixed = try run(system: policy, user: "detach = never", ["--attach-at-login", "ask"])
        #expect(fixed.detach == .hangup)
        #expect(fixed.attachAtLogin == .never)
        #expect(
            fixed.policyChanges.map(\.notice) == [
                "detach never (/home/alice/.config/idlewrap/config:1) is not allowed: the site fixes it (fixed,"
                    + " /etc/idlewrap/config:3); using hangup",
                "attach ask (--attach-at-login) is not allowed: the site fixes it (fixed,"
                    + " /etc/idlewrap/config:3); using never",
            ])
        #expect(
            fixed.policyChanges[0].auditRecord
                == "refused detach never (/home/alice/.config/idlewrap/config:1): the site fixes detach hangup (fixed)")
        // The same value asked for again is no change; a key the system file leaves unset is
        // fixed at its default.
        #expect(try run(system: policy, ["--detach", "hangup"]).policyChanges.isEmpty)
        let atDefault = try run(system: "fixed = detach", ["--detach", "hangup"])
        #expect(atDefault.detach == .never)
        #expect(atDefault.policyChanges.first?.allowed == "never")
        // Not fixed: the user decides, as for any setting.
        #expect(try run(system: "detach = hangup", ["--detach", "never"]).detach == .never)
        // What --show-config shows: the site's line, and what was asked for.
        var files = Settings()
        try ConfigurationText.apply(policy, file: .system, path: systemPath, to: &files)
        guard
            case .showConfig(let settings) = try Options.parse(
                ["--detach", "never", "--show-config"], environment: { _ in nil }, startingFrom: files)
        else { throw UsageError(message: "not --show-config") }
        #expect(
            ShowConfig.text(of: settings).contains(
                "\ndetach = hangup  # /etc/idlewrap/config:3 (fixed; was never from --detach)\n"))
    }

    @Test("fixed names only the settings the site may fix, each once, and only in the system file")
    func fixedRefusals() {
        #expect(
            refusal(system: "fixed = timeout", [])?.message
                == "/etc/idlewrap/config:1: invalid list of keys 'timeout' for fixed (expected detach or"
                + " attach, separated by commas, each once)")
        #expect(refusal(system: "fixed = detach, detach", []) != nil)
        // A file names --attach-at-login by its key, attach, there as on its own line.
        #expect(refusal(system: "fixed = attach-at-login", []) != nil)
        #expect(refusal(system: "fixed = detach,", []) != nil)
        #expect(refusal(system: "fixed =", []) == nil)
        #expect(throws: UsageError.self) { try run(system: "", user: "fixed = detach", []) }
    }
}

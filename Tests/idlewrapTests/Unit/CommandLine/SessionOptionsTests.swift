import Testing

@testable import idlewrap

@Suite("--lock-all and --list on the command line")
struct SessionOptionsTests {
    private func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        try Options.parse(arguments, environment: { _ in nil })
    }

    private func usageError(_ arguments: [String]) -> String? {
        do throws(UsageError) {
            _ = try parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("the actions and their modifiers")
    func actions() throws {
        #expect(try parse(["--lock-all"]) == .lockAll(Options()))
        #expect(try parse(["--list"]) == .list(Options()))
        var json = Options()
        json.json = true
        #expect(try parse(["--list", "--json"]) == .list(json))
        #expect(try parse(["--json", "--list"]) == .list(json))
        var alice = Options()
        alice.user = "alice"
        #expect(try parse(["--lock-all", "--user", "alice"]) == .lockAll(alice))
        #expect(try parse(["--user=alice", "--list"]) == .list(alice))
        var everyone = Options()
        everyone.allUsers = true
        #expect(try parse(["--all-users", "--lock-all"]) == .lockAll(everyone))
        #expect(try parse(["--lock-all", "--help"]) == .help)
    }

    @Test("what does not go together is bad usage")
    func conflicts() {
        #expect(usageError(["--lock-all", "--list"]) == "--lock-all and --list cannot be used together")
        #expect(
            usageError(["--set-password", "--lock-all"]) == "--set-password and --lock-all cannot be used together")
        #expect(usageError(["--lock-all", "--json"]) == "--json goes with --list or --audit")
        #expect(usageError(["--json"]) == "--json goes with --list or --audit")
        #expect(usageError(["--json", "--", "ls"]) == "--json goes with --list or --audit")
        #expect(usageError(["--user", "root"]) == "--user and --all-users go with --lock-all or --list")
        #expect(usageError(["--all-users", "bash"]) == "--user and --all-users go with --lock-all or --list")
        #expect(
            usageError(["--list", "--user", "a", "--all-users"]) == "--user and --all-users cannot be used together")
        #expect(usageError(["--lock-all", "bash"]) == "extra operand 'bash': --lock-all takes no COMMAND")
        #expect(usageError(["--list", "--", "x"]) == "extra operand 'x': --list takes no COMMAND")
        #expect(usageError(["--lock-all=yes"]) == "option '--lock-all' doesn't allow an argument")
        #expect(usageError(["--list", "--user="]) == "option '--user' needs a non-empty value")
        #expect(usageError(["--lock-all", "--user"]) == "option '--user' needs a value")
    }

    @Test("--audit: --json and --timeout go with it; where the timeout came from is kept")
    func audit() throws {
        guard case .audit(let settings) = try parse(["--audit"]) else {
            Issue.record("--audit is not an audit")
            return
        }
        #expect(settings.source(of: OptionTable.timeout) == .defaultValue)
        #expect(!settings.options.json)
        guard case .audit(let strict) = try parse(["--json", "--audit", "-t", "10m"]) else {
            Issue.record("--audit with options is not an audit")
            return
        }
        #expect(strict.options.json)
        #expect(strict.options.timeout == .seconds(600))
        #expect(strict.source(of: OptionTable.timeout) == .commandLine(spelled: "-t"))
        #expect(usageError(["--audit", "ls"]) == "extra operand 'ls': --audit takes no COMMAND")
        #expect(usageError(["--audit", "--all-users"]) == "--user and --all-users go with --lock-all or --list")
        #expect(usageError(["--list", "--audit"]) == "--list and --audit cannot be used together")
    }

    @Test("configuration files cannot set them")
    func commandLineOnly() throws {
        for key in ["lock-all", "list", "audit", "json", "user", "all-users"] {
            let option = try #require(OptionTable.option(configKey: key))
            #expect(option.scope == .commandLine, "\(key)")
        }
    }
}

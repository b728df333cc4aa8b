import Testing

@testable import idlewrap

private let timeout = OptionTable.timeout
private let systemFile = ValueSource.file(.system, path: "/etc/idlewrap/config", line: 3)
private let userFile = ValueSource.file(.user, path: "/home/alice/.config/idlewrap/config", line: 7)
private let environment = ValueSource.environment(variable: "IDLEWRAP_TIMEOUT")
private let commandLine = ValueSource.commandLine(spelled: "-t")

/// The message `apply` rejects a value with; nil if it takes it.
private func rejection(_ key: String, _ value: String?, from source: ValueSource) throws -> String? {
    let option = try #require(OptionTable.option(configKey: key))
    var settings = Settings()
    do throws(UsageError) {
        try settings.apply(option, value: value, from: source)
        return nil
    } catch {
        return error.message
    }
}

@Suite("The option table")
struct OptionTableTests {
    @Test("names are unique and each entry agrees with itself")
    func entries() {
        let longs = OptionTable.all.map(\.long)
        let shorts = OptionTable.all.compactMap(\.short)
        #expect(Set(longs).count == longs.count)
        #expect(Set(shorts).count == shorts.count)
        let keys = OptionTable.all.filter { $0.setting != nil }.map(\.configKey)
        #expect(Set(keys).count == keys.count)
        for option in OptionTable.all {
            #expect(option.long.allSatisfy { $0.isLowercase || $0 == "-" }, "\(option.long)")
            #expect((option.valueName == nil) == (option.kind == .switch), "\(option.long)")
            #expect(!option.help.isEmpty, "\(option.long)")
            // A command-line-only setting only modifies an action (--list's --json).
            let modifiesAnAction = ["json", "user", "all-users", "take"].contains(option.long)
            #expect((option.setting == nil) == (option.scope == .commandLine && !modifiesAnAction), "\(option.long)")
        }
    }

    @Test("look-ups by long name, short name and configuration key")
    func lookups() throws {
        #expect(OptionTable.commandLineOption(long: "timeout")?.short == "t")
        #expect(OptionTable.commandLineOption(short: "t")?.long == "timeout")
        #expect(OptionTable.commandLineOption(long: "tim") == nil)
        #expect(OptionTable.commandLineOption(short: "v") == nil)
        #expect(OptionTable.option(configKey: "wipe-scrollback")?.kind == .switch)
        #expect(OptionTable.option(configKey: "help")?.scope == .commandLine)
        // A file's attach is the setting --attach-at-login; --attach, the action, is no key.
        #expect(OptionTable.option(configKey: "attach") == OptionTable.attachAtLogin)
        #expect(OptionTable.option(configKey: "attach-at-login") == nil)
        #expect(OptionTable.option(configKey: "--timeout") == nil)
        #expect(OptionTable.commandLine.map(\.long) == OptionTable.all.filter { $0.scope != .systemFile }.map(\.long))
        #expect(OptionTable.option(configKey: "max-timeout")?.scope == .systemFile)
        #expect(OptionTable.commandLineOption(long: "max-timeout") == nil)
        #expect(OptionTable.commandLineOption(long: "show-config")?.setting == nil)
    }

    @Test("value kinds, with the choices completions offer")
    func kinds() {
        let kinds = Dictionary(uniqueKeysWithValues: OptionTable.all.map { ($0.long, $0.kind) })
        #expect(kinds["timeout"] == .duration)
        #expect(kinds["kill-after"] == .duration)
        #expect(kinds["hold-limit"] == .size)
        #expect(kinds["lock-key"] == .key)
        #expect(kinds["auth"] == .method)
        #expect(kinds["message"] == .text)
        #expect(kinds["password-file"] == .path)
        #expect(kinds["set-password"] == .path)
        #expect(kinds["pam-confdir"] == .directory)
        #expect(kinds["quiet"] == .switch)
        #expect(kinds["completion"] == .shell)
        #expect(ValueKind.shell.choices == ["bash", "zsh", "fish"])
        #expect(ValueKind.method.choices == ["pam", "ask", "file"])
        #expect(ValueKind.switch.choices == ["yes", "no"])
        #expect(ValueKind.duration.choices.isEmpty)
        #expect(OptionTable.timeout.environmentVariable == "IDLEWRAP_TIMEOUT")
        #expect(OptionTable.all.filter { $0.environmentVariable != nil }.count == 1)
    }

    @Test("where an option may be given")
    func scopes() {
        let sources = [ValueSource.defaultValue, systemFile, userFile, environment, commandLine]
        #expect(sources.map(OptionScope.anywhere.allows) == [true, true, true, true, true])
        #expect(sources.map(OptionScope.commandLine.allows) == [true, false, false, false, true])
        #expect(sources.map(OptionScope.systemFile.allows) == [true, true, false, false, false])
    }

    @Test("precedence, lowest first: defaults, system file, user file, environment, command line")
    func precedence() {
        let ordered = [ValueSource.defaultValue, systemFile, userFile, environment, commandLine]
        for (lower, low) in ordered.enumerated() {
            for (higher, high) in ordered.enumerated() {
                #expect(high.replaces(low) == (higher >= lower), "\(high) over \(low)")
            }
        }
        #expect(
            ordered.map(\.precedence)
                == [.defaultValue, .systemFile, .userFile, .environment, .commandLine])
    }

    @Test("the value of the highest source stays, whatever the order they are applied in")
    func precedenceIsOrderFree() throws {
        let given: [(ValueSource, String)] = [
            (systemFile, "1m"), (userFile, "2m"), (environment, "3m"), (commandLine, "4m"),
        ]
        func permutations<T>(_ items: [T]) -> [[T]] {
            guard items.count > 1 else { return [items] }
            return items.indices.flatMap { index in
                var rest = items
                let first = rest.remove(at: index)
                return permutations(rest).map { [first] + $0 }
            }
        }
        for count in 1...given.count {
            let sources = Array(given.prefix(count))
            for order in permutations(sources) {
                var settings = Settings()
                for (source, value) in order {
                    try settings.apply(timeout, value: value, from: source)
                }
                #expect(settings.options.timeout == .seconds(60 * count))
                #expect(settings.source(of: timeout) == sources[count - 1].0)
            }
        }
        var settings = Settings()
        #expect(settings.source(of: timeout) == .defaultValue)
        try settings.apply(timeout, value: "5m", from: commandLine)
        try settings.apply(timeout, value: "6m", from: commandLine)
        #expect(settings.options.timeout == .seconds(360), "within one source, the last value wins")
    }

    @Test("the command line and IDLEWRAP_TIMEOUT override what the files set")
    func parseOverFiles() throws {
        var files = Settings()
        try files.apply(timeout, value: "15m", from: systemFile)
        try files.apply(OptionTable.option(configKey: "quiet")!, value: "yes", from: userFile)
        func parsed(_ arguments: [String], _ variable: String?) throws -> Options {
            let invocation = try Options.parse(arguments, environment: { _ in variable }, startingFrom: files)
            guard case .run(let options) = invocation else { throw UsageError(message: "not a run: \(invocation)") }
            return options
        }
        #expect(try parsed([], nil).timeout == .seconds(900))
        #expect(try parsed([], nil).quiet)
        #expect(try parsed([], "2m").timeout == .seconds(120))
        #expect(try parsed(["-t", "1m"], "2m").timeout == .seconds(60))
        #expect(try parsed(["-t", "1m"], "garbage").timeout == .seconds(60))
    }

    @Test("a value from a file: the option's grammar, yes or no for a switch, FILE:LINE in errors")
    func fileValues() throws {
        var settings = Settings()
        let wipe = OptionTable.option(configKey: "wipe-scrollback")!
        try settings.apply(wipe, value: "yes", from: userFile)
        #expect(settings.options.wipeScrollback)
        try settings.apply(wipe, value: "no", from: userFile)
        #expect(!settings.options.wipeScrollback)
        try settings.apply(OptionTable.option(configKey: "hold-limit")!, value: "64k", from: systemFile)
        #expect(settings.options.holdLimit == 65_536)
        #expect(
            try rejection("wipe-scrollback", "maybe", from: userFile)
                == "/home/alice/.config/idlewrap/config:7: invalid value 'maybe' for wipe-scrollback (expected yes or no)"
        )
        #expect(
            try rejection("timeout", "5 m", from: systemFile)
                == "/etc/idlewrap/config:3: invalid duration '5 m' for timeout")
        #expect(
            try rejection("pam-service", "", from: systemFile)
                == "/etc/idlewrap/config:3: option 'pam-service' needs a non-empty value")
    }

    @Test("an action cannot be set in a file")
    func actionsInFiles() throws {
        var settings = Settings()
        let help = try #require(OptionTable.option(configKey: "help"))
        #expect(throws: UsageError(message: "/etc/idlewrap/config:3: 'help' can only be given on the command line")) {
            try settings.apply(help, value: "yes", from: systemFile)
        }
    }

    @Test("a value outranked by one already set is still checked, and then dropped")
    func outrankedValues() throws {
        var settings = Settings()
        try settings.apply(timeout, value: "1m", from: commandLine)
        #expect(try rejection("timeout", "bad", from: userFile) != nil)
        try settings.apply(timeout, value: "9m", from: userFile)
        #expect(settings.options.timeout == .seconds(60))
        #expect(settings.source(of: timeout) == commandLine)
    }

    @Test("--password-file and --auth from different sources: the higher one wins")
    func passwordFileAcrossSources() throws {
        let auth = OptionTable.auth
        let passwordFile = OptionTable.passwordFile

        var fileOverAuth = Settings()
        try fileOverAuth.apply(auth, value: "pam", from: systemFile)
        try fileOverAuth.apply(passwordFile, value: "p", from: commandLine)
        try fileOverAuth.applyPasswordFileRule()
        #expect(fileOverAuth.options.auth == .file)

        var authOverFile = Settings()
        try authOverFile.apply(passwordFile, value: "p", from: userFile)
        try authOverFile.apply(auth, value: "ask", from: .commandLine(spelled: "--auth"))
        try authOverFile.applyPasswordFileRule()
        #expect(authOverFile.options.auth == .ask)

        var sameFile = Settings()
        try sameFile.apply(auth, value: "pam", from: userFile)
        try sameFile.apply(passwordFile, value: "p", from: userFile)
        #expect(
            throws: UsageError(
                message: "/home/alice/.config/idlewrap/config:7: password-file cannot be used with auth pam")
        ) { try sameFile.applyPasswordFileRule() }
    }
}

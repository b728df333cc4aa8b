import Testing

@testable import idlewrap

/// Every setting is read and written through the option table alone: a value other than
/// its default, given in a configuration file, reads back from `--show-config`; given on
/// the command line, the fuzz renderer (`Fuzz/Targets/Support/CommandLineText.swift`,
/// compiled into these tests too) writes it out and the parser reads back the same. No
/// option is named here, so a setting is covered as soon as it is in the table.
@Suite("Every setting goes through the table both ways")
struct SettingCoverageTests {
    /// A value in `kind`'s grammar whose text is not `current`.
    static func sample(_ kind: ValueKind, other current: String) -> String? {
        let candidates: [String] =
            switch kind {
            case .duration: ["1h2m", "250ms"]
            case .size: ["3K", "5M"]
            case .key: ["^]", "^\\"]
            case .method: ["file", "ask"]
            case .detachWhen: ["hangup", "never"]
            case .attachAtLogin: ["always", "never"]
            case .settingNames: ["detach, attach", "detach"]
            case .text: ["sample text", "other"]
            case .path: ["/tmp/sample-path", "/tmp/other"]
            case .directory: ["/tmp", "/var"]
            case .methods: ["file, pam", "ask"]
            case .number: ["7", "9"]
            case .switch: ["yes", "no"]
            case .shell: []
            }
        return candidates.first { $0 != current }
    }

    @Test("a configuration file sets each setting, and --show-config shows it as given")
    func configurationAndShowConfig() throws {
        for option in OptionTable.settings {
            let setting = try #require(option.setting, "--\(option.long) in the file keys but not a setting")
            let value = try #require(Self.sample(option.kind, other: setting.text(in: Options())), "\(option.long)")
            var settings = Settings()
            try ConfigurationText.apply("\(option.configKey) = \(value)\n", file: .system, path: "/s", to: &settings)
            #expect(setting.text(in: settings.options) == value, "\(option.long)")
            #expect(settings.options != Options(), "\(option.long) = \(value) changed nothing")
            #expect(
                ("\n" + ShowConfig.text(of: settings)).contains("\n\(option.configKey) = \(value)  # /s:1\n"),
                "\(option.long)")
        }
    }

    @Test("the fuzz renderer writes out each setting the command line gives, and it parses back the same")
    func commandLineRoundTrip() throws {
        for option in OptionTable.commandLine {
            guard let setting = option.setting else { continue }
            let value = try #require(Self.sample(option.kind, other: setting.text(in: Options())), "\(option.long)")
            let given = ["--\(option.long)"] + (option.kind == .switch ? [] : [value]) + ["--list"]
            let invocation = try Options.parse(given, environment: { _ in nil })
            guard case .list(let options) = invocation else {
                Issue.record("\(given) gave \(invocation)")
                continue
            }
            #expect(setting.text(in: options) == value, "\(given)")
            let rendered = commandLineArguments(for: invocation)
            let spellings = ["--\(option.long)"] + (option.short.map { ["-\($0)"] } ?? [])
            #expect(rendered.contains { word in spellings.contains { word.hasPrefix($0) } }, "\(given) → \(rendered)")
            #expect(try Options.parse(rendered, environment: { _ in nil }) == invocation, "\(given) → \(rendered)")
        }
    }

    @Test("--help shows each option the command line takes")
    func help() {
        for option in OptionTable.commandLine {
            #expect(Usage.help.contains("  \(option.synopsis)  ") || Usage.help.contains("  \(option.synopsis)\n"))
        }
    }
}

import Testing

@testable import idlewrap

@Suite("Completion scripts are made from the option table")
struct CompletionScriptTests {
    @Test("an option's one-line summary is its help's first sentence without the asides")
    func summaries() {
        let summaries = Dictionary(uniqueKeysWithValues: OptionTable.all.map { ($0.long, $0.summary) })
        #expect(summaries["timeout"] == "Idle time before locking")
        #expect(summaries["auth"] == "How an unlock is checked: pam, ask or file")
        #expect(summaries["lock-key"] == "A control key that locks at once, in caret notation")
        #expect(summaries["hold-limit"] == "Most output held while locked, in bytes with an optional K, M or G")
        #expect(summaries["set-password"] == "Ask for a password, write its hash to FILE and exit")
        #expect(summaries["completion"] == "Print the completion script for SHELL and exit")
        #expect(summaries["quiet"] == "Print no notices on stderr")
        for option in OptionTable.all {
            let summary = option.summary
            #expect(!summary.isEmpty && !summary.contains("(") && !summary.contains("  "), "\(option.long): \(summary)")
        }
    }

    @Test("every script names each option the command line takes, and no other", arguments: CompletionShell.allCases)
    func everyOption(shell: CompletionShell) {
        let script = shell.script()
        for option in OptionTable.commandLine {
            let long = shell == .fish ? "-l \(option.long) " : "--\(option.long)"
            #expect(script.contains(long), "\(shell) lacks --\(option.long)")
            if let short = option.short {
                let spelled = shell == .fish ? "-s \(short) " : "-\(short)"
                #expect(script.contains(spelled), "\(shell) lacks -\(short)")
            }
            // Quoting changes a summary with an apostrophe; the shell tests read those.
            if shell != .bash && !option.summary.contains("'") {
                #expect(script.contains(option.summary), "\(shell) lacks \(option.summary)")
            }
        }
        for option in OptionTable.all where !option.scope.allows(.commandLine(spelled: "")) {
            #expect(!script.contains("-\(option.long)"), "\(shell) completes --\(option.long), a file-only key")
        }
        #expect(script.hasSuffix("\n"))
    }

    @Test("a new entry is completed with its value, with no other change", arguments: CompletionShell.allCases)
    func newEntry(shell: CompletionShell) {
        let colour = OptionDefinition(
            long: "colour-method", short: "C", valueName: "METHOD",
            help: ["How to colour (pam (yes) or not), on a", "screen. Default: none."],
            setting: Setting(ValueGrammar.method.optional, get: { $0.auth }, set: { $0.auth = $1 }))
        let base = shell.script()
        let script = shell.script(for: OptionTable.commandLine + [colour])
        #expect(!base.contains("colour-method"))
        #expect(script.contains("colour-method"))
        #expect(script.contains("How to colour") == (shell != .bash))
        switch shell {
        case .bash: #expect(script.contains("--auth|-a|--colour-method|-C)"))
        case .zsh:
            #expect(script.contains("{-C+,--colour-method=}'[How to colour, on a screen]:method:(pam ask file)'"))
        case .fish:
            #expect(script.contains("-s C -l colour-method -x -a 'pam ask file' -d 'How to colour, on a screen'"))
        }
    }
}

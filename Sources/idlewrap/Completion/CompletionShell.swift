/// The shells `--completion` writes a completion script for. Each script is made from
/// the options the command line takes, so a new option is completed without more work.
enum CompletionShell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    func script(for options: [OptionDefinition] = OptionTable.commandLine) -> String {
        switch self {
        case .bash: BashCompletion.script(for: options)
        case .zsh: ZshCompletion.script(for: options)
        case .fish: FishCompletion.script(for: options)
        }
    }
}

extension OptionDefinition {
    /// Whether the completions take the next word as the option's value. `--set-password`'s
    /// FILE is an operand, not the next argument, but it is the next word all the same.
    var completesValue: Bool { argument != .none }

    /// The values offered for the option: all its grammar accepts, or a few examples.
    var completionWords: [String] {
        kind == .duration ? ["5m", "15m", "1h", "off"] : kind.choices
    }

    /// The help's first sentence without its asides, for the shells that show a line
    /// beside each option: "Idle time before locking", not "Idle time before locking
    /// (default: $IDLEWRAP_TIMEOUT,".
    var summary: String {
        var text = ""
        var depth = 0
        for character in help.joined(separator: " ") {
            switch character {
            case "(": depth += 1
            case ")": depth = max(depth - 1, 0)
            default: if depth == 0 { text.append(character) }
            }
        }
        let words = text.split(separator: " ")
        var sentence: [Substring] = []
        for word in words {
            sentence.append(word)
            if word.hasSuffix(".") { break }
        }
        var summary = sentence.joined(separator: " ")
        while let last = summary.last, " .,;:".contains(last) {
            summary.removeLast()
        }
        return summary.replacingEvery(" ,", with: ",")
    }
}

/// `text` as one shell word in single quotes: 'it'\''s'.
func singleQuoted(_ text: String) -> String {
    "'" + text.replacingEvery("'", with: #"'\''"#) + "'"
}

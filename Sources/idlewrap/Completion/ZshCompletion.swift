/// The zsh script: one `_arguments` call with an entry per option, its one-line summary
/// and its value's completion; the words after the options go to `_normal`, which
/// completes the command and then its own arguments.
enum ZshCompletion {
    static func script(for options: [OptionDefinition]) -> String {
        let specs = options.map(spec) + [singleQuoted("*:::command:_normal")]
        return """
            #compdef idlewrap
            # zsh completion for idlewrap, made by `idlewrap --completion zsh` from its
            # option table. Put it in $fpath as _idlewrap, or source it after compinit.
            _idlewrap() {
                # -s: clustered short options; -S: options end at --; -A: and at the first operand.
                _arguments -s -S -A '-*' \\
                    \(specs.joined(separator: " \\\n        "))
            }

            if [[ $funcstack[1] == _idlewrap ]]; then
                _idlewrap "$@"
            else
                compdef _idlewrap idlewrap
            fi

            """
    }

    /// `'(-t --timeout)'{-t+,--timeout=}'[Idle time before locking]:duration:(5m 15m 1h off)'`
    private static func spec(_ option: OptionDefinition) -> String {
        // `+` and `=`: the value in the same word or the next; `=-`: only after the `=`.
        let longSuffix: String
        switch option.argument {
        case .none: longSuffix = ""
        case .required: longSuffix = "="
        case .attachedOnly: longSuffix = "=-"
        }
        let long = "--" + option.long + longSuffix
        let description = "[" + escaped(option.summary) + "]" + value(option)
        guard let short = option.short else { return singleQuoted(long + description) }
        let shortSpelling = "-\(short)" + (option.argument == .required ? "+" : "")
        return singleQuoted("(-\(short) --\(option.long))") + "{\(shortSpelling),\(long)}" + singleQuoted(description)
    }

    /// `:duration:(5m 15m 1h off)`; an optional value (`--set-password`) gets `::`.
    private static func value(_ option: OptionDefinition) -> String {
        guard option.completesValue, let valueName = option.valueName else { return "" }
        let action: String
        switch option.kind {
        case .path: action = "_files"
        case .directory: action = "_files -/"
        default:
            let words = option.completionWords
            action = words.isEmpty ? " " : "(" + words.joined(separator: " ") + ")"
        }
        let separator = option.argument == .attachedOnly ? "::" : ":"
        return separator + escaped(valueName.lowercased()).replacingEvery(":", with: "\\:") + ":" + action
    }

    /// Text safe inside an `_arguments` description or message.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "[]\\".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}

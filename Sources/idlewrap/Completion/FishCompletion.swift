/// The fish script: a `complete` line per option, offered only before the command
/// starts, and one line that hands the command's words to `__fish_complete_subcommand`.
enum FishCompletion {
    static func script(for options: [OptionDefinition]) -> String {
        let valued = options.filter(\.completesValue)
        let valuedLongs = valued.map { "--" + $0.long }.joined(separator: " ")
        let valuedShorts = String(valued.compactMap(\.short))
        var script = """
            # fish completion for idlewrap, made by `idlewrap --completion fish` from its
            # option table.

            # Prints the words from the command on and succeeds once the options have ended,
            # at `--` or at the first operand; fails while they go on.
            function __idlewrap_command
                set -l words (commandline -opc)
                set -e words[1]
                while set -q words[1]
                    switch $words[1]
                        case --
                            set -e words[1]
                            printf '%s\\n' $words
                            return 0

            """
        if !valuedLongs.isEmpty {
            script += """
                            case \(valuedLongs)
                                set words $words[3..-1]

                """
        }
        script += """
                        case '--*'
                            set -e words[1]
                        case '-?*'

            """
        if valuedShorts.isEmpty {
            script += """
                                set -e words[1]

                """
        } else {
            script += """
                                # In a cluster, a letter with a value takes the rest of the word,
                                # or the next word when it is the last letter.
                                if string match -qr -- '^-[^\(valuedShorts)]*[\(valuedShorts)]$' $words[1]
                                    set words $words[3..-1]
                                else
                                    set -e words[1]
                                end

                """
        }
        script += """
                        case '*'
                            printf '%s\\n' $words
                            return 0
                    end
                end
                return 1
            end

            complete -c idlewrap -f
            complete -c idlewrap -n '__idlewrap_command >/dev/null' -a '(__fish_complete_subcommand --commandline (__idlewrap_command) (commandline -ct))'
            complete -c idlewrap -n 'not __idlewrap_command >/dev/null' -a '(__fish_complete_command)'

            """
        for option in options {
            var line = "complete -c idlewrap -n 'not __idlewrap_command >/dev/null'"
            if let short = option.short { line += " -s \(short)" }
            line += " -l \(option.long)"
            switch (option.completesValue, option.kind) {
            case (false, _): break
            case (true, .path): line += " -r -F"
            case (true, .directory): line += " -x -a '(__fish_complete_directories (commandline -ct))'"
            default:
                let words = option.completionWords
                line += " -x" + (words.isEmpty ? "" : " -a " + fishQuoted(words.joined(separator: " ")))
            }
            line += " -d " + fishQuoted(option.summary)
            script += line + "\n"
        }
        return script
    }

    /// `text` in fish's single quotes, where only `\` and `'` are special.
    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingEvery("\\", with: "\\\\").replacingEvery("'", with: "\\'") + "'"
    }
}

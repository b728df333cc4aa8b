/// The bash script: `_idlewrap` finds where the options end (`--` or the first operand),
/// completes options and their values before that, and hands the command's words to
/// bash-completion's `_command_offset` after it.
enum BashCompletion {
    static func script(for options: [OptionDefinition]) -> String {
        let valued = options.filter(\.completesValue)
        let valuedLongs = valued.map { "--" + $0.long }.joined(separator: "|")
        let valuedShorts = String(valued.compactMap(\.short))
        let everyName = options.flatMap { option in
            ["--" + option.long] + (option.short.map { ["-\($0)"] } ?? [])
        }
        var script = """
            # bash completion for idlewrap, made by `idlewrap --completion bash` from its
            # option table.
            _idlewrap() {
                local cur=${COMP_WORDS[COMP_CWORD]} word option= command= i=1 value rest
                COMPREPLY=()
                # Options end at `--` or at the first operand, where the command starts.
                while (( i < COMP_CWORD )); do
                    word=${COMP_WORDS[i]}
                    case $word in
                        --)
                            command=$(( i + 1 ))
                            break ;;

            """
        if !valuedLongs.isEmpty {
            script += """
                            \(valuedLongs))
                                # The value is the next word, or the one after the `=` bash splits off.
                                value=$(( i + 1 ))
                                [[ ${COMP_WORDS[value]} == = ]] && (( value += 1 ))
                                if (( value >= COMP_CWORD )); then
                                    option=$word
                                    [[ $cur == = ]] && cur=
                                    break
                                fi
                                i=$value ;;

                """
        }
        script += """
                        --*) ;;

            """
        if !valuedShorts.isEmpty {
            script += """
                            -?*)
                                # In a cluster, a letter with a value takes the rest of the word,
                                # or the next word when it is the last letter.
                                rest=${word#-}
                                while [[ -n $rest && $rest != [\(valuedShorts)]* ]]; do rest=${rest:1}; done
                                if [[ $rest == [\(valuedShorts)] ]]; then
                                    if (( i + 1 == COMP_CWORD )); then
                                        option=-$rest
                                        break
                                    fi
                                    (( i += 1 ))
                                fi ;;

                """
        }
        script += """
                        *)
                            command=$i
                            break ;;
                    esac
                    (( i += 1 ))
                done
                if [[ -n $command ]]; then
                    if declare -F _command_offset >/dev/null; then
                        _command_offset "$command"
                    elif (( command == COMP_CWORD )); then
                        mapfile -t COMPREPLY < <(compgen -c -- "$cur")
                    else
                        compopt -o default 2>/dev/null
                    fi
                    return
                fi
                case $option in

            """
        for (pattern, action) in valueActions(valued) {
            script += "        \(pattern))\n            \(action) ;;\n"
        }
        script += """
                    '')
                        if [[ $cur == -* ]]; then
                            mapfile -t COMPREPLY < <(compgen -W \(singleQuoted(everyName.joined(separator: " "))) -- "$cur")
                        else
                            mapfile -t COMPREPLY < <(compgen -c -- "$cur")
                        fi ;;
                esac
            }
            complete -F _idlewrap idlewrap

            """
        return script
    }

    /// `--timeout|-t|--kill-after` and what completes their values, one row per way of
    /// completing, in the table's order; options whose values cannot be guessed get none.
    private static func valueActions(_ options: [OptionDefinition]) -> [(String, String)] {
        var rows: [(action: String, names: [String])] = []
        for option in options {
            let action: String
            switch option.kind {
            case .path:
                action = #"compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur")"#
            case .directory:
                action = #"compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur")"#
            default:
                let words = option.completionWords
                guard !words.isEmpty else { continue }
                action =
                    #"mapfile -t COMPREPLY < <(compgen -W "# + singleQuoted(words.joined(separator: " "))
                    + #" -- "$cur")"#
            }
            let names = ["--" + option.long] + (option.short.map { ["-\($0)"] } ?? [])
            if let index = rows.firstIndex(where: { $0.action == action }) {
                rows[index].names += names
            } else {
                rows.append((action, names))
            }
        }
        return rows.map { ($0.names.joined(separator: "|"), $0.action) }
    }
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// Each script `idlewrap --completion SHELL` prints, loaded in the real shell and asked
    /// to complete: options with their summaries, values by kind, and after the options
    /// the command's own completion (`fakecmd`'s, defined by each test).
    @Suite struct Completion {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        @Test func aShellNameOtherThanBashZshOrFishIsBadUsage() throws {
            let terminal = try TerminalDriver(idlewrap: ["--completion", "tcsh"])
            #expect(terminal.waitForExit() == .exited(125))
            #expect(terminal.hasShown("idlewrap: unknown shell 'tcsh' for --completion (expected bash, zsh or fish)"))
            #expect(terminal.hasShown("Try 'idlewrap --help'"))
        }

        @Test(.requires(.bashCompletion)) func bashRegistersAndCompletesOptionsValuesAndTheCommand() throws {
            let script = try writeScript(.bash, to: "idlewrap.bash")
            let registered = try run(["bash", "--norc", "-c", "source \"$1\" && complete -p idlewrap", "bash", script])
            #expect(registered == ["complete -F _idlewrap idlewrap"])

            let everyOption = try bashReplies(script, ["--"])
            for option in OptionTable.commandLine {
                #expect(everyOption.contains("--\(option.long)"), "--\(option.long) not offered")
            }
            #expect(try bashReplies(script, ["--ti"]) == ["--timeout"])
            #expect(try bashReplies(script, ["-q", "--ver"]).sorted() == ["--verbose", "--version"])
            #expect(try bashReplies(script, ["--auth", ""]) == ["pam", "ask", "file"])
            #expect(try bashReplies(script, ["-qa", "f"]) == ["file"])
            #expect(try bashReplies(script, ["--auth", "=", "a"]) == ["ask"], "--auth=a, as bash splits it")
            #expect(try bashReplies(script, ["--completion", ""]) == ["bash", "zsh", "fish"])
            #expect(try bashReplies(script, ["-t", ""]).contains("15m"))
            #expect(try bashReplies(script, ["--pam-confdir", "/us"]) == ["/usr"])
            #expect(try bashReplies(script, ["--message", ""]).isEmpty, "a TEXT value has nothing to offer")
            // The first operand is the command; then the command's own completion.
            #expect(try bashReplies(script, ["-t", "5m", "fakec"]) == ["fakecmd"])
            #expect(try bashReplies(script, ["-t", "5m", "fakecmd", "al"]) == ["alpha"])
            #expect(try bashReplies(script, ["-q", "--", "fakecmd", "--ti"]) == ["--tide"])
            #expect(try bashReplies(script, ["--", "fakec"]) == ["fakecmd"])
        }

        @Test(.requires(.zsh, .tmux)) func zshListsOptionsWithSummariesAndCompletesValuesAndTheCommand() throws {
            _ = try writeScript(.zsh, to: "_idlewrap")
            let zsh = try zshSession()

            try zsh.type("idlewrap --")
            try zsh.press("Tab")
            #expect(
                try zsh.waitForScreen { screen in
                    OptionTable.commandLine.allSatisfy { screen.contains("--\($0.long) ") }
                })
            let screen = try zsh.screen()
            #expect(screen.contains("-- Idle time before locking"), "\(screen)")
            #expect(screen.contains("-- How an unlock is checked: pam, ask or file"), "\(screen)")

            try clearLine(zsh)
            try zsh.type("idlewrap --ti")
            try zsh.press("Tab")
            #expect(try zsh.waitForText("idlewrap --timeout="))

            try clearLine(zsh)
            try zsh.type("idlewrap -q --auth ")
            try zsh.press("Tab")
            #expect(try zsh.waitForScreen { $0.contains("ask") && $0.contains("file") && $0.contains("pam") })

            try clearLine(zsh)
            try zsh.type("idlewrap -t 5m fakecmd al")
            try zsh.press("Tab")
            #expect(try zsh.waitForText("idlewrap -t 5m fakecmd alpha"))

            try clearLine(zsh)
            try zsh.type("idlewrap -- fakec")
            try zsh.press("Tab")
            #expect(try zsh.waitForText("idlewrap -- fakecmd"))
        }

        @Test(.requires(.fish)) func fishCompletesOptionsWithSummariesValuesAndTheCommand() throws {
            let script = try writeScript(.fish, to: "idlewrap.fish")
            let everyOption = try fishCompletions(script, "idlewrap --")
            for option in OptionTable.commandLine {
                #expect(everyOption.contains { $0.hasPrefix("--\(option.long)\t") }, "--\(option.long) not offered")
            }
            #expect(try fishCompletions(script, "idlewrap --ti") == ["--timeout\tIdle time before locking"])
            #expect(
                try fishCompletions(script, "idlewrap --verb")
                    == ["--verbose\tAlso say whether idlewrap follows logind's Lock"])
            #expect(try fishCompletions(script, "idlewrap --auth ").map(firstField).sorted() == ["ask", "file", "pam"])
            #expect(try fishCompletions(script, "idlewrap -qa ").map(firstField).sorted() == ["ask", "file", "pam"])
            #expect(try fishCompletions(script, "idlewrap --completion=z").map(firstField) == ["--completion=zsh"])
            #expect(try fishCompletions(script, "idlewrap --pam-confdir /us").map(firstField) == ["/usr/"])
            #expect(try fishCompletions(script, "idlewrap -t 5m fakecmd al").map(firstField) == ["alpha"])
            #expect(try fishCompletions(script, "idlewrap -q -- fakecmd --ti").map(firstField) == ["--tide"])
            #expect(try fishCompletions(script, "idlewrap -- fakec").map(firstField) == ["fakecmd"])
            #expect(try fishCompletions(script, "idlewrap fakecmd --ti").map(firstField) == ["--tide"])
        }

        /// The script the binary prints for `shell`, written to `name` in the directory.
        private func writeScript(_ shell: CompletionShell, to name: String) throws -> String {
            let path = directory.file(name)
            let writer = try TerminalDriver([
                "sh", "-c", "\"$0\" --completion \"$1\" >\"$2\"", TerminalDriver.idlewrap, shell.rawValue, path,
            ])
            try #require(writer.waitForExit() == .exited(0), "--completion \(shell) failed: \(writer.text)")
            return path
        }

        /// The lines `arguments` print, once it has exited with status 0.
        private func run(_ arguments: [String]) throws -> [String] {
            let program = try TerminalDriver(arguments)
            try #require(program.waitForExit() == .exited(0), "\(arguments[0]) failed: \(program.text)")
            return program.text.split(separator: "\r\n").map(String.init)
        }

        /// What `_idlewrap` puts in COMPREPLY when the words after `idlewrap` are `words`
        /// and the last one is being completed, with bash-completion loaded, as it is in
        /// an interactive bash.
        private func bashReplies(_ script: String, _ words: [String]) throws -> [String] {
            let program = """
                source /usr/share/bash-completion/bash_completion
                complete -W 'alpha beta --tide' fakecmd
                fakecmd() { :; }
                source "$1"
                shift
                COMP_WORDS=(idlewrap "$@")
                COMP_CWORD=$#
                COMP_LINE="${COMP_WORDS[*]}"
                COMP_POINT=${#COMP_LINE}
                _idlewrap 2>/dev/null
                printf 'reply:%s\\n' "${COMPREPLY[@]}"
                """
            return try run(["bash", "--norc", "-c", program, "bash", script] + words)
                .filter { $0.hasPrefix("reply:") && $0 != "reply:" }
                .map { String($0.dropFirst("reply:".count)) }
        }

        /// `complete -C LINE` in fish with the script sourced: one `value<TAB>summary` per line.
        private func fishCompletions(_ script: String, _ line: String) throws -> [String] {
            let program = """
                source $argv[1]
                function fakecmd; end
                complete -c fakecmd -f -a 'alpha beta --tide'
                complete -C $argv[2]
                """
            return try run(["fish", "--no-config", "-c", program, script, line])
        }

        private func firstField(_ line: String) -> String {
            String(line.prefix { $0 != "\t" })
        }

        /// An interactive zsh in tmux with completion on and the script in `$fpath`.
        private func zshSession() throws -> TmuxDriver {
            let zsh = try TmuxDriver(["env", "PS1=zsh> ", "zsh", "-f"], rows: 40, columns: 160)
            // capture-pane drops the prompt's trailing space.
            try #require(try zsh.waitForText("zsh>"))
            try zsh.type(
                "fpath=(\(directory.path) $fpath); autoload -U compinit; compinit -u -D;"
                    + " _fakecmd() { compadd alpha beta --tide }; compdef _fakecmd fakecmd; fakecmd() { }; clear\r")
            try #require(try zsh.waitForScreen { $0.hasPrefix("zsh>") && !$0.contains("compinit") })
            return zsh
        }

        private func clearLine(_ zsh: TmuxDriver) throws {
            try zsh.press("C-c")
            // zsh flushes what was typed before it handles the interrupt, so
            // `clear` waits for the fresh prompt.
            try #require(try zsh.waitForScreen { $0.trimmingSuffix("\n").hasSuffix("\nzsh>") })
            try zsh.type("clear\r")
            try #require(try zsh.waitForScreen { $0.trimmingSuffix("\n") == "zsh>" })
        }
    }
}

/// The text for `--help`, ending with a newline, and for `--version`, without one.
/// Help's OPTIONS section is made from `OptionTable`.
enum Usage {
    static let version = "idlewrap \(Version.number)"

    static let help = """
        USAGE: idlewrap [OPTIONS] [--] [COMMAND [ARG...]]
               idlewrap --set-password [FILE]
               idlewrap --lock-all [--user NAME | --all-users]
               idlewrap --list [--json] [--user NAME | --all-users]
               idlewrap --audit [--json] [--timeout DURATION]

        Run COMMAND in a pseudo-terminal and lock the terminal after a time without
        input, until the password is typed. COMMAND defaults to the user's shell
        ($SHELL, else the passwd entry's). Options end at the first operand or at
        '--'. SIGUSR1 locks at once.

        OPTIONS:

        """ + OptionTable.commandLine.map(optionLines).joined() + """

            EXIT STATUS:
              125     idlewrap failed, or bad usage
              126     COMMAND was found but could not be run
              127     COMMAND was not found
              128+N   COMMAND was killed by signal N
              else    COMMAND's exit status
            With --lock-all or --list: 0 when sessions were found, 1 when there were
            none, 125 when one could not be reached. With --audit: 0 with no gap, 1 with
            gaps, 125 when the audit cannot run.

            """

    /// The column where help text starts, after the synopses.
    private static let helpColumn = 26

    /// `  -t, --timeout DURATION  Idle time...` and the help's further lines under it.
    private static func optionLines(_ option: OptionDefinition) -> String {
        let indent = String(repeating: " ", count: helpColumn)
        var lead = "  " + option.synopsis + "  "
        var text = ""
        if lead.count > helpColumn {
            text += lead.dropLast(2) + "\n"
            lead = indent
        }
        for (index, line) in option.help.enumerated() {
            let start = index == 0 ? lead.padding(toLength: helpColumn) : indent
            text += start + line + "\n"
        }
        return text
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}

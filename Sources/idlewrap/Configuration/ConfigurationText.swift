/// The text of a configuration file: one `KEY = VALUE` per line. Blanks (spaces, tabs)
/// around the key and the value are ignored, and so are blank lines and lines whose first
/// non-blank character is `#`; a `#` after two blanks starts a comment (as
/// `--show-config` writes sources), and any other `#` is part of the value, so a
/// `message` may hold one. Keys are the long option names but `attach`, which is
/// --attach-at-login (`OptionDefinition.configKey`); each value is in its
/// option's grammar, a switch's is `yes` or `no`. A key given twice: the last one wins.
enum ConfigurationText {
    /// Applies every line of `text`, read from `path`, to `settings`; the first bad line
    /// throws `PATH:LINE: ...`.
    static func apply(
        _ text: String, file: ConfigurationFile, path: String, to settings: inout Settings
    ) throws(UsageError) {
        if let problem = problems(applying: text, file: file, path: path, to: &settings).first { throw problem }
    }

    /// Applies every good line of `text` to `settings` and returns what is wrong with the
    /// others, in order (`--check-config` says every one).
    static func problems(
        applying text: String, file: ConfigurationFile, path: String, to settings: inout Settings
    ) -> [UsageError] {
        var problems: [UsageError] = []
        // Lines split among scalars: as Characters, a newline followed by a combining mark
        // is one Character and would join two lines. The "\r" of a "\r\n" is a blank.
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            let line = Substring(rawLine).trimmingBlanks()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let source = ValueSource.file(file, path: path, line: index + 1)
            // Among scalars: `=` followed by a combining mark is one Character with it.
            let scalars = line.unicodeScalars
            guard let equals = scalars.firstIndex(of: "=") else {
                problems.append(
                    UsageError(
                        message: "\(source.messagePrefix)expected KEY = VALUE, not '\(terminalSafe(String(line)))'"))
                continue
            }
            let key = String(Substring(scalars[..<equals]).trimmingBlanks())
            let value = String(Substring(scalars[scalars.index(after: equals)...]).withoutComment().trimmingBlanks())
            guard let option = OptionTable.option(configKey: key) else {
                problems.append(
                    UsageError(message: "\(source.messagePrefix)unknown key '\(terminalSafe(key))'\(keyHint(key))"))
                continue
            }
            do {
                try settings.apply(option, value: value, from: source)
            } catch {
                problems.append(error)
            }
        }
        return problems
    }

    /// Where `key` is an option's long name but not its key in a file: which key is.
    private static func keyHint(_ key: String) -> String {
        guard let option = OptionTable.all.first(where: { $0.long == key && $0.configKey != key }) else { return "" }
        return " (the key of --\(option.long) is \(option.configKey))"
    }
}

extension Substring {
    /// Up to a `#` after two blanks, which starts a comment (as `--show-config` writes a
    /// value's source); a `#` after one blank or none is part of the value.
    func withoutComment() -> Substring {
        let scalars = unicodeScalars
        let isBlank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        var blanks = 0
        for index in scalars.indices {
            if scalars[index] == "#" && blanks >= 2 { return Substring(scalars[..<index]) }
            blanks = isBlank(scalars[index]) ? blanks + 1 : 0
        }
        return self
    }

    /// Without the spaces, tabs and carriage returns at either end: scalars, not Characters,
    /// since a blank followed by a combining mark is one Character with it.
    func trimmingBlanks() -> Substring {
        let scalars = unicodeScalars
        let isBlank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = scalars.firstIndex(where: { !isBlank($0) }),
            let end = scalars.lastIndex(where: { !isBlank($0) })
        else {
            return self[endIndex...]
        }
        return Substring(scalars[start...end])
    }
}

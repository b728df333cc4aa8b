/// The little JSON that `--list --json` writes, without Foundation: strings
/// escaped as RFC 8259 requires (quote, backslash, and every control
/// character), everything else passed through as UTF-8.
enum JSONText {
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `{"key": value, ...}` with the members in the order given; each value is
    /// JSON text already.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }

    /// An array with one element per line, `[]` when empty.
    static func array(_ elements: [String]) -> String {
        elements.isEmpty ? "[]" : "[\n" + elements.map { "  " + $0 }.joined(separator: ",\n") + "\n]"
    }
}

extension SessionStatus {
    /// The session as `--list --json` shows it; the keys are stable.
    var json: String {
        JSONText.object([
            ("pid", String(pid)),
            ("terminal", JSONText.string(terminal)),
            ("user", JSONText.string(user)),
            ("command", JSONText.string(command)),
            ("idle_seconds", String(idleSeconds)),
            ("locked", locked ? "true" : "false"),
            ("locks_in_seconds", locksInSeconds.map(String.init) ?? "null"),
            // Added later, after the keys above, whose order stays.
            ("state", JSONText.string(state)),
            ("detached_since", detachedSince.map(String.init) ?? "null"),
        ])
    }
}

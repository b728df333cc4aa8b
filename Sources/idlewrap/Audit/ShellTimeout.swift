/// What a shell start-up script does with `TMOUT`, the variable bash, ksh and zsh log an
/// idle shell out by: STIG and CIS baselines set it readonly (`declare -xr TMOUT=600`,
/// `readonly TMOUT=900; export TMOUT`, `typeset -r TMOUT`) so users cannot unset it.
struct ShellTimeout: Equatable {
    /// The last value assigned, in seconds; nil when none is, or it is not a number.
    var seconds: Int?
    var isReadonly = false
    /// The lines that set or fix it, as evidence.
    var evidence: [String] = []

    /// Reads a script's lines; nil when it never mentions TMOUT.
    init?(file: String, lines: [Substring]) {
        for (index, line) in lines.enumerated() {
            var mentioned = false
            for command in Self.commands(line) {
                let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                guard let first = words.first else { continue }
                let makesReadonly: Bool
                var operands: ArraySlice<String>
                switch first {
                case "readonly":
                    makesReadonly = true
                    operands = words.dropFirst()
                case "declare", "typeset", "export", "local":
                    let flags = words.dropFirst().prefix { $0.hasPrefix("-") }
                    makesReadonly = flags.contains { $0.dropFirst().contains("r") }
                    operands = words.dropFirst(1 + flags.count)
                default:
                    makesReadonly = false
                    operands = words[...]
                }
                for operand in operands {
                    let parts = operand.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    guard parts.first == "TMOUT" else { continue }
                    mentioned = true
                    if makesReadonly { isReadonly = true }
                    if parts.count == 2 { seconds = Int(parts[1].trimmingCharacters(in: "\"'")) }
                }
            }
            if mentioned { evidence.append(evidenceLine(file, index, line)) }
        }
        if evidence.isEmpty { return nil }
    }

    /// The simple commands of a line: split at `;`, `&&`, `||`, `then`, `do`; no comment.
    static func commands(_ line: Substring) -> [Substring] {
        let code = line.prefix { $0 != "#" }
        var result: [Substring] = []
        for piece in code.split(separator: ";") {
            for part in piece.split(separator: "&&") {
                for command in part.split(separator: "||") {
                    var text = command.trimmingBlanks()
                    for keyword in ["then ", "do ", "else "] where text.hasPrefix(keyword) {
                        text = text.dropFirst(keyword.count).trimmingBlanks()
                    }
                    result.append(text)
                }
            }
        }
        return result
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}

/// logind's `StopIdleSessionSec` (systemd 252 and later): the main file, then its
/// drop-ins in name order, the last assignment in the `[Login]` section winning, as
/// logind reads them.
struct LogindConfiguration: Equatable {
    /// nil: never (unset, `infinity`).
    var stopIdleSeconds: Int?
    /// The line that set it, as evidence.
    var evidence: String?

    init() {}

    /// Applies one file's lines over what earlier files set.
    mutating func apply(file: String, lines: [Substring]) {
        var inLogin = false
        for (index, line) in lines.enumerated() {
            let text = line.trimmingBlanks()
            if text.hasPrefix("[") {
                inLogin = text == "[Login]"
                continue
            }
            guard inLogin, !text.hasPrefix("#"), !text.hasPrefix(";"), let equals = text.firstIndex(of: "=") else {
                continue
            }
            guard text[..<equals].trimmingBlanks() == "StopIdleSessionSec" else { continue }
            let value = text[text.index(after: equals)...].trimmingBlanks()
            stopIdleSeconds = value.isEmpty || value == "infinity" ? nil : Self.seconds(of: value)
            evidence = evidenceLine(file, index, line)
        }
    }

    /// A systemd time span (`600`, `10min`, `1h 30min`, `5m30s`) in whole seconds; nil
    /// when it is not one. A bare number is seconds.
    static func seconds(of span: Substring) -> Int? {
        let units: [(String, Double)] = [
            ("usec", 1e-6), ("us", 1e-6), ("µs", 1e-6), ("msec", 1e-3), ("ms", 1e-3),
            ("seconds", 1), ("second", 1), ("sec", 1), ("s", 1),
            ("minutes", 60), ("minute", 60), ("min", 60), ("m", 60),
            ("hours", 3600), ("hour", 3600), ("hr", 3600), ("h", 3600),
            ("days", 86400), ("day", 86400), ("d", 86400), ("weeks", 604_800), ("week", 604_800), ("w", 604_800),
        ]
        var rest = Substring(span.filter { $0 != " " })
        var total = 0.0
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            let unitText = rest.prefix { !($0.isASCII && ($0.isNumber || $0 == ".")) }
            rest = rest.dropFirst(unitText.count)
            if unitText.isEmpty {
                total += value
            } else {
                guard let unit = units.first(where: { $0.0 == unitText }) else { return nil }
                total += value * unit.1
            }
        }
        return Int(total)
    }
}

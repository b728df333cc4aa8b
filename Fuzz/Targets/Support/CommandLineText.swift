@testable import idlewrap

// The command line that asks for an invocation, written from the option table with no
// per-option code: each setting the command line takes, as `Setting.text` spells its
// value, in one of the ways the parser reads (`--long=VALUE`, `--long VALUE`, `-s VALUE`,
// `-sVALUE`), chosen by the option's place in the table so that every way is used. A
// DURATION is also written in the other spellings below. The options fuzz target and the
// unit tests (which compile this file too) parse it back.

/// The arguments, then `--` and the command (or `--set-password`'s FILE).
func commandLineArguments(for invocation: Invocation) -> [String] {
    switch invocation {
    case .help: ["--help"]
    case .version: ["--version"]
    case .checkConfig: ["--check-config"]
    case .completion(let shell): ["--completion=\(shell.rawValue)"]
    case .showConfig(let settings): commandLineArguments(for: settings.options) + ["--show-config"]
    case .lockAll(let options): commandLineArguments(for: options) + ["--lock-all"]
    case .list(let options): commandLineArguments(for: options) + ["--list"]
    case .attach(let pid, let options):
        commandLineArguments(for: options) + ["--attach", "--"] + (pid.map { [String($0)] } ?? [])
    case .audit(let settings): commandLineArguments(for: settings.options) + ["--audit"]
    case .run(let options): commandLineArguments(for: options) + ["--"] + options.command
    case .setPassword(let file, let options):
        commandLineArguments(for: options) + ["--set-password", "--"] + (file.map { [$0] } ?? [])
    }
}

/// Every setting of `options` the command line can give. A switch that is off and a
/// value that is not set are left out: that is how the command line leaves them.
func commandLineArguments(for options: Options) -> [String] {
    var arguments: [String] = []
    for (index, option) in OptionTable.commandLine.enumerated() {
        guard let setting = option.setting else { continue }
        let text = setting.text(in: options)
        if option.kind == .switch {
            if text == "yes" { arguments.append(option.short.map { "-\($0)" } ?? "--\(option.long)") }
            continue
        }
        guard !text.isEmpty else { continue }
        let value = option.kind == .duration ? durationSpelling(text, index) : text
        let form = index % 4
        if form >= 2, let short = option.short {
            arguments += form == 2 ? ["-\(short)", value] : ["-\(short)\(value)"]
        } else if form % 2 == 0 {
            arguments.append("--\(option.long)=\(value)")
        } else {
            arguments += ["--\(option.long)", value]
        }
    }
    return arguments
}

/// `text` (formatDuration's) as is, in seconds, or in every unit, by `index`.
private func durationSpelling(_ text: String, _ index: Int) -> String {
    guard let duration = parseDuration(text) else { return text }
    switch index % 3 {
    case 0: return text
    case 1: return secondsText(duration)
    default: return unitsText(duration)
    }
}

/// DURATION texts written two more ways than formatDuration's; each must parse back to
/// exactly the same duration.

/// Seconds with a nine-digit fraction: `90.000000000s`, or `0` for off.
func secondsText(_ duration: Duration) -> String {
    let nanoseconds = duration.wholeNanoseconds
    guard nanoseconds != 0 else { return "0" }
    let fraction = String(nanoseconds % 1_000_000_000)
    let padded = String(repeating: "0", count: 9 - fraction.count) + fraction
    return "\(nanoseconds / 1_000_000_000).\(padded)s"
}

/// Every unit once, largest first: `1h2m3s4.000005ms`, `off` for off.
func unitsText(_ duration: Duration) -> String {
    guard duration != .zero else { return "off" }
    var left = duration.wholeNanoseconds
    var text = ""
    for (unit, size) in [("h", Int64(3_600_000_000_000)), ("m", 60_000_000_000), ("s", 1_000_000_000)] {
        text += "\(left / size)\(unit)"
        left %= size
    }
    let fraction = String(left % 1_000_000)
    return text + "\(left / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count) + fraction)ms"
}

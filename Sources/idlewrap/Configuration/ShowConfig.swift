/// `idlewrap --show-config`: every setting in effect, one `KEY = VALUE  # SOURCE` line each,
/// in the option table's order, policy limits included. A line without its comment is a
/// valid configuration file line; an empty VALUE means not set. Control characters (in
/// a message or a path) are shown in caret notation, as everywhere idlewrap prints them. SOURCE is `default`, a
/// configuration file's `PATH:LINE`, an environment variable, or the option as spelled
/// on the command line; when site policy changed the value, it is the limit's source
/// followed by `(KEY; was VALUE from SOURCE)`.
enum ShowConfig {
    static func text(of settings: Settings) -> String {
        let options = settings.options
        return OptionTable.settings.map { option in
            var source = settings.source(of: option).label
            if let change = options.policyChanges.last(where: { $0.key == option.long }) {
                source =
                    "\(change.limitAt.label) (\(change.limitKey); was \(change.requested) from \(change.requestedAt.label))"
            }
            let value = self.value(of: option, in: options)
            return terminalSafe("\(option.long) =\(value.isEmpty ? "" : " " + value)  # \(source)") + "\n"
        }.joined()
    }

    /// The value of `option` as a configuration file would spell it; empty when not set.
    static func value(of option: OptionDefinition, in options: Options) -> String {
        switch option.long {
        case "timeout": formatDuration(options.timeout)
        case "warn": formatDuration(options.warn)
        case "auth": options.auth?.rawValue ?? ""
        case "password-file": options.passwordFile ?? ""
        case "pam-service": options.pamService
        case "pam-confdir": options.pamConfigDirectory ?? ""
        case "message": options.message ?? ""
        case "lock-key": options.lockKey.flatMap(caretNotation(of:)) ?? ""
        case "on-lock": options.onLock ?? ""
        case "on-unlock": options.onUnlock ?? ""
        case "kill-after": formatDuration(options.killAfter)
        case "hold-limit": formatSize(options.holdLimit)
        case "wipe-scrollback": yesOrNo(options.wipeScrollback)
        case "bell-on-exit": yesOrNo(options.bellOnExit)
        case "login": yesOrNo(options.login)
        case "nested": yesOrNo(options.nested)
        case "quiet": yesOrNo(options.quiet)
        case "verbose": yesOrNo(options.verbose)
        case "max-timeout": formatDuration(options.maxTimeout)
        case "auth-methods": options.authPolicy.allowed.map(\.rawValue).joined(separator: ", ")
        case "max-kill-after": formatDuration(options.maxKillAfter)
        case "min-password-length": String(options.minPasswordLength)
        case "shell": options.shell ?? ""
        case "lock-ssh-commands": yesOrNo(options.lockSSHCommands)
        default: preconditionFailure("--show-config cannot show \(option.long)")
        }
    }

    private static func yesOrNo(_ on: Bool) -> String {
        on ? "yes" : "no"
    }
}

extension ValueSource {
    /// Where a value came from, as `--show-config` and notices name it.
    var label: String {
        switch self {
        case .defaultValue: "default"
        case .file(_, let path, let line): "\(path):\(line)"
        case .environment(let variable): variable
        case .commandLine(let spelled): spelled
        }
    }
}

/// A DURATION as `parseDuration` reads it back exactly: `off`, `15m`, `1h30m`, `250ms`,
/// `1.5s`.
func formatDuration(_ duration: Nanoseconds) -> String {
    guard duration > 0 else { return "off" }
    let second: Nanoseconds = 1_000_000_000
    let millisecond: Nanoseconds = 1_000_000
    var text = ""
    var rest = duration
    for (unit, name) in [(3600 * second, "h"), (60 * second, "m")] where rest >= unit {
        text += "\(rest / unit)\(name)"
        rest %= unit
    }
    if rest == 0 { return text }
    if rest % second == 0 { return text + "\(rest / second)s" }
    if rest < second && rest % millisecond == 0 { return text + "\(rest / millisecond)ms" }
    var fraction = String(rest % second)
    fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
    while fraction.last == "0" { fraction.removeLast() }
    return text + "\(rest / second).\(fraction)s"
}

/// A SIZE as `parseSize` reads it back: `8M`, `64K`, `1000`.
func formatSize(_ size: Int) -> String {
    for (unit, name) in [(1 << 30, "G"), (1 << 20, "M"), (1 << 10, "K")] where size >= unit && size % unit == 0 {
        return "\(size / unit)\(name)"
    }
    return String(size)
}

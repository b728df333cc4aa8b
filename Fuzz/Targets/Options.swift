@testable import idlewrap

// The option parser never crashes, its error messages cannot drive the
// terminal they are printed on (no control bytes), and what it accepts,
// written out again as arguments, parses to the same invocation.
//
// Input: one byte of flags (bit 0: an $IDLEWRAP_TIMEOUT is set, taken from
// the first argument), then the arguments separated by NUL.

/// Long options with attached values, then `--` and the command (or FILE).
private func arguments(for invocation: Invocation) -> [String] {
    switch invocation {
    case .help: return ["--help"]
    case .version: return ["--version"]
    case .completion(let shell): return ["--completion=\(shell.rawValue)"]
    case .showConfig(let settings): return arguments(for: settings.options) + ["--show-config"]
    case .lockAll(let options): return arguments(for: options) + ["--lock-all"]
    case .list(let options): return arguments(for: options) + ["--list"]
    case .run(let options): return arguments(for: options) + ["--"] + options.command
    case .setPassword(let file, let options):
        return arguments(for: options) + ["--set-password", "--"] + (file.map { [$0] } ?? [])
    }
}

/// The settings `arguments(for:)` writes out; an option added to the command line and
/// not here fails the target at once, so that the renderer keeps up with the table.
private let renderedSettings: Set<String> = [
    "timeout", "auth", "password-file", "pam-service", "pam-confdir", "message", "lock-key", "on-lock",
    "on-unlock", "kill-after", "hold-limit", "wipe-scrollback", "login", "nested", "quiet", "verbose",
    "warn", "bell-on-exit", "json", "user", "all-users",
]

private func arguments(for options: Options) -> [String] {
    var result = [
        "--timeout=\(secondsText(options.timeout))", "--kill-after=\(unitsText(options.killAfter))",
        "--pam-service=\(options.pamService)", "--hold-limit=\(options.holdLimit)",
    ]
    if let auth = options.auth { result.append("--auth=\(auth.rawValue)") }
    if let file = options.passwordFile { result.append("--password-file=\(file)") }
    if let directory = options.pamConfigDirectory { result += ["--pam-confdir", directory] }
    if let message = options.message { result += ["-m", message] }
    if let key = options.lockKey, let caret = caretNotation(of: key) { result.append("-k\(caret)") }
    if let command = options.onLock { result.append("--on-lock=\(command)") }
    if let command = options.onUnlock { result += ["--on-unlock", command] }
    if options.wipeScrollback { result.append("--wipe-scrollback") }
    if options.login { result.append("-l") }
    if options.nested { result.append("--nested") }
    if options.quiet { result.append("-q") }
    if options.verbose { result.append("--verbose") }
    if options.bellOnExit { result.append("--bell-on-exit") }
    if options.json { result.append("--json") }
    if let user = options.user { result.append("--user=\(user)") }
    if options.allUsers { result.append("--all-users") }
    result += ["--warn", formatDuration(options.warn)]
    return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let flags = input.byte()
    var words = input.rest().split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    var environmentTimeout: String?
    if flags & 1 != 0, !words.isEmpty { environmentTimeout = words.removeFirst() }

    let invocation: Invocation
    do {
        invocation = try Options.parse(words, environment: { $0 == "IDLEWRAP_TIMEOUT" ? environmentTimeout : nil })
    } catch {
        let text = error.description
        require(text.hasPrefix("idlewrap: "), "a usage error without the idlewrap: prefix")
        let controls = text.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }
        require(controls.isEmpty, "a usage error carries control characters: \(text.debugDescription)")
        require(text.split(separator: "\n").count == 2, "a usage error is not two lines: \(text.debugDescription)")
        return 0
    }
    if case .run(let options) = invocation {
        if options.passwordFile != nil { require(options.auth == .file, "--password-file without --auth file") }
    }
    let tableSettings = Set(OptionTable.commandLine.filter { !$0.effect.isAction }.map(\.long))
    require(tableSettings == renderedSettings, "the renderer misses \(tableSettings.symmetricDifference(renderedSettings))")
    let rendered = arguments(for: invocation)
    do {
        let again = try Options.parse(rendered, environment: { _ in nil })
        // --show-config carries where each value came from, which the spelling changes.
        if case .showConfig(let settings) = invocation, case .showConfig(let settingsAgain) = again {
            require(settingsAgain.options == settings.options, "\(words) → \(settings.options), but written out as \(rendered) → \(settingsAgain.options)")
        } else {
            require(again == invocation, "\(words) → \(invocation), but written out as \(rendered) → \(again)")
        }
    } catch {
        fatalError("property violated: \(words) accepted, but written out as \(rendered) it fails: \(error)")
    }
    return 0
}

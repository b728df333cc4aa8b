@testable import idlewrap

// The option parser never crashes, its error messages cannot drive the
// terminal they are printed on (no control bytes), and what it accepts,
// written out again as arguments, parses to the same invocation.
//
// Input: one byte of flags (bit 0: an $IDLEWRAP_TIMEOUT is set, taken from
// the first argument), then the arguments separated by NUL.

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
    let rendered = commandLineArguments(for: invocation)
    do {
        let again = try Options.parse(rendered, environment: { _ in nil })
        // --show-config and --audit carry where each value came from, which the spelling changes.
        // The values written out are those in effect: which of them policy lowered (a
        // --hold-limit over max-hold-limit's default) is not written, whatever the action.
        if let settings = invocation.settings, let settingsAgain = again.settings {
            require(
                settingsAgain.options.withoutPolicyChanges == settings.options.withoutPolicyChanges,
                "\(words) → \(settings.options), but written out as \(rendered) → \(settingsAgain.options)")
        } else {
            require(
                again.withoutPolicyChanges == invocation.withoutPolicyChanges,
                "\(words) → \(invocation), but written out as \(rendered) → \(again)")
        }
    } catch {
        fatalError("property violated: \(words) accepted, but written out as \(rendered) it fails: \(error)")
    }
    return 0
}

extension Invocation {
    /// The settings, with their sources, of an invocation that carries them.
    fileprivate var settings: Settings? {
        switch self {
        case .showConfig(let settings), .audit(let settings): settings
        default: nil
        }
    }
}

extension Invocation {
    /// The invocation with every options' policy changes left out (`Options.withoutPolicyChanges`).
    fileprivate var withoutPolicyChanges: Invocation {
        switch self {
        case .run(let options): .run(options.withoutPolicyChanges)
        case .setPassword(let file, let options): .setPassword(file: file, options: options.withoutPolicyChanges)
        case .lockAll(let options): .lockAll(options.withoutPolicyChanges)
        case .list(let options): .list(options.withoutPolicyChanges)
        case .attach(let pid, let options): .attach(pid: pid, options.withoutPolicyChanges)
        case .audit, .help, .version, .showConfig, .checkConfig, .completion: self
        }
    }
}

extension Options {
    var withoutPolicyChanges: Options {
        var options = self
        options.policyChanges = []
        return options
    }
}

/// Site policy: limits that only the system configuration file sets, and that nothing a
/// user sets (user file, environment, command line) can get past. A value over a limit
/// is lowered, with a notice and a record in the system log; a method the site does not
/// allow is refused as bad usage.
extension Settings {
    /// Keeps the system file's value of each setting it fixes (`fixed`), lowers the timeout,
    /// `--kill-after` and `--hold-limit` to their limits (`off` counts as longer than any),
    /// makes `max-kill-after` apply when `--kill-after` is off, and refuses an
    /// authentication method that `auth-methods` leaves out. Call it once, after every
    /// source has been applied.
    mutating func enforcePolicy() throws(UsageError) {
        keepFixedSettings()
        lower(OptionTable.timeout, options.timeout, to: OptionTable.maxTimeout, options.maxTimeout) { $0.timeout = $1 }
        lower(OptionTable.killAfter, options.killAfter, to: OptionTable.maxKillAfter, options.maxKillAfter) {
            $0.killAfter = $1
        }
        if options.holdLimit > options.maxHoldLimit {
            let change = PolicyChange(
                key: OptionTable.holdLimit.configKey, requested: formatSize(options.holdLimit),
                requestedAt: source(of: OptionTable.holdLimit), allowed: formatSize(options.maxHoldLimit),
                limitKey: OptionTable.maxHoldLimit.configKey, limitAt: source(of: OptionTable.maxHoldLimit),
                relation: .larger)
            enforce(change) { $0.holdLimit = $0.maxHoldLimit }
        }
        try checkMethodIsAllowed()
        try checkPAMStackIsAllowed(OptionTable.pamConfigDirectory)
        try checkPAMStackIsAllowed(OptionTable.pamService)
    }

    /// `--set-password` writes a file for the `file` method: pointless, and misleading,
    /// where the site does not allow that method.
    func checkPasswordFileIsAllowed() throws(UsageError) {
        guard !options.authPolicy.allows(.file) else { return }
        throw UsageError(
            message: "--set-password: the file method is not allowed by site policy: \(allowedMethods)",
            auditRecord: "refused --set-password: the file method is not allowed (auth-methods)")
    }

    /// Lowers `current`, the duration `option` set, to `limit`, the one `limitOption` set,
    /// unless that is off; `update` stores it.
    private mutating func lower(
        _ option: OptionDefinition, _ current: Duration, to limitOption: OptionDefinition, _ limit: Duration,
        _ update: (inout Options, Duration) -> Void
    ) {
        guard limit > .zero, current == .zero || current > limit else { return }
        let change = PolicyChange(
            key: option.configKey, requested: formatDuration(current), requestedAt: source(of: option),
            allowed: formatDuration(limit), limitKey: limitOption.configKey, limitAt: source(of: limitOption))
        enforce(change) { update(&$0, limit) }
    }

    private func checkMethodIsAllowed() throws(UsageError) {
        guard let method = options.auth, !options.authPolicy.allows(method) else { return }
        let auth = OptionTable.auth
        var at = source(of: auth)
        var asked = "\(at.name(of: auth)) \(method.rawValue)"
        if at == .defaultValue {
            // Only --password-file sets the method without --auth.
            let passwordFile = OptionTable.passwordFile
            at = source(of: passwordFile)
            asked = "\(at.name(of: passwordFile)) (which means auth file)"
        }
        throw UsageError(
            message: "\(at.messagePrefix)\(asked) is not allowed by site policy: \(allowedMethods)",
            auditRecord: "refused --auth \(method.rawValue): not in auth-methods")
    }

    /// A PAM stack from `--pam-confdir` is whatever its writer put there (`pam_permit`
    /// opens the lock with any password), and so is any service `--pam-service` names
    /// (one that asks nothing, or checks another password): where the site names the
    /// methods that may unlock, only the system file may choose either, unless the
    /// method is not PAM anyway.
    private func checkPAMStackIsAllowed(_ option: OptionDefinition) throws(UsageError) {
        let at = source(of: option)
        guard at.precedence > .systemFile,
            source(of: OptionTable.authMethods) != .defaultValue,
            options.auth != .file, options.auth != .ask
        else { return }
        throw UsageError(
            message: "\(at.messagePrefix)\(at.name(of: option)) is not allowed by site policy, which sets the"
                + " methods that may unlock (auth-methods, \(source(of: OptionTable.authMethods).label))",
            auditRecord: "refused --\(option.long) from \(at.label): auth-methods is set")
    }

    /// "only pam, file may be used (auth-methods, /etc/idlewrap/config:3)".
    private var allowedMethods: String {
        let methods = options.authPolicy.allowed.map(\.rawValue).joined(separator: ", ")
        return "only \(methods) may be used (auth-methods, \(source(of: OptionTable.authMethods).label))"
    }
}

/// Which authentication methods the site allows (`auth-methods`).
struct AuthPolicy: Equatable, Sendable {
    /// In the order the system file lists them.
    var allowed: [AuthMethod] = AuthMethod.allCases

    func allows(_ method: AuthMethod) -> Bool {
        allowed.contains(method)
    }
}

/// A setting that site policy changed: lowered to its limit, or filled in from it.
struct PolicyChange: Equatable, Sendable {
    /// The setting's key: `timeout`.
    let key: String
    /// The value asked for, as a configuration file would spell it: `off`.
    let requested: String
    let requestedAt: ValueSource
    /// The value in effect: `15m`.
    let allowed: String
    /// The limit's key: `max-timeout`.
    let limitKey: String
    let limitAt: ValueSource
    var relation = Relation.longer

    /// How the value asked for passes the limit.
    enum Relation: Equatable, Sendable {
        /// A duration longer than its limit.
        case longer
        /// A size larger than its limit.
        case larger
        /// Another value than the one the system file fixes (`fixed`).
        case fixed
    }

    /// Whether someone asked for the value, rather than it being the default: only then
    /// is the change worth a notice and a record in the log.
    var wasAskedFor: Bool { requestedAt != .defaultValue }

    /// "timeout off (-t) is longer than max-timeout (/etc/idlewrap/config:4); using 15m".
    var notice: String {
        let asked = "\(key) \(requested) (\(requestedAt.label))"
        return switch relation {
        case .longer: "\(asked) is longer than \(limitKey) (\(limitAt.label)); using \(allowed)"
        case .larger: "\(asked) is larger than \(limitKey) (\(limitAt.label)); using \(allowed)"
        case .fixed: "\(asked) is not allowed: the site fixes it (\(limitKey), \(limitAt.label)); using \(allowed)"
        }
    }

    /// For the system log.
    var auditRecord: String {
        let asked = "\(key) \(requested) (\(requestedAt.label))"
        return relation == .fixed
            ? "refused \(asked): the site fixes \(key) \(allowed) (\(limitKey))"
            : "lowered \(asked) to \(allowed) (\(limitKey))"
    }
}

/// Characters (not bytes) in a UTF-8 password: what `min-password-length` counts.
func characterCount(ofUTF8 bytes: UnsafeRawBufferPointer) -> Int {
    bytes.reduce(0) { count, byte in byte & 0xC0 == 0x80 ? count : count + 1 }
}

import PTYKit

/// How the session process comes by its authenticator. `file` and `ask` are set up
/// before the split, as they always were. PAM's check at start (libpam and every module
/// of the stack loaded, the account phase run) is the longest thing idlewrap does at
/// start: the guardian runs it after the split, while the session process sets up, and
/// tells it the outcome (`StartVerdict`) at the last moment before the command starts.
/// What the check finds (a notice, a refusal, the fall-back to `ask`) is said and asked
/// exactly as before the split: the session process has not touched the terminal yet.
enum StartAuthentication {
    case made(Authenticator)
    /// The method the guardian sets up, chosen without loading libpam, and the items
    /// of the session process's PAM transactions, looked up before the split.
    case checkedByGuardian(AuthChoice, PAMAuthenticator.Settings, StartVerdictPipe)

    /// Sets `options`' method up, or leaves PAM's to the guardian.
    static func prepare(_ options: Options, environment: Environment) throws(AuthenticationError)
        -> StartAuthentication
    {
        let choice = try AuthSetup.choice(
            method: options.auth, passwordFile: options.passwordFile,
            pamConfigDirectory: options.pamConfigDirectory, user: .runningUser, environment: { environment[$0] },
            policy: options.authPolicy, probingPAM: false)
        guard choice.method == .pam else {
            return .made(try makeAuthenticator(options, environment: environment, decided: choice))
        }
        let settings = PAMAuthenticator.settings(
            service: options.pamService, configurationDirectory: options.pamConfigDirectory,
            user: UserName.runningUser.value, terminal: .standardInput, environment: { environment[$0] })
        do {
            return .checkedByGuardian(choice, settings, try StartVerdictPipe())
        } catch {
            throw AuthenticationError(description: "cannot start idlewrap's session process: \(error)")
        }
    }

    /// Whether the session process waits for the guardian's verdict before the command starts.
    var waitsForGuardian: Bool {
        if case .checkedByGuardian = self { true } else { false }
    }

    /// The authenticator the guardian starts with: for PAM, none until its check.
    var madeAuthenticator: Authenticator {
        switch self {
        case .made(let authenticator): authenticator
        case .checkedByGuardian: NoAuthenticator()
        }
    }

    /// In the guardian: checks PAM, says what it finds, gives the guardian the
    /// authenticator for its own lock and tells the session process the verdict.
    func check(_ options: Options, environment: Environment, guardian: Guardian) {
        guard case .checkedByGuardian(let choice, _, let pipe) = self else { return }
        let sender = pipe.sender()
        let verdict: StartVerdict
        do {
            let authenticator = try Self.makeAuthenticator(options, environment: environment, decided: choice)
            guardian.unlocks(with: authenticator)
            verdict = (authenticator as? CryptAuthenticator).map { .lockPassword(hash: $0.hash) } ?? .pam
        } catch {
            Diagnostics.error(error.description)
            verdict = .refused
        }
        sender.send(verdict)
    }

    /// In the session process: the authenticator to unlock with, once the guardian lets the
    /// command start; nil when it must not (the reason is said).
    func sessionAuthenticator() -> Authenticator? {
        let pipe: StartVerdictPipe
        let pam: PAMAuthenticator
        switch self {
        case .made(let authenticator): return authenticator
        case .checkedByGuardian(_, let settings, let checked):
            pipe = checked
            // libpam is not loaded here before the first attempt.
            pam = PAMAuthenticator(settings: settings)
        }
        guard let verdict = pipe.gate().pass() else {
            Diagnostics.error("the guardian ended before it had checked PAM; not starting")
            return nil
        }
        return verdict.authenticator(pam: pam, user: .runningUser)
    }

    /// The split failed: nothing is checked.
    func abandon() {
        if case .checkedByGuardian(_, _, let pipe) = self { pipe.close() }
    }

    private static func makeAuthenticator(_ options: Options, environment: Environment, decided: AuthChoice)
        throws(AuthenticationError) -> Authenticator
    {
        try AuthSetup.makeAuthenticator(
            method: options.auth, passwordFile: options.passwordFile, pamService: options.pamService,
            pamConfigDirectory: options.pamConfigDirectory, user: .runningUser, terminal: .standardInput,
            environment: { environment[$0] }, policy: options.authPolicy,
            minimumPasswordLength: options.minPasswordLength,
            notice: { Diagnostics.notice($0, quiet: options.quiet) },
            policyRecord: { AuditLog.recordPolicy($0, environment: environment) }, decided: decided)
    }
}

import Glibc
import PTYKit

/// Builds the authenticator before the command starts.
enum AuthSetup {
    /// The authenticator for `method`, or for the default when it is nil:
    /// `file` if the password file (`passwordFile`, else the default one)
    /// exists, else `pam` if libpam loads, else `ask`, of the methods `policy`
    /// allows (the parser has refused a `method` it does not). `ask` prompts on
    /// `terminal` (a terminal) now, for a password of at least
    /// `minimumPasswordLength` characters. `notice` receives what the user
    /// should know about the set-up but that does not stop it; `policyRecord`
    /// what site policy would have refused but cannot: a right password from
    /// the password file that is shorter than `minimumPasswordLength`.
    ///
    /// PAM with the system's configuration is never used for an account whose
    /// login password is locked or empty (see `LoginPassword`), nor any stack
    /// whose account phase refuses the user at start: a lock nobody can open.
    /// Chosen by default, `ask` replaces it, with a notice; asked for with
    /// `-a pam`, it is refused. A stack from `--pam-confdir` is the caller's
    /// own and may not check the login password at all.
    static func makeAuthenticator(
        method: AuthMethod?, passwordFile: String?, pamService: String, pamConfigDirectory: String?,
        user: UserName, terminal: FileDescriptor, environment lookup: (String) -> String?,
        policy: AuthPolicy = AuthPolicy(), minimumPasswordLength: Int = 1, notice: (String) -> Void = { _ in },
        policyRecord: @escaping (String) -> Void = { _ in }
    ) throws(AuthenticationError) -> Authenticator {
        let choice = try self.choice(
            method: method, passwordFile: passwordFile, pamConfigDirectory: pamConfigDirectory, user: user,
            environment: lookup, policy: policy)
        if let fallback = choice.fallbackNotice { notice(fallback) }
        switch choice.method {
        case .file:
            let file = try self.passwordFile(choice.passwordFile, environment: lookup)
            let rule =
                minimumPasswordLength > 1
                ? ShortPasswordRule(minimumLength: minimumPasswordLength, record: policyRecord) : nil
            return try AuthFile.makeAuthenticator(passwordFile: file, user: user, shortPassword: rule)
        case .pam:
            let pam = try PAMAuthenticator.make(
                service: pamService, configurationDirectory: pamConfigDirectory, user: user.value,
                terminal: terminal, environment: lookup, notice: notice)
            guard let problem = pam.accountProblem else { return pam }
            // The same no-lock-out rule as for a login password that is not usable.
            guard method == nil else {
                throw AuthenticationError(description: "\(problem); use --auth ask or --auth file")
            }
            guard policy.allows(.ask) else {
                throw AuthenticationError(description: "\(problem), and site policy does not allow --auth ask")
            }
            notice("\(problem); asking for a lock password for this session instead (--auth ask)")
            return try AuthAsk.makeAuthenticator(user: user, terminal: terminal, minimumLength: minimumPasswordLength)
        case .ask:
            return try AuthAsk.makeAuthenticator(user: user, terminal: terminal, minimumLength: minimumPasswordLength)
        }
    }

    /// The method a session uses, as `makeAuthenticator` chooses it, and why; nothing is
    /// asked or opened. `--show-config` shows it too.
    static func choice(
        method: AuthMethod?, passwordFile: String?, pamConfigDirectory: String?, user: UserName,
        environment lookup: (String) -> String?, policy: AuthPolicy
    ) throws(AuthenticationError) -> AuthChoice {
        let passwordFileOrDefault = passwordFile ?? defaultPasswordFile(environment: lookup)
        if let method {
            if method == .pam && pamConfigDirectory == nil, let problem = unusableLoginPassword(of: user) {
                throw AuthenticationError(description: "\(problem); use --auth ask or --auth file")
            }
            return AuthChoice(method: method, passwordFile: passwordFileOrDefault, reason: nil)
        }
        let (chosen, reason) = defaultMethod(passwordFile: passwordFileOrDefault, policy: policy)
        var choice = AuthChoice(method: chosen, passwordFile: passwordFileOrDefault, reason: reason)
        if chosen == .pam && pamConfigDirectory == nil, let problem = unusableLoginPassword(of: user) {
            guard policy.allows(.ask) else {
                throw AuthenticationError(description: "\(problem), and site policy does not allow --auth ask")
            }
            choice.method = .ask
            choice.reason = problem
            choice.fallbackNotice = "\(problem); asking for a lock password for this session instead (--auth ask)"
            if policy.allows(.file), let file = passwordFileOrDefault {
                choice.fallbackNotice! +=
                    ". To be asked no more, run idlewrap --set-password: it makes the password file \(file),"
                    + " which is used from the next login on"
            }
        }
        return choice
    }

    /// `given`, else the default password file.
    static func passwordFile(_ given: String?, environment lookup: (String) -> String?) throws(AuthenticationError)
        -> String
    {
        guard let file = given ?? defaultPasswordFile(environment: lookup) else {
            throw AuthenticationError(
                description: "no password file: neither --password-file, XDG_CONFIG_HOME nor HOME is set")
        }
        return file
    }

    /// `$XDG_CONFIG_HOME/idlewrap/password`, else `$HOME/.config/idlewrap/password`;
    /// nil when neither variable is usable.
    static func defaultPasswordFile(environment lookup: (String) -> String?) -> String? {
        ConfigurationFiles.userDirectory(environment: lookup).map { $0 + "/password" }
    }

    /// Why PAM could never unlock for `user`, or nil when it could (or when
    /// that cannot be known).
    private static func unusableLoginPassword(of user: UserName) -> String? {
        switch LoginPassword.status(of: user.value) {
        case .usable, .unknown: nil
        case .locked: "\(user.value) has no usable login password (it is locked), so PAM could never unlock"
        case .empty: "\(user.value) has no usable login password (it is empty), so PAM could never unlock"
        }
    }

    /// The first of file, pam and ask that `policy` allows and that can work here, and
    /// why; when none can, the first allowed one, whose set-up then says why it cannot.
    private static func defaultMethod(passwordFile: String?, policy: AuthPolicy) -> (AuthMethod, String) {
        if policy.allows(.file), let passwordFile, exists(passwordFile) { return (.file, "\(passwordFile) exists") }
        let noFile = policy.allows(.file) ? "no password file" : "site policy leaves out the file method"
        if policy.allows(.pam), PAMLibrary.isLoadable { return (.pam, "\(noFile), and libpam loads") }
        let noPAM = policy.allows(.pam) ? "libpam cannot be loaded" : "site policy leaves out pam"
        if policy.allows(.ask) { return (.ask, "\(noFile), and \(noPAM)") }
        return (policy.allowed[0], "the only method site policy leaves that could work")
    }

    /// Whether something is at `path`. Anything but "no such file" counts as
    /// there, so that an unreadable file is reported rather than skipped.
    private static func exists(_ path: String) -> Bool {
        do {
            _ = try FileSystem.status(ofPath: path, followingLinks: false)
            return true
        } catch {
            return error != .noSuchFile && error != Errno(rawValue: ENOTDIR)
        }
    }
}

/// The method a session uses and, when it was chosen by default, why.
struct AuthChoice: Equatable {
    var method: AuthMethod
    /// `--password-file`, else the default password file (whether or not it is used).
    var passwordFile: String?
    /// Why the default is this method ("no password file, and libpam loads"); nil when
    /// the method was given.
    var reason: String?
    /// What the user should be told when the default had to fall back to `ask`.
    var fallbackNotice: String?
}

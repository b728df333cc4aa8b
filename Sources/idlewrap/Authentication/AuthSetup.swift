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
    /// should know about the set-up but that does not stop it.
    static func makeAuthenticator(
        method: AuthMethod?, passwordFile: String?, pamService: String, pamConfigDirectory: String?,
        user: UserName, terminal: FileDescriptor, environment lookup: (String) -> String?,
        policy: AuthPolicy = AuthPolicy(), minimumPasswordLength: Int = 1, notice: (String) -> Void = { _ in }
    ) throws(AuthenticationError) -> Authenticator {
        let passwordFileOrDefault = passwordFile ?? defaultPasswordFile(environment: lookup)
        switch method ?? defaultMethod(passwordFile: passwordFileOrDefault, policy: policy) {
        case .file:
            let file = try self.passwordFile(passwordFile, environment: lookup)
            return try AuthFile.makeAuthenticator(passwordFile: file, user: user)
        case .pam:
            return try PAMAuthenticator.make(
                service: pamService, configurationDirectory: pamConfigDirectory, user: user.value,
                terminal: terminal, environment: lookup, notice: notice)
        case .ask:
            return try AuthAsk.makeAuthenticator(user: user, terminal: terminal, minimumLength: minimumPasswordLength)
        }
    }

    /// `given`, else the default password file.
    static func passwordFile(_ given: String?, environment lookup: (String) -> String?) throws(AuthenticationError) -> String {
        guard let file = given ?? defaultPasswordFile(environment: lookup) else {
            throw AuthenticationError(description: "no password file: neither --password-file, XDG_CONFIG_HOME nor HOME is set")
        }
        return file
    }

    /// `$XDG_CONFIG_HOME/idlewrap/password`, else `$HOME/.config/idlewrap/password`;
    /// nil when neither variable is usable.
    static func defaultPasswordFile(environment lookup: (String) -> String?) -> String? {
        ConfigurationFiles.userDirectory(environment: lookup).map { $0 + "/password" }
    }

    /// The first of file, pam and ask that `policy` allows and that can work here;
    /// when none can, the first allowed one, whose set-up then says why it cannot.
    private static func defaultMethod(passwordFile: String?, policy: AuthPolicy) -> AuthMethod {
        if policy.allows(.file), let passwordFile, exists(passwordFile) { return .file }
        if policy.allows(.pam), PAMLibrary.isLoadable { return .pam }
        if policy.allows(.ask) { return .ask }
        return policy.allowed[0]
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

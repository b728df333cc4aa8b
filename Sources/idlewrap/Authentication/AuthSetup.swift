import Glibc
import PTYKit

/// Builds the authenticator before the command starts.
enum AuthSetup {
    /// The authenticator for `method`, or for the default when it is nil:
    /// `file` if the password file (`passwordFile`, else the default one)
    /// exists, else `pam` if libpam loads, else `ask`. `ask` prompts on
    /// `terminal` (a terminal) now. `notice` receives what the user should
    /// know about the set-up but that does not stop it.
    static func makeAuthenticator(
        method: AuthMethod?, passwordFile: String?, pamService: String, pamConfigDirectory: String?,
        user: UserName, terminal: FileDescriptor, environment lookup: (String) -> String?,
        notice: (String) -> Void = { _ in }
    ) throws(AuthSetupError) -> Authenticator {
        let file = passwordFile ?? defaultPasswordFile(environment: lookup)
        switch method ?? defaultMethod(passwordFile: file) {
        case .file:
            guard let file else {
                throw AuthSetupError(description: "no password file: neither --password-file, XDG_CONFIG_HOME nor HOME is set")
            }
            return try AuthFile.makeAuthenticator(passwordFile: file, user: user)
        case .pam:
            return try PAMAuthenticator.make(
                service: pamService, configurationDirectory: pamConfigDirectory, user: user.value,
                terminal: terminal, environment: lookup, notice: notice)
        case .ask:
            return try AuthAsk.makeAuthenticator(user: user, terminal: terminal)
        }
    }

    /// `$XDG_CONFIG_HOME/idlewrap/password`, else `$HOME/.config/idlewrap/password`;
    /// nil when neither variable is usable. A relative XDG_CONFIG_HOME is
    /// ignored, as the XDG base directory specification says.
    static func defaultPasswordFile(environment lookup: (String) -> String?) -> String? {
        if let config = lookup("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            return "\(config)/idlewrap/password"
        }
        if let home = lookup("HOME"), !home.isEmpty {
            return "\(home)/.config/idlewrap/password"
        }
        return nil
    }

    private static func defaultMethod(passwordFile: String?) -> AuthMethod {
        if let passwordFile, exists(passwordFile) { return .file }
        return PAMLibrary.isLoadable ? .pam : .ask
    }

    /// Whether something is at `path`. Anything but "no such file" counts as
    /// there, so that an unreadable file is reported rather than skipped.
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        do {
            _ = try valueOrErrno { lstat(path, &info) }
            return true
        } catch {
            return error != .noSuchFile && error != Errno(rawValue: ENOTDIR)
        }
    }
}

import CAuthShims
import Glibc

/// libpam, loaded at run time so that it is not a build or install
/// dependency, with the functions idlewrap calls.
struct PAMLibrary {
    static let soname = "libpam.so.0"

    let start: cauth_pam_start_fn
    /// pam_start_confdir (Linux-PAM 1.4 and later), for `--pam-confdir`.
    let startWithConfigurationDirectory: cauth_pam_start_confdir_fn?
    let end: cauth_pam_end_fn
    let authenticate: cauth_pam_authenticate_fn
    let accountManagement: cauth_pam_acct_mgmt_fn
    let setCredentials: cauth_pam_setcred_fn
    let setItem: cauth_pam_set_item_fn
    let getItem: cauth_pam_get_item_fn
    let strerror: cauth_pam_strerror_fn

    /// libpam, loaded on first use and then kept: choosing the default method
    /// and setting PAM up both need it, and loading it once is enough.
    static let loaded = Result { () throws(AuthenticationError) in try load() }

    /// Loads libpam. The library is never unloaded: the modules it loads stay
    /// in use, and a cancelled attempt's thread may still be running in it.
    private static func load() throws(AuthenticationError) -> PAMLibrary {
        do {
            let library = try RuntimeLibrary(soname)
            return try PAMLibrary(
                start: library.function("pam_start"),
                startWithConfigurationDirectory: library.symbol("pam_start_confdir"),
                end: library.function("pam_end"), authenticate: library.function("pam_authenticate"),
                accountManagement: library.function("pam_acct_mgmt"), setCredentials: library.function("pam_setcred"),
                setItem: library.function("pam_set_item"), getItem: library.function("pam_get_item"),
                strerror: library.function("pam_strerror"))
        } catch {
            throw AuthenticationError(description: "PAM is not available: \(error)")
        }
    }

    /// Whether libpam can be loaded (for choosing the default method).
    static var isLoadable: Bool {
        (try? loaded.get()) != nil
    }

    /// PAM's sentence for `status`, e.g. "Authentication failure".
    func describe(_ status: Int32, handle: OpaquePointer?) -> String {
        strerror(handle, status).map { String(cString: $0) } ?? "PAM error \(status)"
    }
}

/// Linux-PAM's numbers (<security/_pam_types.h>); stable across versions.
enum PAMConstant {
    // Return values.
    static let success: Int32 = 0
    static let bufferError: Int32 = 5
    static let authenticationError: Int32 = 7
    static let credentialsInsufficient: Int32 = 8
    static let userUnknown: Int32 = 10
    static let maximumTries: Int32 = 11
    static let newAuthenticationTokenRequired: Int32 = 12
    static let conversationError: Int32 = 19

    // Message styles.
    static let promptEchoOff: Int32 = 1
    static let promptEchoOn: Int32 = 2
    static let errorMessage: Int32 = 3
    static let textInfo: Int32 = 4

    // Items.
    static let user: Int32 = 2
    static let terminal: Int32 = 3
    static let remoteHost: Int32 = 4
    static let failDelay: Int32 = 10

    /// pam_authenticate flag: an empty password never authenticates.
    static let disallowNullAuthenticationToken: Int32 = 1
    /// Flag: modules show no messages.
    static let silent: Int32 = 0x8000
    /// pam_setcred flag: extend the lifetime of existing credentials.
    static let refreshCredentials: Int32 = 0x0010

    /// Most messages in one conversation call.
    static let maximumMessages: Int32 = 32
}

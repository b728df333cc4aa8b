import Glibc
import PTYKit

/// Who is running idlewrap, for the lock screen, PAM and the log.
enum UserIdentity {
    /// Looked up once, on first use.
    static let name: String = name(of: getuid())

    /// The name of `uid`'s account, or the number when it has none.
    static func name(of uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return String(uid) }
        return String(cString: name)
    }

    /// This machine's name, as the lock screen shows it.
    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: Int(HOST_NAME_MAX) + 1)
        guard (try? valueOrErrno { gethostname(&buffer, buffer.count - 1) }) != nil else { return "?" }
        return string(fromNulTerminated: buffer)
    }

    /// The login shell in the passwd entry, looked up at each call.
    static var loginShell: String? {
        passwdEntryField(\.pw_shell)
    }

    private static func passwdEntryField(_ field: KeyPath<passwd, UnsafeMutablePointer<CChar>?>) -> String? {
        guard let entry = getpwuid(getuid()), let value = entry.pointee[keyPath: field] else { return nil }
        return String(cString: value)
    }
}

/// A user's name as the password prompt and the log show it. The running
/// user's is looked up only when first shown, once idlewrap locks: an NSS
/// lookup at start would cost start-up time and a few hundred KiB that a
/// relaying idlewrap then keeps resident.
struct UserName: ExpressibleByStringLiteral {
    private let given: String?

    static let runningUser = UserName(given: nil)

    init(stringLiteral name: String) {
        given = name
    }

    private init(given: String?) {
        self.given = given
    }

    var value: String { given ?? UserIdentity.name }
}

import Glibc
import PTYKit

/// Who is running idlewrap and on which terminal, for the lock screen, PAM
/// and the log.
enum UserIdentity {
    /// Looked up once, on first use.
    static let name: String = {
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name {
            return String(cString: name)
        }
        return String(getuid())
    }()

    /// This machine's name, as the lock screen shows it.
    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: Int(HOST_NAME_MAX) + 1)
        guard (try? valueOrErrno { gethostname(&buffer, buffer.count - 1) }) != nil else { return "?" }
        return string(fromNulTerminated: buffer)
    }

    /// The terminal's path, e.g. /dev/pts/3, or nil when it is not one.
    static func terminalName(of descriptor: FileDescriptor) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        guard ttyname_r(descriptor.rawValue, &buffer, buffer.count) == 0 else { return nil }
        return string(fromNulTerminated: buffer)
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

import Glibc
import PTYKit

/// Who is running idlewrap and on which terminal, for the lock screen, PAM
/// and the log.
enum UserIdentity {
    static func name() -> String {
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name {
            return String(cString: name)
        }
        return String(getuid())
    }

    static func terminalName(of descriptor: FileDescriptor) -> String {
        guard let name = ttyname(descriptor.rawValue) else { return "?" }
        return String(cString: name)
    }
}

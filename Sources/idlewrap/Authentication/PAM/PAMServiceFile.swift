import Glibc
import PTYKit

/// Where libpam finds a service's stack, and what happens without one.
/// Without a file named after the service, Linux-PAM runs the `other`
/// service instead: on Debian and Ubuntu that includes the common-* stacks,
/// but on RHEL and its kin it is pam_deny, so a lock could never be opened.
enum PAMServiceFile {
    enum Lookup: Equatable {
        case found(path: String)
        /// No file for the service in `searched`; `otherDenies` when the
        /// `other` stack that PAM falls back to names pam_deny for auth.
        case missing(searched: [String], otherDenies: Bool)
    }

    /// The directories libpam reads: the --pam-confdir directory alone, else
    /// /etc/pam.d, then the distribution's /usr/lib/pam.d.
    static func directories(configurationDirectory: String?) -> [String] {
        configurationDirectory.map { [$0] } ?? ["/etc/pam.d", "/usr/lib/pam.d"]
    }

    static func locate(service: String, configurationDirectory: String?) -> Lookup {
        let searched = directories(configurationDirectory: configurationDirectory)
        if let path = firstFile(named: service, in: searched) {
            return .found(path: path)
        }
        let other = firstFile(named: "other", in: searched)
        return .missing(searched: searched, otherDenies: other.map(authDenies) ?? false)
    }

    private static func firstFile(named name: String, in directories: [String]) -> String? {
        directories.lazy.map { "\($0)/\(name)" }.first { (try? FileSystem.status(ofPath: $0)) != nil }
    }

    /// Whether an `auth` line of the file at `path` uses pam_deny. Includes
    /// are not followed: a stack that reaches pam_deny only through them (as
    /// Debian's common-auth does, after pam_unix) is a working one. An
    /// unreadable file counts as not denying: libpam reports it when it runs.
    private static func authDenies(_ path: String) -> Bool {
        guard let text = try? contents(of: path) else { return false }
        return text.split(separator: "\n").contains { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let type = words.first, type == "auth" || type == "-auth" else { return false }
            return words.contains { $0.hasSuffix("pam_deny.so") || $0 == "pam_deny" }
        }
    }

    /// A PAM configuration file is a few lines; 64 KiB is plenty.
    private static func contents(of path: String) throws(Errno) -> String {
        let descriptor = try FileDescriptor.open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        defer { try? descriptor.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
        defer { buffer.deallocate() }
        var used = 0
        while used < buffer.count {
            let count = try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[used...]))
            if count == 0 { break }
            used += count
        }
        return String(decoding: buffer[..<used], as: UTF8.self)
    }
}

import Glibc

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
        directories.lazy.map { "\($0)/\(name)" }.first { access($0, F_OK) == 0 }
    }

    /// Whether an `auth` line of the file at `path` uses pam_deny. Includes
    /// are not followed: a stack that reaches pam_deny only through them (as
    /// Debian's common-auth does, after pam_unix) is a working one.
    private static func authDenies(_ path: String) -> Bool {
        guard let file = fopen(path, "r") else { return false }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) >= 0, let line {
            let words = String(cString: line).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            guard let type = words.first, type == "auth" || type == "-auth" else { continue }
            if words.contains(where: { $0.hasSuffix("pam_deny.so") || $0 == "pam_deny" }) { return true }
        }
        return false
    }
}

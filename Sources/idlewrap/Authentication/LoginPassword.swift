import CAuthShims
import Glibc
import PTYKit

/// Whether the running user has a login password that PAM's local check
/// (pam_unix) could ever accept. An ssh-key-only account has a locked (`!`,
/// `*`) or empty hash, and a PAM lock would be one its user can never open.
///
/// Finding out without authenticating (a dummy password would count as a
/// failure in pam_faillock and in the log):
/// - /etc/shadow through getspnam: root, and members of group `shadow` where
///   the file is group-readable (Debian); not other users (mode 0640 on
///   Debian, 0000 on RHEL).
/// - `passwd -S` for one's own account: shadow-utils' passwd (Debian,
///   Ubuntu, Arch, SUSE) is set-uid root and prints the status (`P`, `L`,
///   `NP`) to any user about themselves. RHEL's and Fedora's passwd (libuser)
///   answers only root.
/// - Otherwise it cannot be known: a non-root user on RHEL-like systems, an
///   account that is not in /etc/shadow (LDAP, SSSD, Kerberos; its password
///   lives elsewhere). unix_chkpwd answers only "is it empty" without
///   checking a password, which would miss locked hashes.
enum LoginPassword {
    enum Status: Equatable {
        case usable
        case locked
        case empty
        /// Nothing idlewrap can read says; PAM is trusted as before.
        case unknown
    }

    static let passwdProgram = "/usr/bin/passwd"

    static func status(of user: String) -> Status {
        if let hash = shadowHash(of: user) {
            return status(ofHash: hash)
        }
        guard getuid() != 0 else { return .unknown }
        return passwdStatus(of: user)
    }

    /// pam_unix never accepts an empty hash with PAM_DISALLOW_NULL_AUTHTOK,
    /// nor one that starts with `!` (`passwd -l`, useradd's default) or `*`.
    static func status(ofHash hash: String) -> Status {
        if hash.isEmpty { return .empty }
        if hash.hasPrefix("!") || hash.hasPrefix("*") { return .locked }
        return .usable
    }

    /// The status field of `passwd -S` (`NAME P|L|NP DATE ...`), for `user`
    /// only.
    static func status(ofPasswdLine line: String, user: String) -> Status {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 2, fields[0] == user else { return .unknown }
        switch fields[1] {
        case "P", "PS": return .usable
        case "L", "LK": return .locked
        case "NP": return .empty
        default: return .unknown
        }
    }

    private static func shadowHash(of user: String) -> String? {
        guard let entry = getspnam(user), let hash = entry.pointee.sp_pwdp else { return nil }
        return String(cString: hash)
    }

    /// Runs `passwd -S` (no operand: one's own account) with a fixed locale
    /// and stdin and stderr on /dev/null, and reads its first line.
    private static func passwdStatus(of user: String) -> Status {
        guard let output = firstLine(of: [passwdProgram, "-S"]) else { return .unknown }
        return status(ofPasswdLine: output, user: user)
    }

    private static func firstLine(of arguments: [String]) -> String? {
        guard let output = ProgramOutput.run(arguments, limit: 4096), output.succeeded else { return nil }
        return String(output.text.prefix { $0 != "\n" })
    }
}

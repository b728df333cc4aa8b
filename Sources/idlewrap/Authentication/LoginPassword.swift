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
        var ends: [Int32] = [-1, -1]
        // Ends among 0-2 would be clobbered by the redirections below.
        guard (try? valueOrErrno { pipe(&ends) }) != nil, ends[0] > STDERR_FILENO, ends[1] > STDERR_FILENO else {
            return nil
        }
        let reader = FileDescriptor(rawValue: ends[0])
        defer { try? reader.close() }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = withCStrings(arguments) { argv in
            withCStrings(["LC_ALL=C", "PATH=/usr/sbin:/usr/bin:/sbin:/bin"]) { envp in
                posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
            }
        }
        try? FileDescriptor(rawValue: ends[1]).close()
        guard spawned == 0 else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while output.count < 4096 {
            let count = buffer.withUnsafeMutableBytes { raw in (try? reader.read(into: raw)) ?? 0 }
            if count <= 0 { break }
            output += buffer[..<count]
        }
        var waitStatus: Int32 = 0
        // A wait status of 0 is exactly "exited with status 0".
        guard (try? valueOrErrno { waitpid(pid, &waitStatus, 0) }) != nil, waitStatus == 0 else { return nil }
        return String(decoding: output.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }
}

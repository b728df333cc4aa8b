import Glibc
import PTYKit

/// What an audit looks at and against what: the files of this host (under `root`, which
/// only tests set), whose logins (every account for root, else the running user's), the
/// idle lock to hold them to, and the PAM service that unlocks.
struct AuditHost {
    /// Prefixed to every fixed path the checks read (`/etc/passwd`, `/etc/ssh/sshd_config`,
    /// `/var/run/utmp`, ...): empty for the real host. `IDLEWRAP_AUDIT_ROOT`, for tests,
    /// honoured only when root runs idlewrap.
    let root: String
    /// nil for root, who audits every account; else the running user's name.
    let onlyUser: String?
    let userName: String
    /// The longest idle time before a lock that the site may allow.
    let target: Duration
    let pamService: String
    /// `--pam-confdir`, else `/etc/pam.d` under `root`.
    let pamConfigDirectory: String

    static let defaultTarget = Duration.seconds(15 * 60)
    static let rootVariable = "IDLEWRAP_AUDIT_ROOT"

    init(settings: Settings, environment: Environment) {
        let options = settings.options
        let isRoot = getuid() == 0 && geteuid() == 0
        root = isRoot ? (environment[Self.rootVariable] ?? "") : ""
        userName = UserIdentity.name
        onlyUser = isRoot ? nil : userName
        let given = settings.source(of: OptionTable.timeout) != .defaultValue && options.timeout > .zero
        target = given ? options.timeout : Self.defaultTarget
        pamService = options.pamService
        pamConfigDirectory = options.pamConfigDirectory ?? root + "/etc/pam.d"
    }

    /// `path` (absolute) on the audited host.
    func path(_ path: String) -> String { root + path }

    /// Where `path` appears in evidence: as the host knows it, without the test root.
    func shown(_ path: String) -> String {
        !root.isEmpty && path.hasPrefix(root + "/") ? String(path.dropFirst(root.count)) : path
    }

    /// The lines of the text file at `path`, or nil when it cannot be read.
    static func lines(of path: String) -> [Substring]? {
        text(of: path)?.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The text of the regular file at `path`, or nil when it cannot be read.
    static func text(of path: String) -> String? {
        contents(of: path, limit: 1 << 22).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of the regular file at `path`, or nil when it cannot be read or holds
    /// more than `limit`.
    static func contents(of path: String, limit: Int) -> [UInt8]? {
        guard let descriptor = try? FileDescriptor.open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) else {
            return nil
        }
        defer { try? descriptor.close() }
        guard let info = try? descriptor.status(), info.st_mode & S_IFMT == S_IFREG,
            let bytes = try? descriptor.readToEnd(limit: limit), bytes.count <= limit
        else { return nil }
        return bytes
    }

    /// The regular files in `directory` whose names end in `suffix`, sorted as the
    /// programs that read such directories sort them; empty when there is none.
    static func files(in directory: String, endingIn suffix: String) -> [String] {
        ((try? FileSystem.entries(ofDirectory: directory)) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
            .map { directory + "/" + $0 }
    }
}

/// `FILE:LINE: text`, the way evidence names a line (at `index` from 0), its runs of
/// blanks made one space.
func evidenceLine(_ file: String, _ index: Int, _ line: Substring) -> String {
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
    return "\(file):\(index + 1): " + words.joined(separator: " ")
}

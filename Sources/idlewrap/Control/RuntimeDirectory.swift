import Glibc
import PTYKit

/// Where wrapping idlewraps register their control sockets, one directory per
/// user, as tmux keeps /tmp/tmux-UID: `$XDG_RUNTIME_DIR/idlewrap` when the
/// runtime directory is usable (the user's own, mode 0700), else
/// `/tmp/idlewrap-UID`. A directory counts only when it is a real directory
/// (not a link), owned by the user, with mode 0700: anything else may be
/// someone else's trap, and is never used.
enum RuntimeDirectory {
    static let temporaryBase = "/tmp"
    /// Where pam_systemd puts each user's XDG_RUNTIME_DIR: what root looks in
    /// for another user's sessions.
    static let userRuntimeBase = "/run/user"

    /// The directory this process registers in, made if missing; or why
    /// there is none. A session that may outlive its login (`--detach hangup`)
    /// registers under /tmp: logind removes the runtime directory when the
    /// user's last login ends, as tmux knows.
    static func forRegistering(
        uid: uid_t, environment: Environment, outlivingLogin: Bool = false
    ) -> Result<String, ControlProblem> {
        if !outlivingLogin, let runtime = usableRuntimeDirectory(uid: uid, environment: environment) {
            let directory = runtime + "/idlewrap"
            if case .success = make(directory, uid: uid) { return .success(directory) }
        }
        return make(temporaryDirectory(uid: uid), uid: uid)
    }

    /// The directories where `uid`'s sessions may have registered, for
    /// --lock-all and --list: those that exist, opened and checked, and why
    /// any other that exists cannot be used (someone else's, or open to
    /// others: maybe planted to keep the user's sessions from registering,
    /// which the user must hear of). `environment` is the caller's, and counts
    /// only for the caller's own sessions.
    static func lookUp(uid: uid_t, environment: Environment?) -> (
        found: [OpenRuntimeDirectory], problems: [ControlProblem]
    ) {
        var paths: [String] = []
        if let environment, let runtime = usableRuntimeDirectory(uid: uid, environment: environment) {
            paths.append(runtime + "/idlewrap")
        }
        paths.append("\(userRuntimeBase)/\(uid)/idlewrap")
        paths.append(temporaryDirectory(uid: uid))
        var found: [OpenRuntimeDirectory] = []
        var problems: [ControlProblem] = []
        var seen: Set<[UInt64]> = []
        for path in paths {
            switch open(path, uid: uid) {
            case .success(let directory?):
                if seen.insert([UInt64(directory.device), UInt64(directory.inode)]).inserted {
                    found.append(directory)
                }
            case .success(nil): continue
            case .failure(let problem): problems.append(problem)
            }
        }
        return (found, problems)
    }

    /// The directory at `path`, opened without following a link at its last
    /// part (where its owner may have put one) and checked on the open
    /// descriptor; nil when there is none. Root does everything else in it
    /// through this descriptor.
    static func open(_ path: String, uid: uid_t) -> Result<OpenRuntimeDirectory?, ControlProblem> {
        guard let slash = path.lastIndex(of: "/"), path.index(after: slash) < path.endIndex else {
            return .failure(ControlProblem("\(path) is not a directory"))
        }
        let parentPath = slash == path.startIndex ? "/" : String(path[..<slash])
        let name = String(path[path.index(after: slash)...])
        let parent: FileDescriptor
        do {
            parent = try FileDescriptor.open(parentPath, O_RDONLY | O_DIRECTORY)
        } catch .noSuchFile {
            return .success(nil)
        } catch {
            return .failure(ControlProblem("\(parentPath): \(error)"))
        }
        defer { try? parent.close() }
        let descriptor: FileDescriptor
        do {
            descriptor = try FileSystem.open(name, in: parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
        } catch .noSuchFile {
            return .success(nil)
        } catch {
            // Not a directory (a link, say), or not the caller's to open: say
            // which, as lstat sees it.
            return .failure(ControlProblem(problem(with: path, uid: uid) ?? "\(path): \(error)"))
        }
        let info: stat
        do {
            info = try descriptor.status()
        } catch {
            try? descriptor.close()
            return .failure(ControlProblem("\(path): \(error)"))
        }
        if let problem = problem(with: info, at: path, uid: uid) {
            try? descriptor.close()
            return .failure(ControlProblem(problem))
        }
        return .success(OpenRuntimeDirectory(path: path, descriptor: descriptor, uid: uid, status: info))
    }

    /// Every user who has a directory here, for root's --all-users.
    static func usersWithDirectories() -> [uid_t] {
        var users: Set<uid_t> = []
        for name in (try? FileSystem.entries(ofDirectory: userRuntimeBase)) ?? [] {
            if let uid = uid_t(name) { users.insert(uid) }
        }
        for name in (try? FileSystem.entries(ofDirectory: temporaryBase)) ?? [] where name.hasPrefix("idlewrap-") {
            if let uid = uid_t(name.dropFirst("idlewrap-".count)) { users.insert(uid) }
        }
        return users.sorted()
    }

    static func temporaryDirectory(uid: uid_t) -> String {
        "\(temporaryBase)/idlewrap-\(uid)"
    }

    /// Why `path` is not a safe directory of `uid`'s, or nil when it is.
    static func problem(with path: String, uid: uid_t) -> String? {
        do {
            return problem(with: try FileSystem.status(ofPath: path, followingLinks: false), at: path, uid: uid)
        } catch {
            return "\(path): \(error)"
        }
    }

    /// Why what is at `path` (`info`, not following a link) is not a safe
    /// directory of `uid`'s, or nil when it is.
    static func problem(with info: stat, at path: String, uid: uid_t) -> String? {
        if info.st_mode & S_IFMT != S_IFDIR { return "\(path) is not a directory" }
        if info.st_uid != uid { return "\(path) is not owned by uid \(uid)" }
        if info.st_mode & 0o777 != 0o700 { return "\(path) does not have mode 0700" }
        return nil
    }

    /// XDG_RUNTIME_DIR when it is an absolute path to a safe directory of `uid`'s.
    private static func usableRuntimeDirectory(uid: uid_t, environment: Environment) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
            problem(with: runtime, uid: uid) == nil
        else { return nil }
        return runtime
    }

    /// Makes `path` with mode 0700 unless it exists, then checks it.
    private static func make(_ path: String, uid: uid_t) -> Result<String, ControlProblem> {
        do {
            try FileSystem.makeDirectory(path, mode: 0o700)
        } catch let error where error != Errno(rawValue: EEXIST) {
            return .failure(ControlProblem("cannot make \(path): \(error)"))
        } catch {}
        if let problem = problem(with: path, uid: uid) { return .failure(ControlProblem(problem)) }
        return .success(path)
    }
}

/// One of a user's runtime directories, open: what --lock-all and --list
/// list, connect to and remove in it goes through `descriptor`, so a user who
/// swaps the directory for a link afterwards changes nothing of what root does.
final class OpenRuntimeDirectory {
    let path: String
    let descriptor: FileDescriptor
    /// Whose directory it is.
    let uid: uid_t
    let device: dev_t
    let inode: ino_t

    init(path: String, descriptor: FileDescriptor, uid: uid_t, status: stat) {
        self.path = path
        self.descriptor = descriptor
        self.uid = uid
        device = status.st_dev
        inode = status.st_ino
    }

    deinit {
        try? descriptor.close()
    }
}

/// What keeps a session from registering (it runs all the same, unlisted), or
/// --lock-all and --list from reaching the sessions asked for: one sentence.
struct ControlProblem: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

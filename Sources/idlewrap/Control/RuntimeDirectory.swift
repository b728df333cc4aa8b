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
    /// there is none.
    static func forRegistering(uid: uid_t, environment: Environment) -> Result<String, ControlProblem> {
        if let runtime = usableRuntimeDirectory(uid: uid, environment: environment) {
            let directory = runtime + "/idlewrap"
            if case .success = make(directory, uid: uid) { return .success(directory) }
        }
        return make(temporaryDirectory(uid: uid), uid: uid)
    }

    /// The directories where `uid`'s sessions may have registered, that
    /// exist and are safe, for --lock-all and --list. `environment` is the
    /// caller's, and counts only for the caller's own sessions.
    static func candidates(uid: uid_t, environment: Environment?) -> [String] {
        var directories: [String] = []
        if let environment, let runtime = usableRuntimeDirectory(uid: uid, environment: environment) {
            directories.append(runtime + "/idlewrap")
        }
        directories.append("\(userRuntimeBase)/\(uid)/idlewrap")
        directories.append(temporaryDirectory(uid: uid))
        var seen: Set<String> = []
        return directories.filter { seen.insert($0).inserted && problem(with: $0, uid: uid) == nil }
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
        let info: stat
        do {
            info = try FileSystem.status(ofPath: path, followingLinks: false)
        } catch {
            return "\(path): \(error)"
        }
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

/// What keeps a session from registering (it runs all the same, unlisted), or
/// --lock-all and --list from reaching the sessions asked for: one sentence.
struct ControlProblem: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

import Glibc
import PTYKit

/// The ownership rule idlewrap applies to every file it trusts (the password file and
/// the configuration files), as ssh's StrictModes does: the file, and the directory it
/// really is in (after symbolic links), must be owned by a trusted owner and not be
/// writable by group or others. Whoever can write either can change what idlewrap reads.
enum StrictModes {
    /// Who may own a trusted file or its directory.
    enum Owners {
        /// The running user, or root (who could change the file anyway).
        case userOrRoot
        /// Root only: the system configuration file, which sets site policy.
        case root
    }

    /// Why `info` (a file's or a directory's) is unsafe to trust, or nil.
    static func problem(with info: stat, trusting owners: Owners) -> String? {
        let user = getuid()
        switch owners {
        case .userOrRoot where info.st_uid != user && info.st_uid != 0:
            return "is owned by uid \(info.st_uid), not by you (uid \(user)) or root"
        case .root where info.st_uid != 0:
            return "is owned by uid \(info.st_uid), not by root"
        default:
            break
        }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            return "is writable by group or others (chmod go-w fixes that)"
        }
        return nil
    }

    /// The directory `path` really is in, and why it is unsafe to trust, or nil when it
    /// is safe.
    static func directoryProblem(of path: String, trusting owners: Owners) throws(Errno) -> (
        directory: String, problem: String
    )? {
        let directory = parentDirectory(of: try FileSystem.resolvedPath(path))
        let info = try FileSystem.status(ofPath: directory)
        return problem(with: info, trusting: owners).map { (directory, $0) }
    }
}

/// The directory part of `path`: "." for a bare name, "/" for the root.
func parentDirectory(of path: String) -> String {
    let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    let parent = String(trimmed[..<slash])
    return parent.isEmpty ? "/" : parent
}

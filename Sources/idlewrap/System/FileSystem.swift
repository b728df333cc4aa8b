import Glibc
import PTYKit

/// The calls on paths that idlewrap needs, each wrapped once.
enum FileSystem {
    /// What is at `path`: `stat`, or with `followingLinks: false` `lstat`
    /// (the link itself).
    static func status(ofPath path: String, followingLinks: Bool = true) throws(Errno) -> stat {
        var info = stat()
        if followingLinks {
            _ = try valueOrErrno { stat(path, &info) }
        } else {
            _ = try valueOrErrno { lstat(path, &info) }
        }
        return info
    }

    /// The absolute path of `path` with every symbolic link resolved.
    static func resolvedPath(_ path: String) throws(Errno) -> String {
        let resolved = try valueOrErrno({ realpath(path, nil) }, failed: { $0 == nil })!
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func makeDirectory(_ path: String, mode: mode_t) throws(Errno) {
        _ = try valueOrErrno { mkdir(path, mode) }
    }

    /// Replaces whatever is at `destination`, atomically.
    static func rename(_ source: String, to destination: String) throws(Errno) {
        _ = try valueOrErrno { Glibc.rename(source, destination) }
    }

    /// The names in the directory at `path`, without `.` and `..`.
    static func entries(ofDirectory path: String) throws(Errno) -> [String] {
        let directory = try valueOrErrno({ opendir(path) }, failed: { $0 == nil })!
        defer { closedir(directory) }
        var names: [String] = []
        // readdir's nil means the end; a read error there ends the list early.
        while let entry = readdir(directory) {
            // Up to the NUL only: readdir's entry may be shorter than a whole
            // `dirent`, so copying `d_name` (256 bytes) would read past it.
            let name = String(
                cString: (UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
                    .assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func removeFile(_ path: String) throws(Errno) {
        _ = try valueOrErrno { unlink(path) }
    }

    /// Creates and opens (read-write, mode 0600) a new file
    /// named `prefix` followed by six random characters: `mkstemp`.
    static func makeUniqueFile(prefix: String) throws(Errno) -> (FileDescriptor, path: String) {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let descriptor = FileDescriptor(rawValue: try valueOrErrno { mkstemp(&template) })
        return (descriptor, string(fromNulTerminated: template))
    }
}

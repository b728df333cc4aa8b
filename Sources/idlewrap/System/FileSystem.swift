import CPTYShims
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

    /// Throws why the caller may not run the file at `path` (`access`, X_OK).
    static func checkExecutable(_ path: String) throws(Errno) {
        _ = try valueOrErrno { access(path, X_OK) }
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
        try entries(readingDirectory: try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY))
    }

    /// The names in the open directory `directory`, without `.` and `..`;
    /// `directory` stays open (a descriptor of its own is read).
    static func entries(of directory: FileDescriptor) throws(Errno) -> [String] {
        try entries(readingDirectory: try open(".", in: directory, O_RDONLY | O_DIRECTORY))
    }

    /// Reads the directory open on `descriptor`, which this closes.
    private static func entries(readingDirectory descriptor: FileDescriptor) throws(Errno) -> [String] {
        let directory: OpaquePointer
        do {
            directory = try valueOrErrno({ fdopendir(descriptor.rawValue) }, failed: { $0 == nil })!
        } catch {
            try? descriptor.close()
            throw error
        }
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

    /// Opens `name` in the open directory `directory` (`openat`), never by a
    /// path from the root: what a name means is decided inside `directory`
    /// only. The descriptor is close-on-exec.
    static func open(_ name: String, in directory: FileDescriptor, _ flags: Int32, mode: mode_t = 0)
        throws(Errno) -> FileDescriptor
    {
        FileDescriptor(rawValue: try valueOrErrno { openat(directory.rawValue, name, flags | O_CLOEXEC, mode) })
    }

    /// A descriptor naming `name` in the open directory `directory` without
    /// opening it for reading or writing, and without following it if it is a
    /// link (`O_PATH | O_NOFOLLOW`): what `status()` then describes is the very
    /// file a later call through the descriptor reaches.
    static func openWithoutFollowing(_ name: String, in directory: FileDescriptor) throws(Errno)
        -> FileDescriptor
    {
        try open(name, in: directory, cpty_open_flag_path() | O_NOFOLLOW)
    }

    /// What `name` in the open directory `directory` is, the link itself when
    /// it is one (`fstatat` with `AT_SYMLINK_NOFOLLOW`).
    static func status(of name: String, in directory: FileDescriptor) throws(Errno) -> stat {
        var info = stat()
        _ = try valueOrErrno { fstatat(directory.rawValue, name, &info, AT_SYMLINK_NOFOLLOW) }
        return info
    }

    /// Removes the entry `name` from the open directory `directory`
    /// (`unlinkat`); a link is removed, never what it points to.
    static func removeFile(_ name: String, in directory: FileDescriptor) throws(Errno) {
        _ = try valueOrErrno { unlinkat(directory.rawValue, name, 0) }
    }

    /// Where the symbolic link at `path` points (`readlink`), e.g. for
    /// /proc/PID/exe.
    static func linkTarget(ofPath path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = try valueOrErrno { readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Creates and opens (read-write, mode 0600) a new file
    /// named `prefix` followed by six random characters: `mkstemp`.
    static func makeUniqueFile(prefix: String) throws(Errno) -> (FileDescriptor, path: String) {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let descriptor = FileDescriptor(rawValue: try valueOrErrno { mkstemp(&template) })
        return (descriptor, string(fromNulTerminated: template))
    }
}

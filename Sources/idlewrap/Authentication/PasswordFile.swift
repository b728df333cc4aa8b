import Glibc
import PTYKit

/// The password file of the `file` method: one line holding a crypt(3) hash.
///
/// Reading is strict, like ssh's StrictModes: the file must be a regular file
/// (a symbolic link to one is followed), owned by the user or root and not
/// writable by group or others, and so must the directory it is really in.
/// Root-owned files are accepted, as ssh does: root could change them anyway.
enum PasswordFile {
    /// Larger than any crypt hash with room to spare; a bigger file is not a
    /// password file.
    static let maximumSize = 4096

    /// Reads, checks and returns the hash stored at `path`.
    static func readHash(at path: String) throws(AuthenticationError) -> String {
        let contents: [UInt8]
        do {
            contents = try TrustedFile.read(path, owners: .userOrRoot, limit: maximumSize)
        } catch {
            throw AuthenticationError(description: description(of: error, path: path))
        }
        return try hash(in: contents, path: path)
    }

    private static func description(of problem: TrustedFile.Problem, path: String) -> String {
        let distrust = "(like ssh, idlewrap refuses to trust it)"
        switch problem {
        case .cannotOpen(.noSuchFile):
            return "password file \(path) does not exist (create it with: idlewrap --set-password \(path))"
        case .cannotOpen(let error): return "cannot open password file \(path): \(error)"
        case .cannotExamine(let error): return "cannot examine password file \(path): \(error)"
        case .notRegularFile: return "password file \(path) is not a regular file"
        case .unsafe(let problem): return "password file \(path) \(problem) \(distrust)"
        case .cannotExamineDirectory(let error):
            return "cannot examine the directory of password file \(path): \(error)"
        case .unsafeDirectory(let directory, let problem):
            return "directory \(directory) of password file \(path) \(problem) \(distrust)"
        case .cannotRead(let error): return "cannot read password file \(path): \(error)"
        case .tooLarge: return "password file \(path) is too large to hold a password hash"
        }
    }

    /// The hash on the file's first line; only blank lines may follow.
    private static func hash(in contents: [UInt8], path: String) throws(AuthenticationError) -> String {
        let lines = contents.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var first = lines.first ?? []
        if first.last == UInt8(ascii: "\r") { first = first.dropLast() }
        let rest = lines.dropFirst().joined()
        guard rest.allSatisfy({ $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
        else {
            throw AuthenticationError(
                description: "password file \(path) has more than one line; it should hold one password hash")
        }
        guard !first.isEmpty else {
            throw AuthenticationError(
                description: "password file \(path) is empty (set a password with: idlewrap --set-password \(path))")
        }
        guard let hash = String(validating: first, as: UTF8.self),
            hash.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else {
            throw AuthenticationError(
                description:
                    "password file \(path) does not hold a password hash: it contains spaces or unprintable characters")
        }
        if let problem = PasswordHash.problem(with: hash) {
            throw AuthenticationError(
                description: "password file \(path) does not hold a usable crypt(3) password hash: \(problem)")
        }
        return hash
    }

    /// Replaces the file at `path` with `hash` atomically: a temporary file in
    /// the same directory, mode 0600, synced, then renamed over `path` (a
    /// symbolic link there is replaced, not followed). With `makingDirectories`
    /// (the default file's, ~/.config/idlewrap), missing directories are created
    /// with mode 0700; otherwise a missing one is an error: a path typed with a
    /// typo must not grow directories unasked.
    static func write(hash: String, to path: String, makingDirectories: Bool = true) throws(AuthenticationError) {
        let directory = parentDirectory(of: path)
        if makingDirectories {
            do {
                try makeDirectories(directory)
            } catch {
                throw AuthenticationError(description: "cannot create directory \(directory): \(error)")
            }
        } else {
            do {
                _ = try FileSystem.status(ofPath: directory)
            } catch let error where error == .noSuchFile {
                throw AuthenticationError(
                    description: "cannot write password file \(path): no directory \(directory) (make it first)")
            } catch {
                // Making the file says what else is wrong.
            }
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let descriptor: FileDescriptor
        let temporary: String
        do {
            (descriptor, temporary) = try FileSystem.makeUniqueFile(prefix: "\(directory)/.\(name).")
        } catch {
            throw AuthenticationError(description: "cannot write password file \(path): \(error)")
        }
        do {
            defer { try? descriptor.close() }
            try descriptor.changeMode(0o600)
            try descriptor.writeAll(hash + "\n")
            try descriptor.synchronize()
            try FileSystem.rename(temporary, to: path)
        } catch {
            try? FileSystem.removeFile(temporary)
            throw AuthenticationError(description: "cannot write password file \(path): \(error)")
        }
        syncDirectory(directory)
    }

    /// `mkdir -p` with mode 0700 for each directory it creates.
    private static func makeDirectories(_ directory: String) throws(Errno) {
        if (try? FileSystem.status(ofPath: directory)) != nil { return }
        let parent = parentDirectory(of: directory)
        if parent != directory {
            try makeDirectories(parent)
        }
        do {
            try FileSystem.makeDirectory(directory, mode: 0o700)
        } catch let error where error == Errno(rawValue: EEXIST) {
            return
        }
    }

    /// Makes the rename itself durable. Best effort: the file is already in
    /// place, and not every file system can sync a directory.
    private static func syncDirectory(_ directory: String) {
        guard let descriptor = try? FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY) else { return }
        try? descriptor.synchronize()
        try? descriptor.close()
    }
}

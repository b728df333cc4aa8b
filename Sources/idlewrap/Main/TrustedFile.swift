import Glibc
import PTYKit

/// Reading a file that idlewrap trusts: the password file and the configuration files.
/// The steps are the same for each, in this order: open it without blocking (a FIFO at
/// the path cannot hang the start) and without following it to a terminal; fstat the
/// open file, which must be a regular file (a symbolic link to one is followed); apply
/// `StrictModes` to the file and to the directory it really is in; and read at most
/// `limit` bytes. Each caller words the problems for its own file.
enum TrustedFile {
    enum Problem: Error, Equatable {
        /// `open` failed: `.noSuchFile` when there is no file at the path.
        case cannotOpen(Errno)
        case cannotExamine(Errno)
        case notRegularFile
        /// The file breaks `StrictModes`; `problem` completes "it ...".
        case unsafe(problem: String)
        case cannotExamineDirectory(Errno)
        /// The directory the file is in breaks `StrictModes`.
        case unsafeDirectory(String, problem: String)
        case cannotRead(Errno)
        case tooLarge
    }

    /// The contents of the file at `path`, checked as above.
    static func read(_ path: String, owners: StrictModes.Owners, limit: Int) throws(Problem) -> [UInt8] {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        } catch {
            throw .cannotOpen(error)
        }
        defer { try? descriptor.close() }
        let info: stat
        do {
            info = try descriptor.status()
        } catch {
            throw .cannotExamine(error)
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile }
        if let problem = StrictModes.problem(with: info, trusting: owners) { throw .unsafe(problem: problem) }
        let directory: (directory: String, problem: String)?
        do {
            directory = try StrictModes.directoryProblem(of: path, trusting: owners)
        } catch {
            throw .cannotExamineDirectory(error)
        }
        if let (directory, problem) = directory { throw .unsafeDirectory(directory, problem: problem) }
        let contents: [UInt8]
        do {
            contents = try descriptor.readToEnd(limit: limit)
        } catch {
            throw .cannotRead(error)
        }
        guard contents.count <= limit else { throw .tooLarge }
        return contents
    }
}

import Glibc
import Testing

@testable import TestSupport
@testable import idlewrap

@Suite struct PasswordFileTests {
    static let hash = AuthPasswordHashTests.sha512

    func refusal(_ path: String) -> String? {
        do {
            _ = try PasswordFile.readHash(at: path)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func readsTheHash() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("password", Self.hash + "\n")
        #expect(try PasswordFile.readHash(at: path) == Self.hash)
    }

    @Test(arguments: ["", "\n", "\r\n", "\n\n", "\r\n \n"])
    func acceptsTrailingLineBreaks(_ tail: String) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("password", Self.hash + tail)
        #expect(try PasswordFile.readHash(at: path) == Self.hash)
    }

    @Test(arguments: [(0o620 as mode_t, "writable by group or others"), (0o602, "writable by group or others")])
    func refusesAFileOthersCanWrite(_ mode: mode_t, _ problem: String) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("password", Self.hash + "\n", mode: mode)
        let message = try #require(refusal(path))
        #expect(message.contains(path))
        #expect(message.contains(problem))
    }

    @Test func refusesAFileSomeoneElseOwns() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("password", Self.hash + "\n")
        try #require(chown(path, 12345, 12345) == 0, "chown needs root")
        let message = try #require(refusal(path))
        #expect(message.contains("owned by uid 12345"))
    }

    @Test func refusesADirectoryOthersCanWrite() throws {
        let directory = try TemporaryDirectory()
        try #require(mkdir(directory.file("shared"), 0o700) == 0)
        try #require(chmod(directory.file("shared"), 0o770) == 0)
        let path = try directory.write("shared/password", Self.hash + "\n")
        let message = try #require(refusal(path))
        #expect(message.contains("directory \(directory.file("shared"))"))
        #expect(message.contains("writable by group or others"))
    }

    @Test func followsASymbolicLinkAndChecksWhereItLeads() throws {
        let directory = try TemporaryDirectory()
        let target = try directory.write("real", Self.hash + "\n")
        try #require(symlink(target, directory.file("link")) == 0)
        #expect(try PasswordFile.readHash(at: directory.file("link")) == Self.hash)
        try #require(chmod(target, 0o666) == 0)
        #expect(refusal(directory.file("link"))?.contains("writable by group or others") == true)
    }

    @Test func refusesWhatIsNotARegularFile() throws {
        let directory = try TemporaryDirectory()
        try #require(mkdir(directory.file("folder"), 0o700) == 0)
        #expect(refusal(directory.file("folder"))?.contains("not a regular file") == true)
        try #require(mkfifo(directory.file("fifo"), 0o600) == 0)
        #expect(refusal(directory.file("fifo"))?.contains("not a regular file") == true)
    }

    @Test func refusesAMissingFile() throws {
        let directory = try TemporaryDirectory()
        let message = try #require(refusal(directory.file("absent")))
        #expect(
            message
                == "password file \(directory.file("absent")) does not exist (create it with: idlewrap --set-password \(directory.file("absent")))"
        )
    }

    @Test(arguments: [
        ("", "is empty"),
        ("\n", "is empty"),
        ("hunter2\n", "does not hold a usable crypt(3) password hash"),
        ("$y$j9T$truncated\n", "does not hold a usable crypt(3) password hash"),
        (hash + "\nsecond line\n", "more than one line"),
        ("$6$with space$x\n", "spaces or unprintable characters"),
        (String(repeating: "$", count: 5000), "too large"),
    ])
    func refusesContentsThatAreNotOneHash(_ contents: String, _ problem: String) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("password", contents)
        let message = try #require(refusal(path))
        #expect(message.contains(problem), "\(message)")
    }

    @Test func writesAtomicallyWithPrivateModes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("config/idlewrap/password")
        try PasswordFile.write(hash: Self.hash, to: path)
        #expect(try readFile(path) == Self.hash + "\n")
        #expect(try fileStatus(path).st_mode & 0o7777 == 0o600)
        #expect(try fileStatus(directory.file("config")).st_mode & 0o7777 == 0o700)
        #expect(try fileStatus(directory.file("config/idlewrap")).st_mode & 0o7777 == 0o700)
        #expect(try PasswordFile.readHash(at: path) == Self.hash)
    }

    @Test func replacesAnExistingFileAndLeavesNoTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("password", "old contents\n", mode: 0o644)
        try PasswordFile.write(hash: Self.hash, to: path)
        #expect(try readFile(path) == Self.hash + "\n")
        #expect(try fileStatus(path).st_mode & 0o7777 == 0o600)
        #expect(entries(of: directory.path) == ["password"])
    }

    @Test func replacesASymbolicLinkRatherThanWritingThroughIt() throws {
        let directory = try TemporaryDirectory()
        let target = try directory.write("elsewhere", "untouched\n")
        try #require(symlink(target, directory.file("password")) == 0)
        try PasswordFile.write(hash: Self.hash, to: directory.file("password"))
        #expect(try readFile(target) == "untouched\n")
        #expect(try fileStatus(directory.file("password")).st_mode & S_IFMT == S_IFREG)
    }

    @Test func reportsAFailedWrite() throws {
        let directory = try TemporaryDirectory()
        try directory.write("file", "")
        let path = directory.file("file/password")
        #expect(throws: AuthenticationError.self) { try PasswordFile.write(hash: Self.hash, to: path) }
    }

    func entries(of path: String) -> [String] {
        directoryEntries(path).sorted()
    }
}

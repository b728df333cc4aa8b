import Glibc
import PTYKit
import Testing

@testable import idlewrap

@Suite struct FileSystemTests {
    /// readdir's entries are only as long as their names need: reading a whole
    /// `d_name` past a short one at the end of readdir's buffer is a heap
    /// overflow (caught under `swift test --sanitize=address`). Thousands of
    /// short names fill that buffer to its end.
    @Test func entriesListsShortAndLongNames() throws {
        var template = Array("/tmp/ptykit-entries.XXXXXX".utf8CString)
        let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { _ = rmdir(directory) }
        let names = (1...3000).map(String.init) + [String(repeating: "n", count: 255)]
        for name in names {
            let descriptor = open("\(directory)/\(name)", O_CREAT | O_WRONLY, 0o600)
            try #require(descriptor >= 0)
            close(descriptor)
        }
        defer { for name in names { unlink("\(directory)/\(name)") } }
        #expect(try FileSystem.entries(ofDirectory: directory).sorted() == names.sorted())
    }

    /// The calls relative to an open directory act inside it, on a link
    /// itself and never on what it points to.
    @Test func callsInAnOpenDirectoryNeverFollowALink() throws {
        var template = Array("/tmp/ptykit-at.XXXXXX".utf8CString)
        let base = try #require(mkdtemp(&template).map { String(cString: $0) })
        let inside = base + "/inside"
        let outside = base + "/outside"
        #expect(mkdir(inside, 0o700) == 0 && mkdir(outside, 0o700) == 0)
        #expect(creat(outside + "/target", 0o600) >= 0)
        #expect(symlink(outside + "/target", inside + "/link") == 0)
        defer {
            for path in [inside + "/link", outside + "/target"] { unlink(path) }
            for path in [inside, outside, base] { rmdir(path) }
        }
        let directory = try FileDescriptor.open(inside, O_RDONLY | O_DIRECTORY)
        defer { try? directory.close() }
        #expect(try FileSystem.entries(of: directory) == ["link"])
        #expect(try FileSystem.status(of: "link", in: directory).st_mode & S_IFMT == S_IFLNK)
        let named = try FileSystem.openWithoutFollowing("link", in: directory)
        #expect(try named.status().st_mode & S_IFMT == S_IFLNK)
        try named.close()
        #expect(throws: Errno(rawValue: ELOOP)) {
            try FileSystem.open("link", in: directory, O_RDONLY | O_NOFOLLOW)
        }
        #expect(try FileSystem.linkTarget(ofPath: inside + "/link") == outside + "/target")
        try FileSystem.removeFile("link", in: directory)
        #expect(access(outside + "/target", F_OK) == 0, "the link's target was removed")
        #expect(try FileSystem.entries(of: directory).isEmpty)
    }
}

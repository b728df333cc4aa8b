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
}

import Glibc
import Testing

@testable import TestSupport
@testable import idlewrap

@Suite struct CommandPlanTests {
    /// The running binary (this test runner stands in for idlewrap) is recognised by the
    /// file, whatever the path: through a symbolic link or a hard link, never a copy.
    @Test func idlewrapIsRecognisedByItsFileNotItsPath() throws {
        let directory = try TemporaryDirectory()
        let own = try FileSystem.resolvedPath("/proc/self/exe")
        #expect(CommandPlan.isIdlewrap(own))
        #expect(symlink(own, directory.file("symbolic")) == 0)
        #expect(CommandPlan.isIdlewrap(directory.file("symbolic")))
        if link(own, directory.file("hard")) == 0 {
            #expect(CommandPlan.isIdlewrap(directory.file("hard")))
        }
        #expect(!CommandPlan.isIdlewrap("/bin/sh"))
        #expect(!CommandPlan.isIdlewrap(directory.file("missing")))
    }
}

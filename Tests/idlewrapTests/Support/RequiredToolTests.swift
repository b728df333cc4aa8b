import Testing

@testable import TestSupport

/// The tools the tests may skip without are the tools CI installs and the README's
/// install line names: a package missing from either would let CI fail on a skip, or a
/// reader of the README miss tests, with nobody told why.
@Suite struct RequiredToolTests {
    @Test func ciInstallsEveryPackage() throws {
        let script = try readFile(packageDirectory + "/.ci/run")
        for tool in RequiredTool.all {
            #expect(script.contains(tool.package), ".ci/run does not install \(tool)")
        }
        #expect(script.contains("\(RequiredTool.strictVariable)=1 swift test"))
    }

    @Test func theReadmesInstallLineNamesEveryPackage() throws {
        let readme = try readFile(packageDirectory + "/README.md")
        let lines = readme.split(separator: "\n").filter { $0.hasPrefix("sudo apt-get install ") }
        try #require(lines.count == 1, "README.md should have one line installing the optional tools")
        let packages = Set(lines[0].split(separator: " ").dropFirst(3).map(String.init))
        #expect(packages == Set(RequiredTool.all.map(\.package)))
    }

    @Test func aSkipNamesTheToolAndItsPackage() {
        #expect(RequiredTool.missingText([.zsh]) == "needs zsh (Debian package zsh), not installed")
        #expect(
            RequiredTool.missingText([.sshd, .ssh])
                == "needs sshd (Debian package openssh-server) and ssh (Debian package openssh-client), not installed")
    }
}

import Glibc
import PTYKit
import Testing

@testable import idlewrap

/// A real local account made with useradd for one test (the tests run as
/// root), without a home directory, removed again when the value dies, also
/// when the test failed. Its idlewrap is a copy of the built binary in a
/// directory every user can read, since the build tree may not be.
final class TestUser {
    let name: String
    let directory: TemporaryDirectory
    /// The copy of idlewrap to run as this user.
    let idlewrap: String

    static var canBeMade: Bool { getuid() == 0 }

    /// A user whose password is `password`, or locked (useradd's `!`) when nil.
    init(password: String?) throws {
        name = "iwtest\(UInt32.random(in: 100_000...999_999))"
        directory = try TemporaryDirectory()
        chmod(directory.path, 0o755)
        idlewrap = directory.file("idlewrap")
        try #require(TestUser.run(["/bin/cp", TerminalDriver.idlewrap, idlewrap]), "cannot copy idlewrap")
        chmod(idlewrap, 0o755)
        try #require(TestUser.run(["useradd", "-M", "-s", "/bin/sh", name]), "useradd \(name) failed")
        if let password {
            try #require(TestUser.run(["sh", "-c", "printf '%s:%s\\n' \"$0\" \"$1\" | chpasswd", name, password]), "chpasswd failed")
        }
    }

    deinit {
        // -f: a process of the user that is still exiting must not keep the
        // account around.
        _ = TestUser.run(["userdel", "-f", name])
    }

    /// `arguments` run as this user through runuser, without the test's
    /// XDG_CONFIG_HOME (its password file belongs to root).
    func terminal(_ arguments: [String], environment: [String: String] = [:]) throws -> TerminalDriver {
        try TerminalDriver(
            ["runuser", "-u", name, "--"] + arguments,
            environment: environment.merging(["XDG_CONFIG_HOME": ""]) { mine, _ in mine })
    }

    /// A directory owned by this user, mode 0700.
    func privateDirectory(_ name: String) throws -> String {
        let path = directory.file(name)
        try #require(mkdir(path, 0o700) == 0, "mkdir \(path) failed: errno \(errno)")
        guard let entry = getpwnam(self.name) else { throw TmuxError(message: "no passwd entry for \(self.name)") }
        try #require(chown(path, entry.pointee.pw_uid, entry.pointee.pw_gid) == 0, "chown failed: errno \(errno)")
        return path
    }

    /// Runs `arguments` to the end; true when it exited with status 0.
    @discardableResult
    static func run(_ arguments: [String]) -> Bool {
        guard let driver = try? TerminalDriver(arguments) else { return false }
        return driver.waitForExit() == .exited(0)
    }

    /// What `arguments` wrote, once it ended.
    static func output(of arguments: [String]) -> String? {
        guard let driver = try? TerminalDriver(arguments), driver.waitForExit() == .exited(0) else { return nil }
        return driver.text
    }
}

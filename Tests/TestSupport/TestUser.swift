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
            try #require(
                TestUser.run(["sh", "-c", "printf '%s:%s\\n' \"$0\" \"$1\" | chpasswd", name, password]),
                "chpasswd failed")
        }
    }

    deinit {
        let uid = getpwnam(name)?.pointee.pw_uid
        // -f: a process of the user that is still exiting must not keep the
        // account around.
        _ = TestUser.run(["userdel", "-f", name])
        // Where the user's sessions registered for --lock-all.
        if let uid { _ = TestUser.run(["rm", "-rf", RuntimeDirectory.temporaryDirectory(uid: uid)]) }
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

/// For the --lock-all tests: the user's ids, and programs run as the user
/// through setpriv, which execs in place, so that the terminal's process is
/// the program itself (its pid names its control socket).
extension TestUser {
    var uid: uid_t { getpwnam(name)?.pointee.pw_uid ?? 0 }
    var gid: gid_t { getpwnam(name)?.pointee.pw_gid ?? 0 }

    /// Where this user's sessions register when there is no XDG_RUNTIME_DIR.
    var runtimeDirectory: String { RuntimeDirectory.temporaryDirectory(uid: uid) }

    /// `arguments` as this user, with a plain environment: no XDG_RUNTIME_DIR
    /// of root's unless `runtimeDirectory` gives one, no XDG_CONFIG_HOME.
    func setprivTerminal(_ arguments: [String], runtimeDirectory: String = "") throws -> TerminalDriver {
        try TerminalDriver(
            ["setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--init-groups", "--"] + arguments,
            environment: [
                "XDG_RUNTIME_DIR": runtimeDirectory, "XDG_CONFIG_HOME": "", "HOME": "/", "USER": name, "LOGNAME": name,
            ])
    }

    /// Runs `arguments` as this user to its end, and returns how it ended
    /// and its output (newlines, not the terminal's CR LF).
    func runToEnd(_ arguments: [String], runtimeDirectory: String = "") throws
        -> (status: TerminationStatus?, text: String)
    {
        let driver = try setprivTerminal(arguments, runtimeDirectory: runtimeDirectory)
        let status = driver.waitForExit()
        return (status, driver.text.replacing("\r\n", with: "\n"))
    }

    /// Runs `arguments` as root to its end: how it ended, and its output.
    static func result(of arguments: [String]) -> (status: TerminationStatus?, text: String) {
        guard let driver = try? TerminalDriver(arguments) else { return (nil, "cannot start \(arguments[0])") }
        let status = driver.waitForExit()
        return (status, driver.text.replacing("\r\n", with: "\n"))
    }
}

import Glibc
import PTYKit
import Testing
@testable import idlewrap

/// A real user, made with useradd for one test and removed with userdel when
/// the value goes, even after a failed expectation; its /tmp/idlewrap-UID
/// directory goes with it.
final class TestUser {
    let name: String
    let uid: uid_t
    let gid: gid_t

    /// `tag` tells a test's users apart; the pid keeps parallel runs apart.
    init(_ tag: String) throws {
        name = "iw\(tag)\(getpid() % 100_000)"
        // Left over by a run that was killed before it could clean up.
        _ = TestUser.run(["userdel", "-f", name])
        let added = TestUser.run(["useradd", "-M", "-d", "/nonexistent", "-s", "/bin/sh", name])
        try #require(added.status == .exited(0), "useradd \(name) failed: \(added.text)")
        let entry = try #require(getpwnam(name), "useradd made no passwd entry for \(name)")
        uid = entry.pointee.pw_uid
        gid = entry.pointee.pw_gid
    }

    deinit {
        _ = TestUser.run(["userdel", "-f", name])
        _ = TestUser.run(["rm", "-rf", RuntimeDirectory.temporaryDirectory(uid: uid)])
    }

    /// `arguments` run as this user (setpriv execs in place, so the
    /// terminal's process is the program itself), with a plain environment:
    /// no XDG_RUNTIME_DIR of root's, unless `runtimeDirectory` gives one.
    func terminal(_ arguments: [String], runtimeDirectory: String = "") throws -> TerminalDriver {
        try TerminalDriver(
            ["setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--init-groups", "--"] + arguments,
            environment: ["XDG_RUNTIME_DIR": runtimeDirectory, "HOME": "/", "USER": name, "LOGNAME": name])
    }

    /// Runs `arguments` as this user to its end, and returns its output
    /// (newlines, not the terminal's CR LF) and how it ended.
    func run(_ arguments: [String], runtimeDirectory: String = "") throws -> (status: TerminationStatus?, text: String) {
        let driver = try terminal(arguments, runtimeDirectory: runtimeDirectory)
        let status = driver.waitForExit()
        return (status, driver.text.replacing("\r\n", with: "\n"))
    }

    /// Where this user's sessions register when there is no XDG_RUNTIME_DIR.
    var directory: String { RuntimeDirectory.temporaryDirectory(uid: uid) }

    static func run(_ arguments: [String]) -> (status: TerminationStatus?, text: String) {
        guard let driver = try? TerminalDriver(arguments) else { return (nil, "cannot start \(arguments[0])") }
        let status = driver.waitForExit()
        return (status, driver.text.replacing("\r\n", with: "\n"))
    }
}

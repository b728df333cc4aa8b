import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

/// A mount namespace of the test's own in which /tmp and /run/user are
/// private, empty directories, for the --lock-all tests that plant or scan
/// users' runtime directories: root's `--all-users` in it sees only the test's
/// users, never the sessions of other tests on this machine, and what a test
/// plants there cannot reach anyone else. A holder process keeps the
/// namespace; `command(_:)` runs a program in it (nsenter execs in place, so
/// the program keeps nsenter's process id). The test itself stays outside and
/// sees the namespace's /tmp and /run/user at `hostPath(_:)`.
final class PrivateRuntime {
    static var isAvailable: Bool { FakeSyslog.isAvailable && access("/usr/bin/nsenter", X_OK) == 0 }

    private let root: TemporaryDirectory
    private let holder: TerminalDriver

    /// The directories under /tmp that stay visible inside (the test users'
    /// directories with their copies of idlewrap), and a logger as /dev/log.
    init(keeping kept: [String] = [], syslog: FakeSyslog? = nil) throws {
        root = try TemporaryDirectory()
        chmod(root.path, 0o755)
        try #require(mkdir(root.file("tmp"), 0o1777) == 0 && chmod(root.file("tmp"), 0o1777) == 0)
        try #require(mkdir(root.file("run-user"), 0o755) == 0)
        var script = "set -e\n"
        for directory in kept {
            // The same name inside the private /tmp, with the directory bound on it.
            let name = try #require(directory.split(separator: "/").last.map(String.init))
            try #require(directory == "/tmp/\(name)", "\(directory) is not directly under /tmp")
            try #require(mkdir(root.file("tmp/\(name)"), 0o755) == 0)
            script += "mount --bind '\(directory)' '\(root.path)/tmp/\(name)'\n"
        }
        if let syslog {
            script += "sh -c 'set -e\n'\"$1\" '\(syslog.directory.path)'\n"
        }
        script += """
            mkdir -p /run/user
            mount --bind '\(root.path)/run-user' /run/user
            mount --rbind '\(root.path)/tmp' /tmp
            echo namespace-ready
            exec cat

            """
        holder = try TerminalDriver(
            ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", syslog?.devicesScript ?? ""])
        try #require(holder.expect("namespace-ready"), "cannot make the namespace: \(holder.text)")
    }

    deinit {
        holder.signal(SIGKILL)
        _ = holder.waitForExit()
    }

    /// `arguments` run inside the namespace.
    func command(_ arguments: [String]) -> [String] {
        ["nsenter", "--mount=/proc/\(holder.process.pid)/ns/mnt", "--"] + arguments
    }

    /// Where the test, outside, finds `path` of the namespace (under /tmp or
    /// /run/user).
    func hostPath(_ path: String) -> String {
        if path.hasPrefix("/run/user/") || path == "/run/user" {
            return root.file("run-user") + path.dropFirst("/run/user".count)
        }
        precondition(path.hasPrefix("/tmp/"), "\(path) is neither in /tmp nor in /run/user")
        return root.file("tmp") + path.dropFirst("/tmp".count)
    }

    /// A directory `/run/user/UID` of `user`'s, mode 0700, as pam_systemd makes it.
    func makeUserRuntimeDirectory(of user: TestUser) throws -> String {
        let path = "/run/user/\(user.uid)"
        let host = hostPath(path)
        try #require(mkdir(host, 0o700) == 0, "mkdir \(host): errno \(errno)")
        try #require(chown(host, user.uid, user.gid) == 0)
        return path
    }
}

extension TestUser {
    /// `arguments` as this user in `namespace`, with a plain environment (see
    /// `setprivTerminal`).
    func terminal(in namespace: PrivateRuntime, _ arguments: [String], runtimeDirectory: String = "") throws
        -> TerminalDriver
    {
        try TerminalDriver(
            namespace.command(["setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--init-groups", "--"] + arguments),
            environment: [
                "XDG_RUNTIME_DIR": runtimeDirectory, "XDG_CONFIG_HOME": "", "HOME": "/", "USER": name, "LOGNAME": name,
            ])
    }

    /// Runs `arguments` as this user in `namespace` to its end: how it ended,
    /// and its output (newlines, not the terminal's CR LF).
    func runToEnd(in namespace: PrivateRuntime, _ arguments: [String], runtimeDirectory: String = "") throws
        -> (status: TerminationStatus?, text: String)
    {
        let driver = try terminal(in: namespace, arguments, runtimeDirectory: runtimeDirectory)
        let status = driver.waitForExit()
        return (status, driver.text.replacing("\r\n", with: "\n"))
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite only where it can make real users (useradd) and put them in a
    /// `PrivateRuntime`.
    static var usersInPrivateRuntime: Self {
        .enabled(
            if: TestUser.canBeMade && PrivateRuntime.isAvailable,
            "needs root, and mount namespaces with unshare and nsenter (util-linux)")
    }
}

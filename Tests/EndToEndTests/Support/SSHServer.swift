import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

/// A real sshd on 127.0.0.1 for one test, and a real account to log in to: host
/// and client keys made with ssh-keygen, a user made with useradd (login shell
/// `shell`, or the built idlewrap, copied where every user can read it and listed
/// in /etc/shells), and a password file ("open sesame") as the user's default.
/// Everything is undone when the value dies, also when the test failed: sshd is
/// stopped, the user deleted, idlewrap's line taken out of /etc/shells.
final class SSHServer {
    static let sshd = "/usr/sbin/sshd"

    let directory: TemporaryDirectory
    let user: String
    let home: String
    /// The copy of idlewrap the user runs.
    let idlewrap: String
    private(set) var port: Int = 0
    private var server: TerminalDriver?
    private var listedInShells = false

    /// `shell` nil: idlewrap is the login shell. `configuration`: more sshd_config
    /// lines, such as a ForceCommand, where `IDLEWRAP` stands for the user's idlewrap.
    init(shell: String? = nil, configuration: [String] = []) throws {
        directory = try TemporaryDirectory()
        chmod(directory.path, 0o755)
        user = "iwssh\(UInt32.random(in: 100_000...999_999))"
        home = directory.file("home")
        idlewrap = directory.file("idlewrap")
        try SSHServer.run(["/bin/cp", TerminalDriver.idlewrap, idlewrap])
        chmod(idlewrap, 0o755)
        if shell == nil {
            try addToShells(idlewrap)
        }
        try SSHServer.run(["useradd", "-m", "-d", home, "-s", shell ?? idlewrap, user])
        // useradd's `!` is a locked account, which sshd without PAM refuses even
        // for a key; `*` is no password at all.
        try SSHServer.run(["usermod", "-p", "*", user])
        try makeUserPasswordFile()
        for key in ["host", "client"] {
            try SSHServer.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", directory.file(key)])
        }
        try directory.write("authorized_keys", try readFile(directory.file("client.pub")), mode: 0o644)
        // sshd refuses to start without its privilege separation directory.
        mkdir("/run/sshd", 0o755)
        try start(configuration)
    }

    deinit {
        if let server {
            server.signal(SIGTERM)
            _ = server.waitForExit(timeout: 10)
        }
        // -f: a session process of the user that is still exiting must not
        // keep the account around.
        _ = try? SSHServer.run(["userdel", "-f", user])
        if listedInShells { removeFromShells(idlewrap) }
    }

    /// `ssh` to the test user, with `options` before the host and `command` after.
    func ssh(_ options: [String], _ command: String?) -> [String] {
        ["ssh"] + clientOptions + ["-p", String(port)] + options + ["\(user)@127.0.0.1"] + (command.map { [$0] } ?? [])
    }

    /// `scp` (`options` such as -O) of `source` to `target`, either of them
    /// spelled `remote:PATH` for the test user's.
    func scp(_ options: [String], _ source: String, _ target: String) -> [String] {
        func spelled(_ path: String) -> String {
            path.hasPrefix("remote:") ? "\(user)@127.0.0.1:" + path.dropFirst("remote:".count) : path
        }
        return ["scp", "-q"] + clientOptions + ["-P", String(port)] + options + [spelled(source), spelled(target)]
    }

    private var clientOptions: [String] {
        [
            "-F", "/dev/null", "-i", directory.file("client"), "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o",
            "GlobalKnownHostsFile=/dev/null",
            "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=20",
        ]
    }

    /// sshd's own log, for failure messages.
    var log: String { directory.read("sshd.log") ?? "" }

    /// Starts sshd on a free high port; a port someone took in between makes
    /// sshd exit, and another port is tried.
    private func start(_ configuration: [String]) throws {
        for _ in 0..<5 {
            port = Int.random(in: 20_000...60_000)
            try directory.write(
                "sshd_config",
                ([
                    "Port \(port)", "ListenAddress 127.0.0.1", "HostKey \(directory.file("host"))", "PidFile none",
                    "UsePAM no", "StrictModes no", "AuthorizedKeysFile \(directory.file("authorized_keys"))",
                    "PasswordAuthentication no", "KbdInteractiveAuthentication no", "PubkeyAuthentication yes",
                    "AllowUsers \(user)", "PermitUserRC no", "LogLevel VERBOSE",
                ] + configuration.map { $0.replacing("IDLEWRAP", with: idlewrap) }).joined(separator: "\n") + "\n",
                mode: 0o644)
            let server = try TerminalDriver([
                SSHServer.sshd, "-D", "-E", directory.file("sshd.log"), "-f", directory.file("sshd_config"),
            ])
            let deadline = MonotonicInstant.now() + .seconds(20)
            while MonotonicInstant.now() < deadline && server.process.isRunning {
                if SSHServer.accepts(port: port) {
                    self.server = server
                    return
                }
                server.pump(timeout: 0.05)
            }
            server.signal(SIGTERM)
            _ = server.waitForExit(timeout: 5)
        }
        throw TmuxError(message: "sshd did not start: \(log)")
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    private static func accepts(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// The user's default password file, ~/.config/idlewrap/password, theirs
    /// and mode 0600 as idlewrap requires.
    private func makeUserPasswordFile() throws {
        let made = try makePasswordFile(in: directory)
        try SSHServer.run(["mkdir", "-p", home + "/.config/idlewrap"])
        try SSHServer.run(["cp", made, home + "/.config/idlewrap/password"])
        try SSHServer.run(["chown", "-R", "\(user):", home + "/.config"])
        chmod(home + "/.config/idlewrap/password", 0o600)
    }

    private func addToShells(_ path: String) throws {
        let shells = (try? readFile("/etc/shells")) ?? ""
        let separator = shells.isEmpty || shells.hasSuffix("\n") ? "" : "\n"
        try writeShells(shells + separator + path + "\n")
        listedInShells = true
    }

    /// Takes out only `path`'s line: anything else changed meanwhile stays.
    private func removeFromShells(_ path: String) {
        guard let shells = try? readFile("/etc/shells") else { return }
        let kept = shells.split(separator: "\n", omittingEmptySubsequences: false).filter { $0 != path }
        try? writeShells(kept.joined(separator: "\n"))
    }

    private func writeShells(_ text: String) throws {
        let file = try FileDescriptor.open("/etc/shells", O_WRONLY | O_TRUNC)
        defer { try? file.close() }
        try file.writeAll(text)
    }

    /// Runs `arguments` to the end and requires exit status 0.
    static func run(_ arguments: [String]) throws {
        let driver = try TerminalDriver(arguments)
        let status = driver.waitForExit()
        try #require(
            status == .exited(0),
            "\(arguments.joined(separator: " ")) failed (\(String(describing: status))): \(driver.text)")
    }
}

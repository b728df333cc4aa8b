import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// A real sshd and ssh client on 127.0.0.1, to an account whose login shell
    /// is idlewrap, or whose sshd runs idlewrap as its ForceCommand.
    @Suite(.enabled(if: getuid() == 0, "needs root to add users and run sshd"), .requires(.sshd, .ssh))
    struct OverSSH {
        /// `arguments` run with stdin from /dev/null and stdout to a file: its
        /// exit status and the exact bytes it wrote.
        func runWithoutATerminal(_ arguments: [String], in server: SSHServer) throws -> (Int32?, [UInt8]) {
            let output = server.directory.file("stdout-\(UInt32.random(in: 0...UInt32.max))")
            let script = "\"$@\" </dev/null >'\(output)'; echo \"status=$?\""
            let terminal = try TerminalDriver(["sh", "-c", script, "sh"] + arguments)
            #expect(terminal.waitForExit(timeout: 60) == .exited(0))
            let status = terminal.text.split(separator: "status=").last.flatMap { Int32($0.prefix { $0.isNumber }) }
            return (status, try readFileBytes(output))
        }

        /// The pid in `pid=N` as the remote command printed it.
        func remoteIdlewrapPid(_ terminal: TerminalDriver) -> pid_t? {
            guard terminal.expect("pid="), terminal.expect(" ") else { return nil }
            guard let last = terminal.text.split(separator: "pid=").last else { return nil }
            return pid_t(last.prefix { $0.isNumber })
        }

        /// An SSH_ORIGINAL_COMMAND-free, pty-free command: the login shell runs the
        /// real shell in its place; output and status pass through untouched.
        @Test func commandWithoutAPtyIsAPlainExec() throws {
            let server = try SSHServer()
            let (status, output) = try runWithoutATerminal(
                server.ssh(["-T"], "printf '\\001\\377hi\\n'; echo \"shell=$SHELL pid=${IDLEWRAP_PID-unset}\"; exit 7"),
                in: server)
            #expect(status == 7, "\(server.log)")
            #expect(output == [0x01, 0xff] + Array("hi\nshell=/bin/sh pid=unset\n".utf8))
        }

        @Test func commandWithAPtyIsWrappedAndLocks() throws {
            let server = try SSHServer()
            let terminal = try TerminalDriver(
                server.ssh(["-tt"], "echo \"shell=$SHELL pid=$IDLEWRAP_PID \"; exec cat"))
            #expect(terminal.expect("shell=/bin/sh"), "\(terminal.text) \(server.log)")
            let pid = try #require(remoteIdlewrapPid(terminal))
            kill(pid, SIGUSR1)
            #expect(terminal.expect("Password for \(server.user):"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            try terminal.type("typed after\r")
            #expect(terminal.expect("typed after\r\ntyped after"))
            try terminal.type([0x04])
            #expect(terminal.waitForExit(timeout: 60) == .exited(0))
        }

        @Test func interactiveLoginIsWrapped() throws {
            let server = try SSHServer()
            let terminal = try TerminalDriver(server.ssh(["-tt"], nil))
            try terminal.type("echo \"zero=$0 shell=$SHELL pid=$IDLEWRAP_PID \"\r")
            #expect(terminal.expect("zero=-sh shell=/bin/sh"), "\(terminal.text) \(server.log)")
            #expect(remoteIdlewrapPid(terminal) != nil)
            try terminal.type("exit 6\r")
            #expect(terminal.waitForExit(timeout: 60) == .exited(6))
        }

        /// scp over SFTP (the default: sshd runs `idlewrap -c .../sftp-server`, or
        /// serves internal-sftp itself without the shell) and over the old
        /// protocol (`idlewrap -c 'scp -t ...'`), both ways.
        @Test(arguments: [
            ("/usr/lib/openssh/sftp-server", [String]()), ("/usr/lib/openssh/sftp-server", ["-O"]),
            ("internal-sftp", []),
        ])
        func scpCopiesExactBytes(subsystem: String, options: [String]) throws {
            let server = try SSHServer(configuration: ["Subsystem sftp \(subsystem)"])
            let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 256) }
            let original = server.directory.file("original")
            let file = try FileDescriptor.open(original, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
            try bytes.withUnsafeBytes { try file.writeAll($0) }
            try file.close()
            let up = try TerminalDriver(server.scp(options, original, "remote:uploaded"))
            #expect(up.waitForExit(timeout: 60) == .exited(0), "\(up.text) \(server.log)")
            #expect(try readFileBytes(server.home + "/uploaded") == bytes)
            let back = server.directory.file("downloaded")
            let down = try TerminalDriver(server.scp(options, "remote:uploaded", back))
            #expect(down.waitForExit(timeout: 60) == .exited(0), "\(down.text)")
            #expect(try readFileBytes(back) == bytes)
        }

        /// `ForceCommand idlewrap`: sshd runs `sh -c idlewrap` with the client's
        /// command in SSH_ORIGINAL_COMMAND.
        @Test func forceCommandRunsTheOriginalCommand() throws {
            let server = try SSHServer(shell: "/bin/sh", configuration: ["ForceCommand IDLEWRAP -q"])
            let (status, output) = try runWithoutATerminal(
                server.ssh(["-T"], "printf 'plain\\n'; exit 4"), in: server)
            #expect(status == 4, "\(server.log)")
            #expect(output == Array("plain\n".utf8))
            let terminal = try TerminalDriver(
                server.ssh(["-tt"], "echo \"pid=$IDLEWRAP_PID \"; echo \"orig=$SSH_ORIGINAL_COMMAND\" | tr a-z A-Z"))
            #expect(remoteIdlewrapPid(terminal) != nil, "\(terminal.text) \(server.log)")
            #expect(terminal.expect("ORIG=ECHO"))
            #expect(terminal.waitForExit(timeout: 60) == .exited(0))
        }

        /// Ansible without pipelining: `ssh -tt host CMD`, and the command ends
        /// while the session is locked. The client must not hang, and must not
        /// see what was held.
        @Test func lockedSSHCommandThatEndsDoesNotHang() throws {
            let server = try SSHServer()
            let go = server.directory.file("go")
            let command =
                "echo \"pid=$IDLEWRAP_PID \"; while [ ! -e \(go) ]; do sleep 0.05; done; echo SEC$((1))RET; exit 3"
            let terminal = try TerminalDriver(server.ssh(["-tt"], command))
            let pid = try #require(remoteIdlewrapPid(terminal), "\(terminal.text) \(server.log)")
            kill(pid, SIGUSR1)
            #expect(terminal.expect("Password for \(server.user):"))
            try server.directory.write("go", "", mode: 0o644)
            #expect(terminal.waitForExit(timeout: 60) == .exited(125))
            #expect(!terminal.hasShown("SEC1RET"))
            #expect(terminal.hasShown("its held output was discarded"))
        }
    }
}

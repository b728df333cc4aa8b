import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// idlewrap's parent may leave descriptors open without close-on-exec (a
    /// shell's `exec 7<file`, a leaky sshd or desktop); none of them, and none
    /// of idlewrap's own, may reach the command or a hook (Relay checks the
    /// command without inherited ones).
    @Suite struct InheritedDescriptors {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        /// idlewrap started by a shell that opened descriptors 7 and 9
        /// without close-on-exec, as its parent.
        func sessionInheriting(_ options: [String], _ command: [String]) throws -> TerminalDriver {
            let password = try makePasswordFile(in: directory)
            let idlewrap = ([TerminalDriver.idlewrap, "--password-file", password] + options + ["--"] + command)
                .map(shellQuoted).joined(separator: " ")
            return try TerminalDriver(["sh", "-c", "exec 7</dev/null 9>/dev/null; exec \(idlewrap)"])
        }

        /// The first child of idlewrap's session process running `sleep` (which opens
        /// nothing itself), once it runs it.
        func sleeper(in terminal: TerminalDriver) -> pid_t? {
            var found: pid_t?
            _ = terminal.waitUntil {
                guard let session = sessionProcessPid(of: terminal) else { return false }
                let children = readText("/proc/\(session)/task/\(session)/children") ?? ""
                found = children.split(separator: " ").compactMap { pid_t($0) }.first {
                    (try? FileSystem.resolvedPath("/proc/\($0)/exe"))?.hasSuffix("/sleep") == true
                }
                return found != nil
            }
            return found
        }

        /// Whether `pid` has only 0, 1 and 2 open, within the deadline: the
        /// dynamic loader briefly holds descriptors just after the exec; a
        /// leaked one stays.
        func hasOnlyStandardDescriptors(_ pid: pid_t, in terminal: TerminalDriver) -> Bool {
            terminal.waitUntil(timeout: 10) {
                (try? FileSystem.entries(ofDirectory: "/proc/\(pid)/fd"))?.compactMap { Int($0) }.sorted() == [0, 1, 2]
            }
        }

        @Test func theCommandGetsOnlyTheTerminal() throws {
            let terminal = try sessionInheriting(["-t", "0"], ["sleep", "60"])
            let command = try #require(sleeper(in: terminal))
            #expect(hasOnlyStandardDescriptors(command, in: terminal))
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
        }

        @Test func hooksGetOnlyTheirStandardDescriptors() throws {
            let terminal = try sessionInheriting(["-t", "0", "--on-lock", "exec sleep 60"], ["cat"])
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            let hook = try #require(sleeper(in: terminal))
            #expect(hasOnlyStandardDescriptors(hook, in: terminal))
            kill(hook, SIGKILL)
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            try terminal.type([0x04])
            #expect(terminal.waitForExit() == .exited(0))
        }
    }
}

private func shellQuoted(_ word: String) -> String {
    "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
}

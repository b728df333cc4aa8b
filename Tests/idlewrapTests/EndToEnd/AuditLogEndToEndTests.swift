import Glibc
import PTYKit
import Testing
@testable import idlewrap

extension EndToEnd {
    /// What reaches the system logger (see `FakeSyslog`).
    @Suite struct AuditLogging {
        @Test(.enabled(if: access("/dev/log", F_OK) != 0, "a system logger owns /dev/log here"))
        func lockEventsAreLoggedToAuthprivWithoutThePassword() throws {
            let logger = try FakeSyslog()
            let directory = try TemporaryDirectory()
            let password = try makePasswordFile(in: directory)
            let terminal = try TerminalDriver(
                idlewrap: ["--password-file", password, "-t", "0", "--", "cat"],
                environment: ["SSH_CONNECTION": "192.0.2.7 51000 192.0.2.1 22"])
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            #expect(try terminal.unlockAfterAWrongPassword("wrong-guess", then: "open sesame"))
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))

            let messages = logger.messages()
            let log = messages.joined(separator: "\n")
            // authpriv is facility 10: <85> is notice, <84> warning.
            #expect(messages.contains { $0.hasPrefix("<85>") && $0.contains("session locked: user=") && $0.contains("command='cat'") })
            #expect(messages.contains { $0.hasPrefix("<84>") && $0.contains("unlock failed (1 so far)") })
            #expect(messages.contains { $0.hasPrefix("<85>") && $0.contains("session unlocked") })
            #expect(log.contains("ssh='192.0.2.7 51000 192.0.2.1 22'"))
            #expect(log.contains("tty=/dev/pts/"))
            #expect(!log.contains("wrong-guess"))
            #expect(!log.contains("open sesame"))
        }

        @Test(.enabled(if: access("/dev/log", F_OK) != 0, "a system logger owns /dev/log here"))
        func nestingSkipsAndFakedClaimsAreLogged() throws {
            let logger = try FakeSyslog()
            let inner = #"IDLEWRAP_PID=1234567 "$0" -t 0 -- true; "$0" -t 0 -- true"#
            let terminal = try TerminalDriver(idlewrap: ["-t", "0", "--", "sh", "-c", inner, TerminalDriver.idlewrap])
            #expect(terminal.waitForExit() == .exited(0))
            let messages = logger.messages()
            // authpriv is facility 10: <86> is info, <85> notice.
            #expect(messages.contains {
                $0.hasPrefix("<86>") && $0.contains("not wrapped again: idlewrap \(terminal.process.pid) wraps this terminal")
            })
            #expect(messages.contains {
                $0.hasPrefix("<85>") && $0.contains("wrapping although IDLEWRAP_TTY names this terminal: this terminal's session was not started by process 1234567")
            })
        }
    }
}

/// Stands in for the system logger: a datagram socket bound at /dev/log,
/// removed again when the value dies.
final class FakeSyslog {
    let socket: Int32

    init() throws {
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(socket >= 0, "socket failed: \(errno)")
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in "/dev/log".utf8.enumerated() { path[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if bound != 0 { close(socket) }
        try #require(bound == 0, "bind /dev/log failed: \(errno)")
    }

    deinit {
        close(socket)
        unlink("/dev/log")
    }

    /// The records received so far.
    func messages() -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count <= 0 { break }
            messages.append(String(decoding: buffer[..<count], as: UTF8.self))
        }
        return messages
    }
}

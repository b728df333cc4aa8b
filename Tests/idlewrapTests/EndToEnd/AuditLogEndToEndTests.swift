import Glibc
import PTYKit
import Testing
@testable import idlewrap

extension EndToEnd {
    /// Stands in for the system logger: a datagram socket at /dev/log.
    @Suite struct AuditLogging {
        @Test(.enabled(if: access("/dev/log", F_OK) != 0, "a system logger owns /dev/log here"))
        func lockEventsAreLoggedToAuthprivWithoutThePassword() throws {
            let logger = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            try #require(logger >= 0, "socket failed: \(errno)")
            defer {
                close(logger)
                unlink("/dev/log")
            }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { path in
                for (index, byte) in "/dev/log".utf8.enumerated() { path[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(logger, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(bound == 0, "bind /dev/log failed: \(errno)")

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

            var messages: [String] = []
            var buffer = [UInt8](repeating: 0, count: 2048)
            while true {
                let count = recv(logger, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count <= 0 { break }
                messages.append(String(decoding: buffer[..<count], as: UTF8.self))
            }
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
    }
}

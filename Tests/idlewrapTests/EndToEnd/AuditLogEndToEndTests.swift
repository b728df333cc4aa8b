import Glibc
import PTYKit
import Testing
@testable import idlewrap

extension EndToEnd {
    /// What reaches the system logger (see `FakeSyslog`).
    @Suite struct AuditLogging {
        @Test func lockEventsAreLoggedToAuthprivWithoutThePassword() throws {
            let logger = try FakeSyslog()
            let directory = try TemporaryDirectory()
            let password = try makePasswordFile(in: directory)
            let terminal = try TerminalDriver(
                logger.listening([TerminalDriver.idlewrap, "--password-file", password, "-t", "0", "--", "cat"]),
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

        @Test func nestingSkipsAndFakedClaimsAreLogged() throws {
            let logger = try FakeSyslog()
            let inner = #"IDLEWRAP_PID=1234567 "$0" -t 0 -- true; "$0" -t 0 -- true"#
            let terminal = try TerminalDriver(
                logger.listening([TerminalDriver.idlewrap, "-t", "0", "--", "sh", "-c", inner, TerminalDriver.idlewrap]))
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

        @Test func aStalledLoggerDoesNotFreezeTheSession() throws {
            // glibc's syslog() would block on the full queue at the lock.
            let logger = try FakeSyslog()
            #expect(logger.fillQueue() > 0)
            let directory = try TemporaryDirectory()
            let password = try makePasswordFile(in: directory)
            let terminal = try TerminalDriver(
                logger.listening([TerminalDriver.idlewrap, "--password-file", password, "-t", "0", "--", "cat"]))
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))
            #expect(!logger.messages().contains { $0.contains("idlewrap[") }, "the logger was meant to be full")
        }
    }
}


/// Stands in for the system logger: a datagram socket in a directory of its
/// own that only the programs it runs see at /dev/log (in a mount namespace
/// of their own), so that no other test or logger on the machine mixes in.
final class FakeSyslog {
    let directory: TemporaryDirectory
    let socket: Int32

    init() throws {
        directory = try TemporaryDirectory()
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(socket >= 0, "socket failed: \(errno)")
        var address = FakeSyslog.address(directory.file("log"))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if bound != 0 { close(socket) }
        try #require(bound == 0, "bind \(directory.file("log")) failed: \(errno)")
    }

    deinit {
        close(socket)
    }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        return address
    }

    /// `arguments` run in a private mount namespace whose /dev is a fresh
    /// tmpfs holding the devices a terminal program needs and this logger as
    /// /dev/log. Exec keeps the process id.
    func listening(_ arguments: [String]) -> [String] {
        let script = """
            set -e
            mkdir "$0/dev"
            mount --rbind /dev "$0/dev"
            mount -t tmpfs -o mode=755 tmpfs /dev
            for name in null zero full random urandom tty log; do
                touch "/dev/$name"
            done
            for name in null zero full random urandom tty; do
                mount --bind "$0/dev/$name" "/dev/$name"
            done
            mount --bind "$0/log" /dev/log
            mkdir /dev/pts /dev/shm
            mount --rbind "$0/dev/pts" /dev/pts
            mount --rbind "$0/dev/shm" /dev/shm
            ln -s pts/ptmx /dev/ptmx
            ln -s /proc/self/fd /dev/fd
            exec "$@"
            """
        return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, directory.path] + arguments
    }

    /// Fills the queue from a client of its own, as a logger that has
    /// stopped reading would leave it; returns how many records that took.
    func fillQueue() -> Int {
        let client = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(client) }
        var address = FakeSyslog.address(directory.file("log"))
        let record = Array("<86>filler".utf8)
        var sent = 0
        while withUnsafePointer(to: &address, {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(client, record, record.count, Int32(MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }) == record.count {
            sent += 1
        }
        return errno == EAGAIN ? sent : 0
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

import Glibc
import Testing

@testable import TestSupport

/// Stands in for the system logger: a datagram socket in a directory of its
/// own that only the programs it runs see at /dev/log (in a mount namespace
/// of their own), so that no other test or logger on the machine mixes in.
final class FakeSyslog {
    /// Whether this machine lets root make a mount namespace (a container
    /// without CAP_SYS_ADMIN does not).
    static let isAvailable: Bool = {
        guard let probe = try? TerminalDriver(["unshare", "--mount", "true"]) else { return false }
        return probe.waitForExit() == .exited(0)
    }()

    let directory: TemporaryDirectory
    let socket: Int32

    init() throws {
        directory = try TemporaryDirectory()
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(socket >= 0, "socket failed: \(errno)")
        var address = FakeSyslog.address(directory.file("log"))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if bound != 0 { close(socket) }
        try #require(bound == 0, "bind \(directory.file("log")) failed: \(errno)")
        // Anyone may log, as at the real /dev/log.
        chmod(directory.file("log"), 0o666)
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
        let script = "set -e\n" + devicesScript + "exec \"$@\"\n"
        return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, directory.path] + arguments
    }

    /// Shell commands, run in a mount namespace of their own with this
    /// logger's directory as `$0`, that give the namespace a /dev of its own
    /// with this logger at /dev/log.
    let devicesScript = """
        host=$(mktemp -d "$0/dev.XXXXXX")
        mount --rbind /dev "$host"
        mount -t tmpfs -o mode=755 tmpfs /dev
        for name in null zero full random urandom tty log; do
            touch "/dev/$name"
        done
        for name in null zero full random urandom tty; do
            mount --bind "$host/$name" "/dev/$name"
        done
        mount --bind "$0/log" /dev/log
        mkdir /dev/pts /dev/shm
        mount --rbind "$host/pts" /dev/pts
        mount --rbind "$host/shm" /dev/shm
        # A ptmx of its own next to pts, as the host's is: pts/ptmx may be
        # root's only (ptmxmode=000), and other users' programs need terminals.
        mknod -m 666 /dev/ptmx c 5 2 || ln -s pts/ptmx /dev/ptmx
        ln -s /proc/self/fd /dev/fd

        """

    /// Fills the queue from a client of its own, as a logger that has
    /// stopped reading would leave it; returns how many records that took.
    func fillQueue() -> Int {
        let client = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(client) }
        var address = FakeSyslog.address(directory.file("log"))
        let record = Array("<86>filler".utf8)
        var sent = 0
        while withUnsafePointer(
            to: &address,
            {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(
                        client, record, record.count, Int32(MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_un>.size)
                    )
                }
            }) == record.count
        {
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

import CPTYShims
import Glibc
import PTYKit

/// The Unix stream socket calls idlewrap's control socket needs, each wrapped
/// once. Every descriptor is close-on-exec; the caller closes it.
enum UnixSocket {
    /// Who is at the other end of a connection, as the kernel recorded it
    /// when it was made (`SO_PEERCRED`): it cannot be forged by the peer.
    struct PeerCredentials: Equatable, Sendable {
        let pid: pid_t
        let uid: uid_t
        let gid: gid_t
    }

    /// A non-blocking socket listening at `path` (`socket`, `bind`, `listen`).
    /// The error's context names the call that failed.
    static func listen(at path: String, backlog: Int32 = 16) throws(PTYError) -> FileDescriptor {
        let socket = try socket(type: SOCK_STREAM, at: path, "bind") { Glibc.bind($0, $1, $2) }
        do {
            _ = try valueOrErrno { Glibc.listen(socket.rawValue, backlog) }
        } catch {
            try? socket.close()
            throw PTYError(.socket, error, context: "listen")
        }
        return socket
    }

    /// A non-blocking connection to the socket at `path`, of `type` (a
    /// stream, or datagrams for a logger). A socket file that nobody listens
    /// on any more gives `ECONNREFUSED`; a full backlog gives `EAGAIN` rather
    /// than a wait.
    static func connect(to path: String, type: __socket_type = SOCK_STREAM) throws(PTYError) -> FileDescriptor {
        try socket(type: type, at: path, "connect") { Glibc.connect($0, $1, $2) }
    }

    /// A non-blocking connection to the socket file open on `file` (from
    /// `FileSystem.openWithoutFollowing`), through its /proc/self/fd link: it reaches
    /// that very file, whatever its name has come to mean since, so a name in a
    /// directory someone else controls cannot be turned into a link elsewhere
    /// between checking the file and connecting.
    public static func connect(toSocketOpenOn file: FileDescriptor) throws(PTYError) -> FileDescriptor {
        try connect(to: "/proc/self/fd/\(file.rawValue)")
    }

    /// The next waiting connection on a listening socket, non-blocking, or nil
    /// when none waits.
    static func accept(on listener: FileDescriptor) throws(PTYError) -> FileDescriptor? {
        do {
            return FileDescriptor(rawValue: try valueOrErrno { cpty_accept(listener.rawValue) })
        } catch .wouldBlock {
            return nil
        } catch {
            throw PTYError(.socket, error, context: "accept")
        }
    }

    /// Sends some of `bytes` on a connection, returning how many were taken.
    /// A peer that has gone gives EPIPE, never SIGPIPE (`MSG_NOSIGNAL`).
    static func send(_ bytes: UnsafeRawBufferPointer, on connection: FileDescriptor) throws(Errno) -> Int {
        try valueOrErrno { Glibc.send(connection.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends all of `text`, waiting for room when the connection is
    /// non-blocking.
    static func sendAll(_ text: String, on connection: FileDescriptor) throws(Errno) {
        var rest = Array(text.utf8)[...]
        while !rest.isEmpty {
            let sent = rest.withUnsafeBytes { raw in
                Result { () throws(Errno) in try send(raw, on: connection) }
            }
            switch sent {
            case .success(let count): rest = rest.dropFirst(count)
            case .failure(.wouldBlock): try connection.waitUntilWritable()
            case .failure(let error): throw error
            }
        }
    }

    /// Sends some of `bytes` on a connection with `descriptors` passed along (SCM_RIGHTS;
    /// at most four), returning how many bytes were taken: the descriptors go with the
    /// first of them.
    static func send(
        _ bytes: UnsafeRawBufferPointer, passing descriptors: [FileDescriptor], on connection: FileDescriptor
    ) throws(Errno) -> Int {
        let raw = descriptors.map(\.rawValue)
        let sent = raw.withUnsafeBufferPointer { passed in
            Result { () throws(Errno) in
                try valueOrErrno {
                    cpty_send_with_descriptors(
                        connection.rawValue, bytes.baseAddress, bytes.count, passed.baseAddress, Int32(passed.count))
                }
            }
        }
        return try sent.get()
    }

    /// Reads what is there on a connection, and the descriptors passed along with it (at
    /// most `capacity`; any more are closed). Each is close-on-exec, and the caller's.
    static func receive(
        into buffer: UnsafeMutableRawBufferPointer, capacity: Int, on connection: FileDescriptor
    ) throws(Errno) -> (count: Int, descriptors: [FileDescriptor]) {
        var raw = [Int32](repeating: -1, count: max(capacity, 1))
        var received: Int32 = 0
        let read = raw.withUnsafeMutableBufferPointer { slots in
            Result { () throws(Errno) in
                try valueOrErrno {
                    cpty_receive_with_descriptors(
                        connection.rawValue, buffer.baseAddress, buffer.count, slots.baseAddress, Int32(capacity),
                        &received)
                }
            }
        }
        let count = try read.get()
        return (count, raw.prefix(Int(received)).map { FileDescriptor(rawValue: $0) })
    }

    /// Has every message read on `connection` from now on say which process sent it
    /// (SO_PASSCRED), for `receive(into:on:)`.
    static func passCredentials(on connection: FileDescriptor) throws(Errno) {
        _ = try valueOrErrno { cpty_pass_credentials(connection.rawValue) }
    }

    /// Reads what is there on a connection, and which process sent it as the kernel says
    /// (SCM_CREDENTIALS, once `passCredentials`; it cannot be forged): nil when it did not
    /// say. Descriptors passed along are closed.
    static func receive(
        into buffer: UnsafeMutableRawBufferPointer, on connection: FileDescriptor
    ) throws(Errno) -> (count: Int, sender: pid_t?) {
        var sender: pid_t = 0
        let count = try valueOrErrno {
            cpty_receive_with_sender(connection.rawValue, buffer.baseAddress, buffer.count, &sender)
        }
        return (count, sender > 0 ? sender : nil)
    }

    static func peerCredentials(of connection: FileDescriptor) throws(PTYError) -> PeerCredentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
        do {
            _ = try valueOrErrno { cpty_peer_credentials(connection.rawValue, &pid, &uid, &gid) }
        } catch {
            throw PTYError(.socket, error, context: "getsockopt SO_PEERCRED")
        }
        return PeerCredentials(pid: pid, uid: uid, gid: gid)
    }

    /// A non-blocking socket of `type` that `call` (`bind` or `connect`, named `name`
    /// in the error's context) gave the address `path`; closed again if that failed.
    private static func socket(
        type: __socket_type, at path: String, _ name: String,
        _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) throws(PTYError) -> FileDescriptor {
        var address = try address(of: path)
        let flags = Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let socket: FileDescriptor
        do {
            socket = FileDescriptor(rawValue: try valueOrErrno { Glibc.socket(AF_UNIX, flags, 0) })
        } catch {
            throw PTYError(.socket, error, context: "socket")
        }
        let size = socklen_t(MemoryLayout<sockaddr_un>.size)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Result { () throws(Errno) in try valueOrErrno { call(socket.rawValue, pointer, size) } }
            }
        }
        if case .failure(let error) = result {
            try? socket.close()
            throw PTYError(.socket, error, context: "\(name) \(path)")
        }
        return socket
    }

    /// `path` in a `sockaddr_un`; a path too long for `sun_path` is
    /// `ENAMETOOLONG`, as the kernel would say.
    private static func address(of path: String) throws(PTYError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else {
            throw PTYError(.socket, Errno(rawValue: ENAMETOOLONG), context: "socket path \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return address
    }
}

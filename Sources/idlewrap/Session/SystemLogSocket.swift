import Glibc
import PTYKit

/// Hands records to the system logger at /dev/log without ever waiting.
/// glibc's syslog() sends on a blocking socket, so a logger that stalls (or
/// whose queue is full) would freeze the session in the middle of a lock;
/// here such a record is lost instead, as it is when no logger runs at all.
enum SystemLogSocket {
    /// Sends `message` as idlewrap's, in the format glibc's syslog() uses;
    /// false when no logger took it.
    @discardableResult
    static func send(_ message: String, priority: Int32) -> Bool {
        let record = Array("<\(priority)>\(timestamp()) idlewrap[\(getpid())]: \(message)".utf8)
        // Datagrams are what loggers listen for; a stream socket at /dev/log
        // (an old syslogd) wants each record ended by a NUL.
        return send(record, type: SOCK_DGRAM) || send(record + [0], type: SOCK_STREAM)
    }

    private static func send(_ record: [UInt8], type: __socket_type) -> Bool {
        guard let socket = try? UnixSocket.connect(to: "/dev/log", type: type) else { return false }
        defer { try? socket.close() }
        // The socket is non-blocking: a full queue is EAGAIN, not a wait.
        let sent = try? record.withUnsafeBytes { bytes throws(Errno) in try UnixSocket.send(bytes, on: socket) }
        return sent == record.count
    }

    /// The local time as syslog records start with it: "Dec  1 05:17:15".
    private static func timestamp() -> String {
        var now = time(nil)
        var local = tm()
        localtime_r(&now, &local)
        var text = [CChar](repeating: 0, count: 32)
        let count = strftime(&text, text.count, "%h %e %T", &local)
        return String(decoding: text[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

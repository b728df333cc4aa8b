import Glibc
import PTYKit

/// The connection of the `idlewrap --attach` whose terminal the session is on, as a session
/// source: the client says when its terminal's size changed (it gets the SIGWINCH, the
/// session has no controlling terminal), and when it goes (its end, or its terminal's),
/// the session detaches again. At the session's end it hears the status to exit with.
final class AttachedClient: SessionSource {
    private let connection: FileDescriptor
    private let resized: () -> Void
    private let gone: () -> Void
    private var received: [UInt8] = []
    private(set) var isFinished = false

    init(_ connection: FileDescriptor, resized: @escaping () -> Void, gone: @escaping () -> Void) {
        self.connection = connection
        self.resized = resized
        self.gone = gone
    }

    var descriptor: FileDescriptor? { connection }

    func ready(at now: MonotonicInstant) {
        var buffer = [UInt8](repeating: 0, count: 256)
        let read = buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try connection.read(into: raw) }
        }
        switch read {
        case .success(let count) where count > 0:
            received += buffer[..<count]
            for message in AttachMessage.take(from: &received) where message == .resized { resized() }
        case .failure(.wouldBlock):
            return
        default:
            isFinished = true
            gone()
        }
    }

    /// One short line: the connection's buffer takes it whole, and a client that does not
    /// read loses it.
    func send(_ message: AttachMessage) {
        let bytes = Array(message.line.utf8)
        _ = bytes.withUnsafeBytes { try? UnixSocket.send($0, on: connection) }
    }

    /// The session is done with the client: `message` is its last word, and the connection
    /// closes once the session drops the source.
    func end(with message: AttachMessage?) {
        if let message { send(message) }
        isFinished = true
    }

    func dropped() {
        try? connection.close()
    }
}

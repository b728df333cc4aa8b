import Glibc
import PTYKit
import Testing

@testable import idlewrap

/// Helpers shared by the authentication tests.

/// A fresh directory (mode 0700) under /tmp, removed with everything in it
/// when the value dies.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/idlewrap-auth-test.XXXXXX".utf8CString)
        let made = mkdtemp(&template)
        try #require(made != nil, "mkdtemp failed: errno \(errno)")
        path = string(fromNulTerminated: template)
    }

    deinit {
        removeTree(path)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `contents` to `name` with `mode`, returning its path.
    @discardableResult
    func write(_ name: String, _ contents: String, mode: mode_t = 0o600) throws -> String {
        let path = file(name)
        let descriptor = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: mode)
        defer { try? descriptor.close() }
        try descriptor.writeAll(contents)
        #expect(chmod(path, mode) == 0)
        return path
    }
}

private func removeTree(_ path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    if info.st_mode & S_IFMT == S_IFDIR {
        chmod(path, 0o700)
        for name in directoryEntries(path) { removeTree("\(path)/\(name)") }
        rmdir(path)
    } else {
        unlink(path)
    }
}

func readFile(_ path: String) throws -> String {
    String(decoding: try readFileBytes(path), as: UTF8.self)
}

/// The text of a file, or nil when it cannot be read (a /proc entry of a
/// process that is gone).
func readText(_ path: String) -> String? {
    try? readFile(path)
}

func fileStatus(_ path: String) throws -> stat {
    var info = stat()
    try #require(lstat(path, &info) == 0, "lstat \(path) failed: errno \(errno)")
    return info
}

func secret(_ text: String) -> SecretBuffer {
    let buffer = SecretBuffer(capacity: 512)
    for byte in text.utf8 { _ = buffer.append(byte) }
    return buffer
}

func contents(of buffer: SecretBuffer) -> [UInt8] {
    buffer.withBytes { Array($0) }
}

/// Milliseconds on the monotonic clock.
func monotonicMilliseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
}

/// Waits on `descriptor` for input, at most `milliseconds`; false on timeout.
func waitReadable(_ descriptor: FileDescriptor, milliseconds: Int) -> Bool {
    var slot = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
    let deadline = monotonicMilliseconds() + milliseconds
    while true {
        let left = deadline - monotonicMilliseconds()
        if left <= 0 { return false }
        let ready = poll(&slot, 1, Int32(left))
        if ready > 0 { return true }
        if ready < 0 && errno != EINTR { return false }
    }
}

/// Drives a conversation as the relay does: while it is `.working`, polls
/// its readiness descriptor, then asks for the step again.
func settledStep(of conversation: AuthConversation, milliseconds: Int = 15_000) throws -> AuthStep {
    let deadline = monotonicMilliseconds() + milliseconds
    while true {
        let step = conversation.currentStep()
        guard step == .working else { return step }
        let readiness = try #require(conversation.readiness, "a working conversation needs a readiness descriptor")
        let left = deadline - monotonicMilliseconds()
        try #require(
            left > 0 && waitReadable(readiness, milliseconds: left), "the conversation did not move on in time")
    }
}

/// A pipe whose write end has received `text` and is closed.
func pipeHolding(_ text: String) throws -> FileDescriptor {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let writer = FileDescriptor(rawValue: ends[1])
    try writer.writeAll(text)
    try writer.close()
    return FileDescriptor(rawValue: ends[0])
}

/// A pseudo-terminal pair from openpty: the test types on `master`, the code
/// under test uses `replica` as its terminal.
final class TestTerminal {
    let master: FileDescriptor
    let replica: FileDescriptor
    /// Everything read from the master so far.
    private(set) var transcript = ""
    /// What `waitFor` has not matched yet.
    private var unmatched = ""
    private var hungUp = false

    init() throws {
        var master: Int32 = -1
        var replica: Int32 = -1
        try #require(openpty(&master, &replica, nil, nil, nil) == 0, "openpty failed: errno \(errno)")
        self.master = FileDescriptor(rawValue: master)
        self.replica = FileDescriptor(rawValue: replica)
    }

    deinit {
        hangUp()
        try? replica.close()
    }

    /// Closes the master, so that a prompt still reading the replica ends.
    func hangUp() {
        guard !hungUp else { return }
        hungUp = true
        try? master.close()
    }

    func type(_ text: String) throws {
        try master.writeAll(text)
    }

    /// Reads the master until `text` appears after what the last call matched.
    func waitFor(_ text: String, milliseconds: Int = 10_000) throws {
        let deadline = monotonicMilliseconds() + milliseconds
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            if let match = unmatched.firstRange(of: text) {
                unmatched = String(unmatched[match.upperBound...])
                return
            }
            let left = deadline - monotonicMilliseconds()
            try #require(
                left > 0 && waitReadable(master, milliseconds: left),
                "timed out waiting for \(text.debugDescription); got \(unmatched.debugDescription)")
            let count = try buffer.withUnsafeMutableBytes { try master.read(into: $0) }
            let text = String(decoding: buffer[..<count], as: UTF8.self)
            transcript += text
            unmatched += text
        }
    }

    var localModes: tcflag_t {
        var modes = termios()
        tcgetattr(replica.rawValue, &modes)
        return modes.c_lflag
    }

    /// Waits for `prompt`, expects the terminal not to echo while it is asked, and types
    /// `answer` with a return.
    func answerWithoutEcho(_ prompt: String, _ answer: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        try waitFor(prompt)
        #expect(
            localModes & tcflag_t(ECHO) == 0, "echo is on at \(prompt.debugDescription)", sourceLocation: sourceLocation
        )
        try type(answer + "\r")
    }
}

/// Runs `body` on a thread of its own (for code that blocks, such as a
/// prompt, while the test types).
func startThread<Value>(_ body: @escaping () -> Value) throws -> Joinable<Value> {
    try Joinable(body)
}

final class Joinable<Value>: @unchecked Sendable {
    private var result: Value?
    private var thread: BackgroundThread!
    private var joined = false

    fileprivate init(_ body: @escaping () -> Value) throws {
        thread = try BackgroundThread { [unowned self] in result = body() }
    }

    /// Waits for the thread and returns what `body` returned; may be called again.
    func value() -> Value {
        if !joined {
            thread.join()
            joined = true
        }
        return result!
    }
}

private final class BackgroundThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let body: () -> Void

    init(_ body: @escaping () -> Void) throws {
        self.body = body
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<BackgroundThread>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
        try #require(result == 0, "pthread_create failed: \(result)")
    }

    func join() {
        pthread_join(thread, nil)
    }
}

import Glibc
import PTYKit

@testable import idlewrap

/// Runs the built idlewrap binary (or any program) inside a pseudo-terminal
/// that the test owns, as a person at a terminal would: it types bytes, reads
/// everything written to the screen, resizes the window, and waits for the
/// exit status. Every wait has a deadline; nothing sleeps and hopes.
final class TerminalDriver {
    /// The idlewrap binary next to the test bundle.
    static let idlewrap: String = {
        let bundle = (try? FileSystem.resolvedPath("/proc/self/exe")) ?? ""
        let directory = bundle.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return directory + "/idlewrap"
    }()

    static let defaultTimeout: Double = 30

    /// An XDG_CONFIG_HOME every test's idlewrap gets unless the test sets
    /// its own, with a password file for "open sesame" in it, so that the
    /// default method is `file`. Without it the default would depend on the
    /// machine: PAM for an account with a password, `ask` (a prompt before
    /// the command starts) for one without, such as root in a container.
    static let configHome: String = {
        let directory =
            TerminalDriver.idlewrap.split(separator: "/", omittingEmptySubsequences: false)
            .dropLast().joined(separator: "/") + "/idlewrap-test-config"
        let secret = SecretBuffer()
        for byte in "open sesame".utf8 { _ = secret.append(byte) }
        guard let hash = try? PasswordHash.make(for: secret),
            (try? PasswordFile.write(hash: hash, to: directory + "/idlewrap/password")) != nil
        else { fatalError("cannot write the test password file under \(directory)") }
        return directory
    }()

    let terminal: PseudoTerminal
    let process: ChildProcess
    /// The terminal's settings before the program started: read any later
    /// and idlewrap may already have made them raw.
    let initialAttributes: TerminalAttributes
    /// Everything written to the terminal so far.
    private(set) var transcript: [UInt8] = []
    /// Where `expect` resumes its search.
    private var mark = 0
    private var status: TerminationStatus?
    private var outputEnded = false

    var text: String { String(decoding: transcript, as: UTF8.self) }

    init(
        _ arguments: [String],
        environment: [String: String] = [:],
        size: WindowSize = WindowSize(rows: 24, columns: 80)
    ) throws {
        terminal = try PseudoTerminal()
        try terminal.configure(attributes: nil, size: size)
        try terminal.master.setNonblocking(true)
        initialAttributes = try TerminalAttributes.of(terminal.master)
        process = try ChildProcess.spawn(
            arguments,
            environment: TerminalDriver.environment(with: environment, asAnotherUser: arguments.first == "runuser"),
            terminalPath: terminal.replicaPath)
    }

    /// idlewrap with `arguments`.
    convenience init(
        idlewrap arguments: [String], environment: [String: String] = [:],
        size: WindowSize = WindowSize(rows: 24, columns: 80)
    ) throws {
        try self.init([TerminalDriver.idlewrap] + arguments, environment: environment, size: size)
    }

    deinit {
        if status == nil {
            process.sendToSession(SIGKILL, foregroundGroup: nil)
            var raw: Int32 = 0
            waitpid(process.pid, &raw, 0)
        }
    }

    /// An XDG_RUNTIME_DIR (private, mode 0700) every test's idlewrap gets unless the
    /// test sets its own, so that the tests' sessions register for --lock-all there,
    /// never in /tmp/idlewrap-0, where the --lock-all of a test run elsewhere on the
    /// machine would find and lock them. Removed when the tests exit.
    static let runtimeHome: String = {
        var template = Array("/tmp/idlewrap-test-runtime.XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { fatalError("cannot make a runtime directory for the tests") }
        atexit {
            // With the sockets of sessions that tests ended with SIGKILL.
            let sockets = TerminalDriver.runtimeHome + "/idlewrap"
            for name in (try? FileSystem.entries(ofDirectory: sockets)) ?? [] { unlink(sockets + "/" + name) }
            rmdir(sockets)
            rmdir(TerminalDriver.runtimeHome)
        }
        return string(fromNulTerminated: template)
    }()

    /// The current environment with `overrides` (an empty value unsets).
    /// Another user gets no fixture XDG_CONFIG_HOME or XDG_RUNTIME_DIR: they belong
    /// to root.
    static func environment(with overrides: [String: String], asAnotherUser: Bool = false) -> [String] {
        var entries: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            let name = String(text.prefix { $0 != "=" })
            if overrides[name] == nil && !name.hasPrefix("IDLEWRAP_") { entries.append(text) }
            cursor += 1
        }
        if overrides["TERM"] == nil {
            entries.removeAll { $0.hasPrefix("TERM=") }
            entries.append("TERM=xterm")
        }
        if overrides["XDG_CONFIG_HOME"] == nil && !asAnotherUser {
            entries.removeAll { $0.hasPrefix("XDG_CONFIG_HOME=") }
            entries.append("XDG_CONFIG_HOME=\(configHome)")
        }
        if overrides["XDG_RUNTIME_DIR"] == nil {
            entries.removeAll { $0.hasPrefix("XDG_RUNTIME_DIR=") }
            if !asAnotherUser { entries.append("XDG_RUNTIME_DIR=\(runtimeHome)") }
        }
        for (name, value) in overrides.sorted(by: { $0.key < $1.key }) where !value.isEmpty {
            entries.append("\(name)=\(value)")
        }
        return entries
    }

    func type(_ text: String) throws {
        try type(Array(text.utf8))
    }

    func type(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { raw in
                Result { () throws(Errno) in try terminal.master.write(raw) }
            }
            switch written {
            case .success(let count): offset += count
            case .failure(.wouldBlock): pump(timeout: 0.05, wantWritable: true)
            case .failure(let error): throw error
            }
        }
    }

    /// Types each of `reads` so that the program reads it alone: the next is
    /// typed only once the terminal's input queue is empty (FIONREAD on the
    /// replica), as a terminal's long reply reaches a program in 4 KiB reads.
    /// False if the program stopped reading for `timeout` seconds.
    func typeInSeparateReads(_ reads: [[UInt8]], timeout: Double = defaultTimeout) throws -> Bool {
        let replica = try FileDescriptor.open(terminal.replicaPath, O_RDWR | O_NOCTTY | O_NONBLOCK)
        defer { try? replica.close() }
        for read in reads {
            try type(read)
            var queued: Int32 = 1
            guard waitUntil(timeout: timeout, { ioctl(replica.rawValue, UInt(FIONREAD), &queued) == 0 && queued == 0 })
            else { return false }
        }
        return true
    }

    /// Types `byte` over and over until the terminal takes no more for
    /// `patience` seconds (everything on the way in is full), and returns how
    /// many it took.
    func typeUntilFull(_ byte: UInt8, patience: Double = 1) -> Int {
        let chunk = [UInt8](repeating: byte, count: 4096)
        var total = 0
        var stalledSince = MonotonicInstant.now()
        while MonotonicInstant.now() - stalledSince < .seconds(patience) {
            let result = chunk.withUnsafeBytes { raw in
                Result { () throws(Errno) in try terminal.master.write(raw) }
            }
            if case .success(let count) = result, count > 0 {
                total += count
                stalledSince = MonotonicInstant.now()
            } else {
                pump(timeout: 0.05)
            }
        }
        return total
    }

    /// Waits until `needle` appears after the previous match; false on timeout.
    @discardableResult
    func expect(_ needle: String, timeout: Double = defaultTimeout) -> Bool {
        let pattern = Array(needle.utf8)
        let deadline = MonotonicInstant.now() + .seconds(timeout)
        while true {
            if let end = find(pattern, from: mark) {
                mark = end
                return true
            }
            if outputEnded || MonotonicInstant.now() >= deadline { return false }
            pump(timeout: 0.1)
        }
    }

    /// Waits for `condition`, checking it every 10 ms until `timeout` seconds
    /// have passed; for tests with no terminal of their own to read.
    static func waitFor(timeout: Double = defaultTimeout, _ condition: () -> Bool) -> Bool {
        let deadline = MonotonicInstant.now() + .seconds(timeout)
        while MonotonicInstant.now() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// Waits for `condition` (something outside the terminal) while reading
    /// the terminal, so a writing program is never blocked by the test.
    func waitUntil(timeout: Double = defaultTimeout, _ condition: () -> Bool) -> Bool {
        let deadline = MonotonicInstant.now() + .seconds(timeout)
        while MonotonicInstant.now() < deadline {
            if condition() { return true }
            pump(timeout: 0.05)
        }
        return condition()
    }

    /// At the lock screen: types `wrong`, waits out the back-off until the
    /// prompt is back, then types `password`. True once the lock screen is left.
    func unlockAfterAWrongPassword(_ wrong: String, then password: String) throws -> Bool {
        try type(wrong + "\r")
        guard expect("Wrong password"), expect("Password for") else { return false }
        try type(password + "\r")
        return expect("\u{1b}[?1049l")
    }

    /// Whether `needle` appears anywhere in the transcript so far.
    func hasShown(_ needle: String) -> Bool {
        find(Array(needle.utf8), from: 0) != nil
    }

    /// Reads everything until the program exits and returns how it ended, or
    /// nil if it did not end in time (it is then killed).
    func waitForExit(timeout: Double = defaultTimeout) -> TerminationStatus? {
        if let status { return status }
        let deadline = MonotonicInstant.now() + .seconds(timeout)
        while !outputEnded && MonotonicInstant.now() < deadline {
            pump(timeout: 0.1)
        }
        // Once its last descriptor on the terminal is closed the program is
        // exiting; wait for it, but not forever.
        while MonotonicInstant.now() < deadline {
            if let ended = try? process.reapIfExited() {
                status = ended
                return ended
            }
            pump(timeout: 0.01)
        }
        return nil
    }

    /// Waits until `condition` holds on the terminal's settings.
    func waitForAttributes(timeout: Double = defaultTimeout, _ condition: (TerminalAttributes) -> Bool) -> Bool {
        let deadline = MonotonicInstant.now() + .seconds(timeout)
        while MonotonicInstant.now() < deadline {
            if let attributes = try? TerminalAttributes.of(terminal.master), condition(attributes) { return true }
            pump(timeout: 0.01)
        }
        return false
    }

    func attributes() throws -> TerminalAttributes {
        try TerminalAttributes.of(terminal.master)
    }

    func resize(to size: WindowSize) throws {
        try size.apply(to: terminal.master)
    }

    func signal(_ signal: Int32) {
        process.send(signal)
    }

    /// Signals idlewrap's whole job, as a shell's job control does: the pid started (the
    /// guardian, which passes on what it can catch) and the session process. SIGSTOP,
    /// which no process can pass on, stops a session only this way.
    func signalJob(_ signal: Int32) {
        kill(-process.pid, signal)
    }

    /// Reads what is there, waiting at most `timeout` seconds for something.
    func pump(timeout: Double, wantWritable: Bool = false) {
        var slot = pollfd(
            fd: terminal.master.rawValue, events: Int16(POLLIN) | (wantWritable ? Int16(POLLOUT) : 0), revents: 0)
        guard !outputEnded || wantWritable else { return }
        guard poll(&slot, 1, Int32(timeout * 1000)) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !outputEnded {
            let result = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in try terminal.master.read(into: raw) }
            }
            switch result {
            case .success(0), .failure(.ioError): outputEnded = true
            case .success(let count): transcript.append(contentsOf: buffer[..<count])
            case .failure: return
            }
        }
    }

    private func find(_ pattern: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty, transcript.count - start >= pattern.count else { return nil }
        var index = start
        while index + pattern.count <= transcript.count {
            if transcript[index] == pattern[0] && transcript[index..<(index + pattern.count)].elementsEqual(pattern) {
                return index + pattern.count
            }
            index += 1
        }
        return nil
    }
}

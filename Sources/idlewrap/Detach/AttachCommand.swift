import Glibc
import PTYKit

/// `idlewrap --attach [PID]` (`--take`): hands this terminal to a detached session of the
/// user's, over its control socket (the descriptors themselves, SCM_RIGHTS: no byte passes
/// through a second relay), and stays, waiting, as the process the login owns. The session
/// shows its lock screen here; after the password, its screen. Exit status: the command's
/// when it ends; 1 when there is no detached session (or none with that PID); 129, as a
/// hang-up, when another terminal took the session (`--take`) or this one was told to go;
/// 125 when the session refused, when none was found and a directory or session could not
/// be reached (each named), or on any other failure.
enum AttachCommand {
    static let noSession: Int32 = 1
    static let takenElsewhere = ExitStatus.killed(by: SIGHUP)
    /// What the client passes on or acts on while it waits.
    static let watchedSignals = [SIGWINCH, SIGHUP, SIGTERM, SIGINT, SIGQUIT]

    static func run(pid: pid_t?, take: Bool, environment: Environment) -> Int32 {
        guard FileDescriptor.standardInput.isTerminal, FileDescriptor.standardOutput.isTerminal else {
            Diagnostics.error("--attach needs a terminal")
            return ExitStatus.failure
        }
        let endpoint: ControlClient.Endpoint
        switch choose(pid: pid, environment: environment) {
        case .success(let chosen): endpoint = chosen
        case .failure(let refusal):
            if let pid { recordRefusal(of: pid, environment: environment) }
            return refusal.status
        }
        return attach(to: endpoint, take: take).status
    }

    /// What became of an attach: `served` once the session took this terminal (the status is
    /// the command's, or says why it is over); `notServed` when it never did (the session
    /// could not be reached or refused), which a login can answer with a new shell.
    enum Attachment: Equatable {
        case served(Int32)
        case notServed(Int32)

        var status: Int32 {
            switch self {
            case .served(let status), .notServed(let status): status
            }
        }
    }

    /// Hands this terminal to the session at `endpoint` and waits for its last word.
    static func attach(to endpoint: ControlClient.Endpoint, take: Bool) -> Attachment {
        let connection: FileDescriptor
        switch ControlClient.connection(to: endpoint) {
        case .success(let made): connection = made
        case .failure(let problem):
            Diagnostics.error(problem.description)
            return .notServed(ExitStatus.failure)
        }
        defer { try? connection.close() }
        // Taken before the session makes it raw: an abnormal end puts it back.
        let attributes = try? TerminalAttributes.of(.standardInput)
        let signals: SignalSource
        do {
            signals = try SignalSource(watchedSignals)
            let request = Array((take ? ControlRequest.take : ControlRequest.attach).line.utf8)
            let sent = request.withUnsafeBytes { bytes in
                Result { () throws(Errno) in
                    try UnixSocket.send(bytes, passing: [.standardInput, .standardOutput], on: connection)
                }
            }
            // A line this short goes whole into an empty connection, or not at all.
            guard try sent.get() == request.count else { throw Errno(rawValue: EAGAIN) }
        } catch {
            Diagnostics.error("cannot ask session \(endpoint.pid) to attach: \(error)")
            return .notServed(ExitStatus.failure)
        }
        let outcome = wait(on: connection, signals: signals)
        switch outcome {
        case .exited(let status):
            return .served(status)
        case .refused(let reason):
            Diagnostics.error("session \(endpoint.pid) refused: \(reason)")
            return .notServed(ExitStatus.failure)
        case .takenElsewhere:
            restore(attributes)
            return .served(takenElsewhere)
        case .signalled(let signal):
            restore(attributes)
            return .served(ExitStatus.killed(by: signal))
        case .lost:
            restore(attributes)
            Diagnostics.error("session \(endpoint.pid) ended without a status")
            return .served(ExitStatus.failure)
        }
    }

    /// The session to attach to: `pid`'s, or the only detached one; else the status to
    /// exit with, said on stderr (with the list when there are several).
    static func choose(pid: pid_t?, environment: Environment) -> Result<
        ControlClient.Endpoint, NoSession
    > {
        let (sessions, unreachable) = SessionCommands.statuses(of: [getuid()], environment: environment)
        let candidates = sessions.filter { session in
            if let pid { session.pid == pid } else { session.detachedSince != nil }
        }
        guard let chosen = candidates.first else {
            Diagnostics.error(pid.map { "no session \($0) of yours" } ?? "no detached session of yours")
            // What could not be reached (named on stderr: a planted directory, say) may be it.
            return .failure(NoSession(status: unreachable ? ExitStatus.failure : noSession))
        }
        guard candidates.count == 1 else {
            try? FileDescriptor.standardOutput.writeAll(SessionTable.text(candidates))
            Diagnostics.error("several detached sessions: name one (idlewrap --attach PID)")
            return .failure(NoSession(status: ExitStatus.failure))
        }
        let endpoints = ControlClient.endpoints(of: [getuid()], environment: environment).endpoints
        guard let endpoint = endpoints.first(where: { $0.pid == chosen.pid }) else {
            Diagnostics.error("session \(chosen.pid) has ended")
            return .failure(NoSession(status: noSession))
        }
        return .success(endpoint)
    }

    /// `--attach PID` named no session of the user's. Another user's session never hears
    /// of it (its directory is its user's alone), so the refusal is recorded here, as a
    /// session records the refusals it hears: the user, the pid asked for, and why.
    private static func recordRefusal(of pid: pid_t, environment: Environment) {
        let owner = ProcessStatus.read(pid)?.name == NestingGuard.programName ? ProcessStatus.owner(of: pid) : nil
        let reason =
            if let owner, owner != getuid() {
                "session \(pid) is uid \(owner)'s"
            } else {
                "no session \(pid) of the user's"
            }
        AuditLog.ofIdlewrap(environment: environment).record("attach refused: \(reason)", priority: LOG_WARNING)
    }

    /// No session to attach to, said on stderr; the status to exit with.
    struct NoSession: Error {
        let status: Int32
    }

    enum Outcome: Equatable {
        case exited(Int32)
        case refused(String)
        case takenElsewhere
        case signalled(Int32)
        /// The connection closed without a last word (the session process died).
        case lost
    }

    /// Waits, without a wake-up of its own, for the session's last word, passing the
    /// terminal's size changes on.
    private static func wait(on connection: FileDescriptor, signals: SignalSource) -> Outcome {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            var slots = [
                pollfd(fd: signals.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
                pollfd(fd: connection.rawValue, events: Int16(POLLIN), revents: 0),
            ]
            let ready = slots.withUnsafeMutableBufferPointer { slots in
                Result { () throws(Errno) in try poll(slots, timeout: -1) }
            }
            guard case .success = ready else { return .lost }
            while let signal = try? signals.next() {
                guard signal == SIGWINCH else { return .signalled(signal) }
                let line = Array(AttachMessage.resized.line.utf8)
                _ = line.withUnsafeBytes { try? UnixSocket.send($0, on: connection) }
            }
            guard slots[1].revents != 0 else { continue }
            let read = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in try connection.read(into: raw) }
            }
            switch read {
            case .success(let count) where count > 0:
                received += buffer[..<count]
                for message in AttachMessage.take(from: &received) {
                    switch message {
                    case .exit(let status)?: return .exited(status)
                    case .refused(let reason)?: return .refused(reason)
                    case .detached?: return .takenElsewhere
                    case .attached?, .resized?, nil: continue
                    }
                }
            case .failure(.wouldBlock):
                continue
            default:
                return .lost
            }
        }
    }

    /// The terminal as it was before the session made it raw, and out of any screen it
    /// left: for a session that cannot restore it itself.
    private static func restore(_ attributes: TerminalAttributes?) {
        let buffer = OutputBuffer(capacity: 256)
        TerminalReset.appendLeaving(to: buffer)
        _ = buffer.withUnsafeBytes { try? FileDescriptor.standardOutput.writeAll($0) }
        try? attributes?.apply(to: .standardInput)
    }
}

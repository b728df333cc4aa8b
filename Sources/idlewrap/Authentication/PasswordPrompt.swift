import Glibc
import PTYKit

/// Asks for a password on a terminal, with echo off: the `ask` method's setup
/// and `--set-password`. The terminal is switched to non-canonical mode with
/// signals off, so ^C cancels cleanly instead of killing idlewrap with echo
/// still off, and lines are edited by `PasswordLineEditor` (the lock
/// screen's rules). Input typed ahead of the prompt, and after the Enter that
/// ends it, is discarded: nothing typed at the prompt reaches anyone else.
/// After a stop (SIGCONT), the shell that brought idlewrap back has set the
/// terminal its own way, echo on: the settings are applied again, what was
/// typed of the line is dropped, and the prompt is shown again.
struct PasswordPrompt {
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// ^C, ^\, or ^D on an empty line.
        case cancelled
        /// End of file: the terminal hung up.
        case hungUp
        /// idlewrap got this signal while asking.
        case signaled(Int32)
        case system(Errno)
        /// A new password and its repetition differed.
        case differed
        /// A new password had fewer characters than this (`min-password-length`).
        case tooShort(Int)

        var description: String {
            switch self {
            case .cancelled: "cancelled"
            case .hungUp: "the terminal hung up"
            case .signaled(let signal): "interrupted by signal \(signal)"
            case .system(let error): "cannot use the terminal: \(error)"
            case .differed: "the passwords differ"
            case .tooShort(let minimum):
                "the password is shorter than \(minimum) characters (site policy: min-password-length)"
            }
        }
    }

    let terminal: FileDescriptor
    /// Where prompts go: the terminal, unless it was opened read-only.
    private let output: FileDescriptor

    init(terminal: FileDescriptor) {
        self.terminal = terminal
        let flags = try? terminal.statusFlags()
        let writable = flags.map { $0 & O_ACCMODE != O_RDONLY } ?? false
        output = writable ? terminal : .standardError
    }

    /// Shows `prompt` (followed by a space) and reads one non-empty line.
    /// A terminating signal that arrives meanwhile is acted on only once
    /// echo is back on.
    func ask(_ prompt: String) throws(Failure) -> SecretBuffer {
        do throws(Failure) {
            let signals: SignalSource
            do {
                signals = try SignalSource([SIGHUP, SIGTERM, SIGINT, SIGQUIT, SIGCONT])
            } catch {
                throw Failure.system(error.underlying ?? .ioError)
            }
            return try ask(prompt, watching: signals)
        } catch .signaled(let signal) {
            // The terminal is restored and the signal unblocked: now it may
            // end idlewrap as it would have.
            kill(getpid(), signal)
            throw .signaled(signal)
        }
    }

    private func ask(_ prompt: String, watching signals: SignalSource) throws(Failure) -> SecretBuffer {
        let saved: TerminalAttributes
        var quiet: TerminalAttributes
        do {
            saved = try TerminalAttributes.of(terminal)
            quiet = saved
            quiet.termios.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
            withUnsafeMutableBytes(of: &quiet.termios.c_cc) { controlCharacters in
                controlCharacters[Int(VMIN)] = 1
                controlCharacters[Int(VTIME)] = 0
            }
            try quiet.apply(to: terminal, when: TCSAFLUSH)
        } catch {
            throw .system(error)
        }
        defer {
            try? saved.apply(to: terminal, when: TCSAFLUSH)
            try? output.writeAll("\r\n")
        }
        do {
            try output.writeAll(prompt + " ")
        } catch {
            throw .system(error)
        }
        let settings = quiet
        return try readLine(watching: signals) { () throws(Failure) in
            // Continued after a stop. What was typed since the shell took the
            // terminal back was echoed: it is flushed with the settings.
            do throws(Errno) {
                try settings.apply(to: terminal, when: TCSAFLUSH)
                try output.writeAll("\r\n" + prompt + " ")
            } catch {
                throw .system(error)
            }
        }
    }

    /// Asks for a new password with `question`, then for it again, until both
    /// answers are the same and the password has at least `minimumLength`
    /// characters, at most `rounds` times; between rounds it says what was wrong.
    /// Throws `.differed` or `.tooShort` when the last round fails.
    func askNewPassword(_ question: String, rounds: Int, minimumLength: Int = 1) throws(Failure) -> SecretBuffer {
        for round in 1...rounds {
            let first = try ask(question)
            if first.withBytes({ characterCount(ofUTF8: $0) }) < minimumLength {
                first.clear()
                guard round < rounds else { throw .tooShort(minimumLength) }
                try? output.writeAll("The password is shorter than \(minimumLength) characters; try again.\r\n")
                continue
            }
            let second: SecretBuffer
            do {
                second = try ask("Repeat password:")
            } catch {
                first.clear()
                throw error
            }
            defer { second.clear() }
            if first.hasSameBytes(as: second) { return first }
            first.clear()
            if round < rounds { try? output.writeAll("The passwords differ; try again.\r\n") }
        }
        throw .differed
    }

    /// Reads one line; `continued` runs when idlewrap was continued after a stop,
    /// and the line starts again.
    private func readLine(watching signals: SignalSource, continued: () throws(Failure) -> Void) throws(Failure)
        -> SecretBuffer
    {
        var editor = PasswordLineEditor()
        var byte: UInt8 = 0
        defer { explicit_bzero(&byte, 1) }
        while true {
            switch try readByte(into: &byte, watching: signals) {
            case .endOfFile:
                throw .hungUp
            case .continued:
                editor.reset()
                try continued()
                continue
            case .byte:
                break
            }
            switch byte {
            case 0x03, 0x1C:  // ^C, ^\
                throw .cancelled
            case 0x04 where editor.line.isEmpty:  // ^D
                throw .cancelled
            default:
                break
            }
            let event = withUnsafeBytes(of: &byte) { editor.feed($0) }
            if case (.submitted, _)? = event {
                return editor.line
            }
        }
    }

    private enum Read {
        case byte
        case endOfFile
        /// SIGCONT: idlewrap was stopped and is going on.
        case continued
    }

    private func readByte(into byte: inout UInt8, watching signals: SignalSource) throws(Failure) -> Read {
        var slots = [
            pollfd(fd: terminal.rawValue, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            _ = try? slots.withUnsafeMutableBufferPointer { (slots) throws(Errno) in try poll(slots, timeout: -1) }
            if slots[1].revents != 0, let signal = try? signals.next() {
                if signal == SIGCONT { return .continued }
                throw .signaled(signal)
            }
            guard slots[0].revents != 0 else { continue }
            do {
                let count = try withUnsafeMutableBytes(of: &byte) { (buffer) throws(Errno) in
                    try terminal.read(into: buffer)
                }
                return count == 1 ? .byte : .endOfFile
            } catch .wouldBlock {
                continue
            } catch {
                throw .system(error)
            }
        }
    }
}

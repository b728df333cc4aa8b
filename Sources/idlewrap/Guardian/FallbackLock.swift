import Glibc
import PTYKit

/// The guardian's own lock, for a session process that ended while the terminal was
/// locked: a plain lock screen (there is no screen of the command's to keep any more), the
/// same conversation with the same authenticator as any lock (`UnlockDialog`: the
/// questions, the line never echoed, the pause that doubles after each failure), and
/// nothing typed goes anywhere. It holds until the right password, or until a signal asks
/// idlewrap to go or the terminal hangs up, as a lock of the session would. On a terminal
/// that cannot be driven it writes lines of text only (`PlainLockScreen`).
struct FallbackLock {
    enum Outcome: Equatable {
        case unlocked
        case signalled(Int32)
        case terminalGone
    }

    /// The signals a lock answers; the guardian keeps them blocked.
    static let answeredSignals = [SIGWINCH, SIGCONT, SIGHUP, SIGTERM, SIGINT, SIGQUIT]

    private let terminal = FileDescriptor.standardInput
    private let attributes: TerminalAttributes
    private let log: AuditLog
    /// The lock's signals, or nil when no descriptor was left for them: the lock holds
    /// all the same.
    private let signals: SignalSource?
    private var content: LockScreenContent
    private var dialog: UnlockDialog
    private var keysIgnoredUntil: MonotonicInstant?
    private var outcome: Outcome?
    private let isPlain: Bool
    /// What the plain lock screen showed last; nil before its first drawing.
    private var plainShown: LockScreenContent?

    init(
        authenticator: Authenticator, content: LockScreenContent, attributes: TerminalAttributes,
        signals: SignalSource?, log: AuditLog, isPlain: Bool
    ) {
        self.isPlain = isPlain
        self.attributes = attributes
        self.signals = signals
        self.content = content
        self.log = log
        dialog = UnlockDialog(authenticator: authenticator, firstPrompt: passwordPrompt(for: log.user.value))
    }

    mutating func run() -> Outcome {
        do {
            try attributes.madeRaw.apply(to: terminal)
            // Keys typed before the session process ended were meant for it, or for a
            // lock that is gone: none is an attempt here.
            try terminal.discardPendingInput()
        } catch {
            return .terminalGone
        }
        if !isPlain { show(FallbackLock.entry) }
        take(dialog.begin())
        var input = [UInt8](repeating: 0, count: 1024)
        while outcome == nil {
            var slots = [
                pollfd(fd: signals?.descriptor.rawValue ?? -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: terminal.rawValue, events: Int16(POLLIN), revents: 0),
                pollfd(fd: dialog.readiness?.rawValue ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            let timeout =
                keysIgnoredUntil.map { Int32(clamping: max(0, ($0 - .now()).wholeNanoseconds + 999_999) / 1_000_000) }
                ?? -1
            let ready = slots.withUnsafeMutableBufferPointer { try? poll($0, timeout: timeout) }
            if ready == nil { return .terminalGone }
            if let until = keysIgnoredUntil, until <= .now() {
                keysIgnoredUntil = nil
                take(dialog.begin())
            }
            while let signal = try? signals?.next() { handle(signal) }
            if slots[2].revents != 0 { take(dialog.resume()) }
            if slots[1].revents != 0 { read(into: &input) }
        }
        return outcome ?? .terminalGone
    }

    /// Reads what was typed, and zeroes the buffer after: it may hold a password.
    private mutating func read(into buffer: inout [UInt8]) {
        let count: Int
        switch buffer.withUnsafeMutableBytes({ raw in Result { () throws(Errno) in try terminal.read(into: raw) } }) {
        case .success(let read):
            count = read
        case .failure(let error):
            if error != .wouldBlock { outcome = .terminalGone }
            return
        }
        guard count > 0 else {
            outcome = .terminalGone
            return
        }
        defer { buffer.withUnsafeMutableBytes { explicit_bzero($0.baseAddress!, count) } }
        // Keys typed while keys are ignored go nowhere, like the rest.
        guard keysIgnoredUntil == nil else { return }
        let turn = buffer.withUnsafeBytes { dialog.type(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        take(turn)
    }

    private mutating func handle(_ signal: Int32) {
        switch signal {
        case SIGWINCH:
            redraw()
        case SIGCONT:
            // Whoever stopped the guardian may have put the terminal back in cooked mode.
            try? attributes.madeRaw.apply(to: terminal)
            redraw()
        default:
            outcome = .signalled(signal)
        }
    }

    private mutating func take(_ turn: UnlockDialog.Turn?) {
        guard let turn else { return }
        if !turn.notices.isEmpty { content.status = turn.notices.joined(separator: " ") }
        switch turn.step {
        case .asking(let prompt):
            content.prompt = prompt
        case .working:
            break
        case .succeeded:
            dialog.end()
            log.record("session unlocked at the guardian's lock")
            // What was typed after Enter goes nowhere either.
            try? terminal.discardPendingInput()
            outcome = .unlocked
            return
        case .failed(let message):
            content.failures += 1
            content.status = message
            log.record("unlock failed at the guardian's lock (\(content.failures) so far)", priority: LOG_WARNING)
            pause()
        case .unavailable(let reason):
            // Fail closed: stay locked, say why, and try again later.
            content.status = reason
            log.record("unlock check unavailable (\(reason))", priority: LOG_ERR)
            pause()
        }
        redraw()
    }

    private mutating func pause() {
        keysIgnoredUntil = .now() + dialog.pause()
        content.prompt = ""
    }

    private mutating func redraw() {
        let size = ((try? WindowSize.of(terminal)) ?? WindowSize(rows: 0, columns: 0)).drawingSize
        guard isPlain else { return show(LockScreen.draw(content, size: size)) }
        show(PlainLockScreen.draw(content, size: size, after: plainShown))
        plainShown = content
    }

    private func show(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { try? FileDescriptor.standardOutput.writeAll($0) }
    }

    /// Onto a cleared alternate screen, from a known state, with every mode that changes
    /// what keys send turned off: the session process that turned them on is gone, and
    /// no record of them with it.
    static var entry: [UInt8] {
        let buffer = OutputBuffer(capacity: 256)
        buffer.append(.mode(.alternateScreen1049, on: true))
        TerminalReset.append(to: buffer)
        return buffer.bytes
    }
}

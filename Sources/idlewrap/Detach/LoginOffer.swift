import Glibc
import PTYKit

/// At a login (`CommandPlan.isLogin`), the user's detached sessions are offered before a
/// new shell starts (`--attach-at-login`): with `ask`, a short list and one keystroke; with
/// `always`, the only one is taken back at once. Either way the session itself asks its
/// password, as any `--attach`. Nothing is shown when there is no detached session, so a
/// user who never detaches sees no difference.
enum LoginOffer {
    /// What the offer does, from the setting and the sessions found.
    enum Decision: Equatable {
        case newShell
        case attach(SessionStatus)
        /// At most as many as there are digit keys, in `--list`'s order.
        case ask([SessionStatus])
    }

    static let mostShown = 9

    static func decide(_ setting: AttachAtLogin, detached: [SessionStatus]) -> Decision {
        switch (setting, detached.count) {
        case (.never, _), (_, 0): .newShell
        case (.always, 1): .attach(detached[0])
        default: .ask(Array(detached.prefix(mostShown)))
        }
    }

    /// Offers the detached sessions; nil when a new shell is to start, else idlewrap's exit
    /// status (the attached command's, or why the login ended at the offer).
    static func run(_ setting: AttachAtLogin, quiet: Bool, environment: Environment) -> Int32? {
        guard setting != .never else { return nil }
        let detached = SessionCommands.statuses(of: [getuid()], environment: environment).sessions
            .filter { $0.detachedSince != nil }
        let session: SessionStatus
        switch decide(setting, detached: detached) {
        case .newShell:
            return nil
        case .attach(let only):
            Diagnostics.notice("taking back your detached session: \(describe(only))", quiet: quiet)
            session = only
        case .ask(let shown):
            switch ask(shown, of: detached.count) {
            case .chosen(.session(let index)): session = shown[index]
            case .chosen(.newShell): return nil
            case .ended(let status): return status
            }
        }
        guard case .success(let endpoint) = AttachCommand.choose(pid: session.pid, environment: environment) else {
            Diagnostics.error("starting a new shell")
            return nil
        }
        switch AttachCommand.attach(to: endpoint, take: false) {
        case .served(let status): return status
        case .notServed:
            Diagnostics.error("starting a new shell")
            return nil
        }
    }

    enum Answer: Equatable {
        case chosen(LoginOfferKeys.Choice)
        /// The terminal went away, or a signal came: the login is over, with this status.
        case ended(Int32)
    }

    /// Shows `shown` (of `total` detached sessions) and reads the one key that chooses,
    /// in raw mode; the terminal is put back however the read ends.
    static func ask(_ shown: [SessionStatus], of total: Int) -> Answer {
        let signals: SignalSource
        let raw: RawMode
        do {
            signals = try SignalSource(AttachCommand.watchedSignals.filter { $0 != SIGWINCH })
            raw = try RawMode(.standardInput)
            // Only keys pressed once the list is there count, not ones typed ahead; and
            // raw first, so that none typed in between waits in a line the flush drops.
            try FileDescriptor.standardInput.discardPendingInput()
        } catch {
            Diagnostics.error("cannot read a key: \(error); starting a new shell")
            return .chosen(.newShell)
        }
        defer {
            try? FileDescriptor.standardOutput.writeAll("\r\n")
            raw.restore(draining: false)
        }
        try? FileDescriptor.standardOutput.writeAll(menu(shown, of: total, now: time(nil)))
        var keys = LoginOfferKeys(sessions: shown.count)
        var buffer = [UInt8](repeating: 0, count: 1)
        while true {
            var slots = [
                pollfd(fd: signals.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
                pollfd(fd: FileDescriptor.standardInput.rawValue, events: Int16(POLLIN), revents: 0),
            ]
            let ready = slots.withUnsafeMutableBufferPointer { slots in
                Result { () throws(Errno) in try poll(slots, timeout: -1) }
            }
            guard case .success = ready else { return .ended(ExitStatus.failure) }
            if let signal = try? signals.next() { return .ended(ExitStatus.killed(by: signal)) }
            guard slots[1].revents != 0 else { continue }
            let read = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in try FileDescriptor.standardInput.read(into: raw) }
            }
            switch read {
            case .success(let count) where count > 0:
                if let choice = keys.feed(buffer[..<count]) { return .chosen(choice) }
            case .failure(.wouldBlock):
                continue
            default:
                // End of file or EIO: the terminal hung up.
                return .ended(ExitStatus.killed(by: SIGHUP))
            }
        }
    }

    /// The offer as the terminal shows it, in raw mode (`\r\n` ends a line). Commands are
    /// terminal-safe already (`SessionStatus`).
    static func menu(_ shown: [SessionStatus], of total: Int, now: time_t) -> String {
        let plural = total == 1 ? "" : "s"
        var text = "idlewrap: you have \(total) detached session\(plural):\r\n"
        for (index, session) in shown.enumerated() {
            text += "  \(index + 1)  \(describe(session, now: now))\r\n"
        }
        if total > shown.count {
            text += "  (and \(total - shown.count) more: idlewrap --list, idlewrap --attach PID)\r\n"
        }
        let keys = shown.count == 1 ? "1" : "1-\(shown.count)"
        text += "Press \(keys) to take one back (after its password), or n or Enter for a new shell: "
        return text
    }

    /// `vim, detached since 2026-12-06 14:02 (3h05m), pid 4242`.
    static func describe(_ session: SessionStatus, now: time_t = time(nil)) -> String {
        let since = session.detachedSince ?? Int(now)
        let elapsed = SessionTable.duration(max(0, Int(now) - since))
        let when = LocalTime.text(time_t(since), format: "%Y-%m-%d %H:%M")
        return "\(session.command), detached since \(when) (\(elapsed)), pid \(session.pid)"
    }
}

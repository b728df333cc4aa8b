import CPTYShims
import Glibc
import PTYKit

/// The process the shell started, once idlewrap wraps a terminal: it forks the session
/// process, which does all the work, and then only waits (blocked in sigwaitinfo: no
/// wake-ups while idle), passing on the signals sent to it. It exists for one case: the
/// session process ends abnormally (a crash, SIGKILL, the OOM killer). Without it, the
/// shell that started idlewrap would then have the keyboard, whatever the lock showed.
/// With it, a terminal that was locked stays locked (`FallbackLock`) until the password,
/// and only then goes back to the shell, with exit status 125.
///
/// The split comes before any thread exists (PAM's come at the first unlock), so the
/// session process may run anything after fork. It learns of the guardian's end by
/// SIGHUP (a hang-up, as for a terminal that went away). The session process leaves its
/// guardian when another terminal takes the session (`--take`): it says `left`, drops
/// that signal and wakes the guardian, which ends at once with the status of an `--attach`
/// whose terminal is taken (`AttachCommand.takenElsewhere`).
final class Guardian {
    /// What the guardian passes on to the session process: everything its shell or a user
    /// may send to idlewrap's pid. SIGSTOP cannot be caught: it stops the guardian alone.
    static let passedOn = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGWINCH, SIGTSTP, SIGCONT]
    private static let waitedFor = passedOn + [SIGCHLD]
    private static let crashSignals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS]

    enum Role {
        case guardian(Guardian)
        case session(GuardianLink)
    }

    /// What the guardian needs for its own lock, taken before the split. Its lock screen
    /// and log are made only at an abnormal end: every start would pay for them.
    struct Protection {
        let authenticator: Authenticator
        /// The program's name, never its arguments.
        let program: String
        let message: String?
        let sshConnection: String?
        /// The control socket the session process serves; the guardian removes it if the
        /// session process could not.
        let controlSocketPath: String?
        /// The terminal cannot be driven (`PlainLockScreen`): the guardian writes it
        /// lines of text only.
        let isPlain: Bool

        var lockScreen: LockScreenContent {
            LockScreenContent(
                program: program, host: UserIdentity.hostName, since: LockScreen.clockText(), message: message,
                failures: 0, status: nil, prompt: "")
        }

        var log: AuditLog {
            AuditLog(
                user: .runningUser, terminal: FileDescriptor.standardInput.terminalPath() ?? "?", command: program,
                sshConnection: sshConnection)
        }
    }

    private let sessionProcess: ChildProcess
    private let page: GuardianPage
    private let protection: Protection
    /// The terminal as idlewrap found it.
    private let attributes: TerminalAttributes
    /// Whether stdin and stdout were non-blocking (a flag the shell shares with us).
    private let nonblocking: (input: Bool?, output: Bool?)
    /// Whether the session process was continued since it last stopped: a SIGCONT the
    /// guardian then gets went to the whole job, the session process with it.
    private var sessionProcessContinued = false

    private init(
        sessionProcess: pid_t, page: GuardianPage, protection: Protection, attributes: TerminalAttributes,
        nonblocking: (input: Bool?, output: Bool?)
    ) {
        self.sessionProcess = ChildProcess(pid: sessionProcess)
        self.page = page
        self.protection = protection
        self.attributes = attributes
        self.nonblocking = nonblocking
    }

    /// Forks the session process. In the guardian, every signal it passes on is blocked
    /// from before the fork, so none sent meanwhile is lost. In the session process,
    /// those it `handles` stay blocked until it exits: one that comes between the fork
    /// and its signalfd waits for it, and one that comes after its last read (the
    /// guardian passing on a hang-up the session process saw for itself) must not end
    /// it at the default action on its way out.
    static func split(protecting protection: Protection, sessionHandles handled: [Int32]) throws(Errno) -> Role {
        // A crash ends the process at once: the Swift runtime's backtracer would print
        // onto the lock screen and then wait for keys from the locked terminal.
        for signal in crashSignals { GuardianCalls.restoreDefaultAction(signal) }
        let page = GuardianPage(try GuardianCalls.sharedPage())
        let attributes = try TerminalAttributes.of(.standardInput)
        let nonblocking = (
            input: (try? FileDescriptor.standardInput.statusFlags()).map { $0 & O_NONBLOCK != 0 },
            output: (try? FileDescriptor.standardOutput.statusFlags()).map { $0 & O_NONBLOCK != 0 }
        )
        let mask = GuardianCalls.block(waitedFor)
        let pid: pid_t
        do {
            pid = try GuardianCalls.forkWatched(parentDeathSignal: SIGHUP)
        } catch {
            GuardianCalls.setMask(mask)
            throw error
        }
        if pid == 0 {
            GuardianCalls.setMask(mask, adding: handled)
            return .session(GuardianLink(sessionPid: getppid(), page: page))
        }
        // The guardian runs little of the code it shares with the session process, and
        // its end is the one the shell waits for: the fewer pages it has mapped, the
        // sooner the kernel is done with it (dropping them now happens while the session
        // process starts).
        GuardianCalls.dropReadOnlyPages()
        return .guardian(
            Guardian(
                sessionProcess: pid, page: page, protection: protection, attributes: attributes,
                nonblocking: nonblocking))
    }

    /// Waits for the session process to end or leave, and ends idlewrap with its exit status.
    /// With `_exit`: the guardian has nothing buffered to flush, and the C library's exit
    /// handlers (each loaded library's destructors) would write to pages it still shares
    /// copy-on-write with the session process: page faults on the way out, which every
    /// start-up's end waited for.
    func watchToEnd() -> Never {
        GuardianCalls.end(watch())
    }

    /// Waits for the session process to end or leave, and returns idlewrap's exit status.
    func watch() -> Int32 {
        while true {
            let info = GuardianCalls.waitForSignal(in: Self.waitedFor)
            switch info.si_signo {
            case SIGCHLD:
                // Not reaped: the kernel tears the session process down meanwhile, and
                // the guardian's parent (init, or a subreaper) reaps it.
                if page.condition == .finished { return page.exitStatus }
                if let end = followSessionProcess() { return finish(end) }
                // Not reaped: the session process goes on, another process's child.
                if page.condition == .left { return AttachCommand.takenElsewhere }
            case SIGCONT:
                if let end = followSessionProcess() { return finish(end) }
                if !sessionProcessContinued { sessionProcess.send(SIGCONT) }
                sessionProcessContinued = false
            case SIGHUP where info.si_code == Int32(SI_KERNEL):
                // The terminal hung up (the kernel's own SIGHUP): nothing on it is left to
                // keep locked, and holding it would keep its pseudo-terminal from being
                // freed for as long as a detached session lives. A lock of the guardian's
                // then finds no terminal, as it would on the hung-up one.
                try? ProcessTerminal.replaceWithNothing()
                sessionProcess.send(SIGHUP)
            case SIGWINCH where info.si_code == Int32(SI_KERNEL):
                // The terminal's own resize signal goes to its whole foreground job.
                break
            default:
                sessionProcess.send(info.si_signo)
            }
        }
    }

    /// Takes the session process's changes of state: a stop is the job's (the shell sees
    /// its job stop only when the process it started stops); the end is returned.
    private func followSessionProcess() -> TerminationStatus? {
        while let status = GuardianCalls.nextChange(of: sessionProcess.pid) {
            if cpty_wifstopped(status) {
                sessionProcessContinued = false
                stop(like: cpty_wstopsig(status))
            } else if cpty_wifcontinued(status) {
                sessionProcessContinued = true
            } else {
                return TerminationStatus(waitStatus: status)
            }
        }
        return nil
    }

    /// Stops the guardian with the signal that stopped the session process, so the shell
    /// says the same; it returns when the guardian is continued.
    private func stop(like signal: Int32) {
        ChildProcess(pid: getpid()).send(signal)
        guard Self.waitedFor.contains(signal) else { return }
        GuardianCalls.unblock([signal])
        _ = GuardianCalls.block([signal])
    }

    // MARK: - The end

    /// What the guardian does once the session process has ended.
    enum Verdict: Equatable {
        /// It ended on purpose: its exit status is idlewrap's.
        case passOn(Int32)
        /// It ended abnormally, after it had left the terminal as it found it.
        case report
        /// It ended abnormally while unlocked: the terminal goes back at once.
        case giveBack
        /// It ended abnormally while locked: the guardian's own lock first.
        case keepLocked
    }

    static func verdict(on end: TerminationStatus, condition: GuardianPage.Condition) -> Verdict {
        switch (condition, end) {
        case (.released, .exited(let status)), (.finished, .exited(let status)): return .passOn(status)
        case (.released, .signaled), (.finished, .signaled): return .report
        // The terminal was given back before: what became of the session is the new one's.
        case (.left, _): return .passOn(AttachCommand.takenElsewhere)
        case (.open, _): return .giveBack
        case (.locked, _): return .keepLocked
        }
    }

    private func finish(_ end: TerminationStatus) -> Int32 {
        let verdict = Self.verdict(on: end, condition: page.condition)
        if case .passOn(let status) = verdict { return status }
        let what: String
        switch end {
        case .signaled(let signal): what = "was killed by signal \(signal) (\(String(cString: strsignal(signal))))"
        case .exited(let status): what = "exited with status \(status) before restoring the terminal"
        }
        let commandEnd = hangUpCommand() ? "the command was hung up" : "the command had ended"
        if let path = protection.controlSocketPath { try? FileSystem.removeFile(path) }
        var status = ExitStatus.failure
        var said = "the session process \(what); \(commandEnd)"
        // Read by the lock, and kept until the end: a signal that came after the lock's
        // last read stays blocked, rather than end the guardian before the terminal is back.
        let signals = verdict == .keepLocked ? try? SignalSource(FallbackLock.answeredSignals) : nil
        defer { withExtendedLifetime(signals) {} }
        let log = protection.log
        if verdict == .keepLocked {
            log.record("session process \(what) while locked; the guardian keeps it locked", priority: LOG_ERR)
            var content = protection.lockScreen
            content.finished = "idlewrap failed at \(LocalTime.hourAndMinute(time(nil))); \(commandEnd)"
            var lock = FallbackLock(
                authenticator: protection.authenticator, content: content, attributes: attributes, signals: signals,
                log: log, isPlain: protection.isPlain)
            switch lock.run() {
            case .unlocked:
                said += "; the terminal stayed locked until the password"
            case .signalled(let signal):
                status = ExitStatus.killed(by: signal)
            case .terminalGone:
                break
            }
        } else {
            log.record("session process \(what)", priority: LOG_ERR)
        }
        if verdict != .report { restoreTerminal() }
        Diagnostics.error(said)
        return status
    }

    /// The command still runs in the dead session process's pseudo-terminal, which the
    /// kernel hung up with its master: SIGHUP to its process group as well, for a command
    /// that left the terminal's foreground, and SIGCONT for one that was stopped.
    /// False when the command had ended (and was reaped) already.
    private func hangUpCommand() -> Bool {
        let command = page.commandPid
        guard command > 0 else { return false }
        let group = ChildProcess(pid: command)
        group.sendToSession(SIGHUP, foregroundGroup: nil)
        group.sendToSession(SIGCONT, foregroundGroup: nil)
        return true
    }

    private func restoreTerminal() {
        let buffer = OutputBuffer(capacity: 256)
        if protection.isPlain {
            buffer.append(contentsOf: PlainLockScreen.leave)
        } else {
            TerminalReset.appendLeaving(to: buffer)
        }
        _ = buffer.withUnsafeBytes { try? FileDescriptor.standardOutput.writeAll($0) }
        try? attributes.apply(to: .standardInput)
        if let on = nonblocking.input { try? FileDescriptor.standardInput.setNonblocking(on) }
        if let on = nonblocking.output { try? FileDescriptor.standardOutput.setNonblocking(on) }
    }
}

import Glibc
import PTYKit

/// The --on-lock and --on-unlock commands: run in the background with
/// `/bin/sh -c`, never waited for, never fatal. Failures are remembered for a
/// report after the session and logged at once.
final class Hooks {
    private let onLock: String?
    private let onUnlock: String?
    private let environment: Environment
    private let log: AuditLog
    private let hygiene: SecretHygiene
    private var running: [pid_t: String] = [:]
    private(set) var failures: [String] = []

    init(onLock: String?, onUnlock: String?, environment: Environment, log: AuditLog, hygiene: SecretHygiene) {
        self.onLock = onLock
        self.onUnlock = onUnlock
        self.environment = environment
        self.log = log
        self.hygiene = hygiene
    }

    func locked() { run(onLock, event: "lock") }
    func unlocked() { run(onUnlock, event: "unlock") }

    private func run(_ command: String?, event: String) {
        guard let command else { return }
        do {
            let hook = try hygiene.spawningOrdinaryProcess { () throws(PTYError) in
                try ChildProcess.spawnDetachedShell(
                    command, environment: environment.setting("IDLEWRAP_EVENT", to: event).entries)
            }
            running[hook.pid] = event
        } catch {
            failed("--on-\(event) hook could not start: \(error)")
        }
    }

    /// Collects hooks that have ended (on SIGCHLD).
    func reap() {
        for (pid, event) in running {
            guard let status = try? ChildProcess(pid: pid).reapIfExited() else { continue }
            running[pid] = nil
            switch status {
            case .exited(0): break
            case .exited(let code): failed("--on-\(event) hook exited with status \(code)")
            case .signaled(let signal): failed("--on-\(event) hook was killed by signal \(signal)")
            }
        }
    }

    private func failed(_ message: String) {
        failures.append(message)
        log.record(message, priority: LOG_WARNING)
    }
}

import Glibc
import PTYKit

/// logind's bus as a session source: sd-bus's descriptor and events, and its deadline
/// (a reply's time-out, or now when messages wait); both lead to `LogindListener.process`.
/// A `Lock` for our session locks, as SIGUSR1 does: it can only lock, never unlock.
final class LogindSource: SessionSource {
    private var listener: LogindListener?
    private let verbose: Bool
    private let lock: () -> Void

    private init(_ listener: LogindListener, verbose: Bool, lock: @escaping () -> Void) {
        self.listener = listener
        self.verbose = verbose
        self.lock = lock
    }

    /// Follows logind for the session in `environment` (XDG_SESSION_ID, else process
    /// `pid`'s), or nil, saying why with `verbose`: no bus (a container, a system
    /// without systemd) is normal and silent.
    static func connect(
        environment: Environment, pid: pid_t, verbose: Bool, lock: @escaping () -> Void
    ) -> LogindSource? {
        switch LogindListener.connect(
            sessionID: environment["XDG_SESSION_ID"].flatMap { $0.isEmpty ? nil : $0 }, pid: pid,
            systemBusAddress: environment["DBUS_SYSTEM_BUS_ADDRESS"])
        {
        case .success(let listener):
            return LogindSource(listener, verbose: verbose, lock: lock)
        case .failure(let reason):
            if verbose { Diagnostics.error("not following logind: \(reason)") }
            return nil
        }
    }

    var descriptor: FileDescriptor? { listener?.descriptor }
    var events: Int16 { listener?.events ?? 0 }
    var deadline: MonotonicInstant? { listener?.deadline }
    var isFinished: Bool { listener == nil }

    func ready(at now: MonotonicInstant) {
        follow()
    }

    func deadlinePassed(at now: MonotonicInstant) {
        follow()
    }

    private func follow() {
        guard let listener else { return }
        for event in listener.process() {
            switch event {
            case .lock:
                lock()
            case .following(let session):
                if verbose { Diagnostics.lateError("following logind session \(session)") }
            case .stopped(let reason):
                self.listener = nil
                if verbose { Diagnostics.lateError("not following logind: \(reason)") }
            }
        }
    }
}

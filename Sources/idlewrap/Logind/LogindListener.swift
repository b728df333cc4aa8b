import CBusShims
import Glibc
import PTYKit

/// Follows logind on the system bus, as xss-lock does: reports logind's
/// `Lock` signal for idlewrap's own login session, so that `loginctl
/// lock-session` or a desktop locking its screen locks the wrapped terminal.
///
/// Nothing here blocks or wakes by itself: the owner polls `descriptor` for
/// `events`, wakes at `deadline`, and then calls `process()`, where sd-bus
/// does the reading and writing. Every call is asynchronous.
///
/// A `Lock` counts only when it names our session's object path and comes
/// from the connection that owns org.freedesktop.login1. The bus hands us a
/// signal addressed to us whatever our match rules say, and sd-bus does not
/// check a well-known sender name itself, so the owner is tracked here: the
/// sender of logind's answer naming our session, then NameOwnerChanged.
final class LogindListener {
    enum Event: Equatable {
        /// logind named our session (its object path); its Lock signals count from now.
        case following(session: String)
        /// logind asked our session to lock.
        case lock
        /// Not following logind any more, and why. `descriptor` is nil from now.
        case stopped(reason: String)
    }

    private enum Phase {
        case findingSession
        /// `owner` is the unique name that owns org.freedesktop.login1; nil
        /// while nobody does.
        case following(session: String, owner: String?)
        case stopped
    }

    static let service = "org.freedesktop.login1"
    static let sessionInterface = "org.freedesktop.login1.Session"
    private static let busService = "org.freedesktop.DBus"

    private let library: SDBusLibrary
    private var bus: OpaquePointer?
    private var phase = Phase.findingSession
    private var pending: [Event] = []

    private init(library: SDBusLibrary, bus: OpaquePointer) {
        self.library = library
        self.bus = bus
    }

    deinit {
        closeBus()
    }

    /// Connects to the system bus (`systemBusAddress`, which sd-bus reads
    /// from DBUS_SYSTEM_BUS_ADDRESS, else the standard socket) and asks logind
    /// for our session: `sessionID` (XDG_SESSION_ID) when set, else the
    /// session of process `pid` (idlewrap's, the one the shell started).
    static func connect(
        sessionID: String?, pid: pid_t, systemBusAddress: String?
    ) -> Result<LogindListener, LogindUnavailable> {
        let library: SDBusLibrary
        let bus: OpaquePointer
        switch SDBusLibrary.openSystemBus(address: systemBusAddress) {
        case .success(let opened): (library, bus) = opened
        case .failure(let reason): return .failure(reason)
        }
        let listener = LogindListener(library: library, bus: bus)
        if let reason = listener.start(sessionID: sessionID, pid: pid) {
            listener.closeBus()
            return .failure(reason)
        }
        return .success(listener)
    }

    /// The bus connection, to be watched for `events`; nil once stopped.
    var descriptor: FileDescriptor? {
        guard let bus else { return nil }
        let descriptor = library.getDescriptor(bus)
        return descriptor < 0 ? nil : FileDescriptor(rawValue: descriptor)
    }

    /// The poll events sd-bus waits for: POLLIN, and POLLOUT while it has
    /// something to write.
    var events: Int16 {
        guard let bus else { return 0 }
        return Int16(clamping: max(0, library.getEvents(bus)))
    }

    /// When sd-bus needs `process()` without any event: a reply's time-out,
    /// or now when messages wait. Nil while only listening.
    var deadline: MonotonicInstant? {
        guard let bus else { return nil }
        var microseconds: UInt64 = 0
        guard library.getTimeout(bus, &microseconds) >= 0, microseconds != UInt64.max else { return nil }
        let limit = UInt64(Int64.max / 1000)
        return MonotonicInstant(nanoseconds: microseconds > limit ? Int64.max : Int64(microseconds) * 1000)
    }

    /// Does the bus's pending work and returns what it meant.
    func process() -> [Event] {
        while let bus {
            let result = library.process(bus, nil)
            if result < 0 {
                stop(because: "the system bus connection failed: \(Errno(rawValue: -result))")
            }
            // Closed here, not in a handler, which runs inside sd_bus_process.
            if case .stopped = phase {
                closeBus()
                break
            }
            if result == 0 { break }
        }
        defer { pending = [] }
        return pending
    }

    // MARK: - Starting

    /// Installs the handler and match rules and sends the question; returns
    /// why that failed, if it did.
    private func start(sessionID: String?, pid: pid_t) -> LogindUnavailable? {
        guard let bus else { return LogindUnavailable("no system bus") }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let handler: cbus_message_handler = { message, context, _ in
            guard let context else { return 0 }
            Unmanaged<LogindListener>.fromOpaque(context).takeUnretainedValue().handleSignal(message)
            return 0
        }
        // Replies have their own handler; every other message passes the filter.
        let ignore: cbus_message_handler = { _, _, _ in 0 }
        var result = library.addFilter(bus, nil, handler, context)
        // The match rules only make the bus send us these signals; the filter
        // decides what they mean.
        let rules = [
            "type='signal',sender='\(Self.service)',interface='\(Self.sessionInterface)',member='Lock'",
            "type='signal',sender='\(Self.busService)',path='/org/freedesktop/DBus',"
                + "interface='\(Self.busService)',member='NameOwnerChanged',arg0='\(Self.service)'",
        ]
        for rule in rules where result >= 0 {
            result = library.addMatch(bus, nil, rule, ignore, nil, nil)
        }
        if result >= 0 { result = askForSession(sessionID: sessionID, pid: pid, context: context) }
        return result < 0 ? LogindUnavailable("cannot ask logind for our session: \(Errno(rawValue: -result))") : nil
    }

    private func askForSession(sessionID: String?, pid: pid_t, context: UnsafeMutableRawPointer) -> Int32 {
        guard let bus else { return -EBADF }
        var call: OpaquePointer?
        let member = sessionID == nil ? "GetSessionByPID" : "GetSession"
        var result = library.newMethodCall(
            bus, &call, Self.service, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", member)
        guard result >= 0, let call else { return result }
        defer { _ = library.unrefMessage(call) }
        if let sessionID {
            result = library.appendBasic(call, CChar(UInt8(ascii: "s")), sessionID)
        } else {
            var pid = UInt32(pid)
            result = library.appendBasic(call, CChar(UInt8(ascii: "u")), &pid)
        }
        guard result >= 0 else { return result }
        let handler: cbus_message_handler = { message, context, _ in
            guard let context else { return 0 }
            Unmanaged<LogindListener>.fromOpaque(context).takeUnretainedValue().handleSessionReply(message)
            return 1
        }
        // 0: sd-bus's default time-out for a reply (25 s).
        return library.callAsync(bus, nil, call, handler, context, 0)
    }

    // MARK: - Messages

    private func handleSessionReply(_ message: OpaquePointer) {
        guard case .findingSession = phase else { return }
        if let error = library.getError(message) {
            let name = error.pointee.name.map { String(cString: $0) } ?? "error"
            let text = error.pointee.message.map { ": " + String(cString: $0) } ?? ""
            stop(because: "logind did not name our session: \(name)\(text)")
            return
        }
        var path: UnsafePointer<CChar>?
        guard library.readBasic(message, CChar(UInt8(ascii: "o")), &path) > 0, let path,
            let owner = string(library.getSender(message))
        else {
            stop(because: "logind's answer naming our session was malformed")
            return
        }
        let session = String(cString: path)
        phase = .following(session: session, owner: owner)
        pending.append(.following(session: session))
    }

    private func handleSignal(_ message: OpaquePointer) {
        guard case .following(let session, let owner) = phase else { return }
        var type: UInt8 = 0
        guard library.getType(message, &type) >= 0, Int(type) == CBUS_MESSAGE_SIGNAL else { return }
        let sender = string(library.getSender(message))
        switch (string(library.getInterface(message)), string(library.getMember(message))) {
        case (Self.sessionInterface, "Lock"):
            if let owner, sender == owner, string(library.getPath(message)) == session {
                pending.append(.lock)
            }
        case (Self.busService, "NameOwnerChanged") where sender == Self.busService:
            guard let name = readString(message), name == Self.service,
                readString(message) != nil, let newOwner = readString(message)
            else { return }
            phase = .following(session: session, owner: newOwner.isEmpty ? nil : newOwner)
        default:
            break
        }
    }

    /// The message's next argument, if it is a string.
    private func readString(_ message: OpaquePointer) -> String? {
        var value: UnsafePointer<CChar>?
        guard library.readBasic(message, CChar(UInt8(ascii: "s")), &value) > 0 else { return nil }
        return string(value)
    }

    private func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    // MARK: - Stopping

    /// The bus is closed by `process()` once the handler has returned.
    private func stop(because reason: String) {
        if case .stopped = phase { return }
        phase = .stopped
        pending.append(.stopped(reason: reason))
    }

    private func closeBus() {
        guard let bus else { return }
        self.bus = nil
        library.closeBus(bus)
    }
}

import CBusShims
import Glibc
import PTYKit

/// logind's login sessions, asked over the system bus for `--audit`: the Manager's
/// ListSessions, then each session's TTY, Leader, Remote, Type and Class. Only the
/// terminal sessions of people count: class `user…`, type `tty` or `unspecified`, with a
/// TTY (a graphical session locks with its desktop; cron's have class `background`).
struct LogindSessions {
    private static let managerPath = "/org/freedesktop/login1"
    private static let managerInterface = "org.freedesktop.login1.Manager"
    /// Each question's time-out: logind answers in milliseconds, or is not there.
    private static let timeout: UInt64 = 5_000_000

    private let library: SDBusLibrary
    private let bus: OpaquePointer

    /// The terminal sessions logind lists on the system bus at `systemBusAddress` (else
    /// the standard socket), or why they cannot be had (no bus, no libsystemd, no logind).
    static func terminalSessions(systemBusAddress: String?) -> Result<[LoginSession], LogindUnavailable> {
        switch SDBusLibrary.openSystemBus(address: systemBusAddress) {
        case .success(let (library, bus)):
            defer { library.closeBus(bus) }
            return LogindSessions(library: library, bus: bus).list()
        case .failure(let reason):
            return .failure(reason)
        }
    }

    /// One listed session: ListSessions' `(susso)`.
    private struct Listed {
        let id: String
        let user: String
        let path: String
    }

    private func list() -> Result<[LoginSession], LogindUnavailable> {
        listed().map { listed in listed.compactMap(session) }
    }

    private func listed() -> Result<[Listed], LogindUnavailable> {
        var call: OpaquePointer?
        var result = library.newMethodCall(
            bus, &call, LogindListener.service, Self.managerPath, Self.managerInterface, "ListSessions")
        guard result >= 0, let call else { return .failure(unavailable(result, nil)) }
        defer { _ = library.unrefMessage(call) }
        var error = cbus_error(name: nil, message: nil, need_free: 0)
        defer { library.freeError(&error) }
        var reply: OpaquePointer?
        result = library.call(bus, call, Self.timeout, &error, &reply)
        guard result >= 0, let reply else { return .failure(unavailable(result, error)) }
        defer { _ = library.unrefMessage(reply) }
        guard library.enterContainer(reply, code("a"), "(susso)") > 0 else { return .failure(malformed) }
        var sessions: [Listed] = []
        while library.enterContainer(reply, code("r"), "susso") > 0 {
            var uid: UInt32 = 0
            guard let id = read(reply, "s"), library.readBasic(reply, code("u"), &uid) > 0,
                let user = read(reply, "s"), read(reply, "s") != nil, let path = read(reply, "o"),
                library.exitContainer(reply) >= 0
            else { return .failure(malformed) }
            sessions.append(Listed(id: id, user: user, path: path))
        }
        return .success(sessions)
    }

    /// The listed session as a login with a terminal, or nil when it is none (or ended
    /// since the list).
    private func session(_ listed: Listed) -> LoginSession? {
        guard let tty = string(listed.path, "TTY"), !tty.isEmpty,
            let type = string(listed.path, "Type"), type == "tty" || type == "unspecified",
            let sessionClass = string(listed.path, "Class"), sessionClass.hasPrefix("user")
        else { return nil }
        var leader: UInt32 = 0
        var remote: Int32 = 0
        guard trivial(listed.path, "Leader", "u", &leader), trivial(listed.path, "Remote", "b", &remote) else {
            return nil
        }
        return LoginSession(
            user: listed.user, terminal: tty.hasPrefix("/") ? tty : "/dev/" + tty, leader: pid_t(bitPattern: leader),
            source: "logind session \(listed.id)", remote: remote != 0)
    }

    // MARK: - sd-bus

    private func string(_ path: String, _ property: String) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard
            library.getPropertyString(
                bus, LogindListener.service, path, LogindListener.sessionInterface, property, nil, &value) >= 0,
            let value
        else { return nil }
        defer { free(value) }
        return String(cString: value)
    }

    /// `value`: an int's address for type `b`, a UInt32's for `u`.
    private func trivial(_ path: String, _ property: String, _ type: Unicode.Scalar, _ value: UnsafeMutableRawPointer)
        -> Bool
    {
        library.getPropertyTrivial(
            bus, LogindListener.service, path, LogindListener.sessionInterface, property, nil, code(type), value) >= 0
    }

    /// The message's next argument of `type` (`s` or `o`).
    private func read(_ message: OpaquePointer, _ type: Unicode.Scalar) -> String? {
        var value: UnsafePointer<CChar>?
        guard library.readBasic(message, code(type), &value) > 0, let value else { return nil }
        return String(cString: value)
    }

    private func code(_ type: Unicode.Scalar) -> CChar {
        CChar(UInt8(ascii: type))
    }

    private var malformed: LogindUnavailable { LogindUnavailable("logind's list of sessions was malformed") }

    private func unavailable(_ result: Int32, _ error: cbus_error?) -> LogindUnavailable {
        let name = error?.name.map { String(cString: $0) }
        let text = error?.message.map { ": " + String(cString: $0) } ?? ""
        return LogindUnavailable(
            "logind did not list its sessions: " + (name.map { $0 + text } ?? "\(Errno(rawValue: -result))"))
    }
}

/// A login session with a terminal, as logind or utmp records it.
struct LoginSession: Equatable {
    let user: String
    /// `/dev/pts/3`.
    let terminal: String
    let leader: pid_t
    /// Where it was found, for evidence.
    let source: String
    /// Whether logind calls it remote (ssh); nil where utmp is the source.
    var remote: Bool? = nil

    /// What the audit shows of it.
    var evidence: String {
        "\(source): \(user) on \(terminal), pid \(leader)" + (remote.map { $0 ? ", remote" : ", local" } ?? "")
    }
}

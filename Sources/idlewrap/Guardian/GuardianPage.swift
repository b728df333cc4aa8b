import Glibc

/// What the session process tells its guardian, on a page of memory they share: plain
/// stores, no system call, no wake-up. The guardian reads it only once the session process
/// has ended (waitpid orders its last stores before that).
struct GuardianPage {
    /// Whether the terminal must stay locked if the session process ends now.
    enum Condition: Int32 {
        /// Unlocked: what the terminal shows is the user's already.
        case open = 0
        /// Locking, locked, or ending while locked: only the password gives it back.
        case locked = 1
        /// The session process left the terminal as it found it and ends on purpose.
        case released = 2
    }

    private let fields: UnsafeMutablePointer<Int32>

    init(_ page: UnsafeMutableRawPointer) {
        fields = page.bindMemory(to: Int32.self, capacity: 2)
        fields.initialize(repeating: 0, count: 2)
    }

    var condition: Condition {
        get { Condition(rawValue: fields[0]) ?? .locked }
        nonmutating set { fields[0] = newValue.rawValue }
    }

    /// The command's pid while it runs unreaped (its process group to hang up), else 0.
    var commandPid: pid_t {
        get { fields[1] }
        nonmutating set { fields[1] = newValue }
    }
}

/// The session process's side of its guardian (see `Guardian`).
struct GuardianLink {
    /// The process the shell started: idlewrap's pid for the command (IDLEWRAP_PID), the
    /// control socket and --list, and the one that passes signals on.
    let sessionPid: pid_t
    let page: GuardianPage

    /// Called before anything of a lock shows, and again once the right password is in.
    func lockHolds(_ holds: Bool) {
        page.condition = holds ? .locked : .open
    }

    func commandStarted(_ pid: pid_t) {
        page.commandPid = pid
    }

    /// The command was reaped: its pid may name another process from now on.
    func commandReaped() {
        page.commandPid = 0
    }

    /// The terminal is as idlewrap found it, and the status the session process exits with
    /// is the session's.
    func release() {
        page.condition = .released
    }

    /// Ends the session process with `status`, released. With `_exit`, as the guardian ends:
    /// nothing is buffered (idlewrap writes with write(2)), and the C library's exit handlers
    /// (each loaded library's destructors) would write to pages the session process still
    /// shares copy-on-write with its guardian, page faults every start-up's end waited for.
    func end(_ status: Int32) -> Never {
        release()
        GuardianCalls.end(status)
    }
}

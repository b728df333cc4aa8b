import Glibc
import PTYKit

/// What the session process tells its guardian, on a page of memory they share: plain
/// stores, no system call, no wake-up. The guardian reads it only once the session process
/// has ended (waitpid orders its last stores before that), or has woken it to say `left`
/// or `finished` (the signal, sent after the store, orders it).
struct GuardianPage {
    /// Whether the terminal must stay locked if the session process ends now.
    enum Condition: Int32 {
        /// Unlocked: what the terminal shows is the user's already.
        case open = 0
        /// Locking, locked, or ending while locked: only the password gives it back.
        case locked = 1
        /// The session process left the terminal as it found it and ends on purpose.
        case released = 2
        /// The session process left the terminal as it found it for another one
        /// (`--take`) and goes on without its guardian, which ends at once.
        case left = 3
        /// Released, and the session process let go of the terminal (closed every
        /// descriptor) on its way out with `exitStatus`: the guardian ends at once with it,
        /// while the kernel tears the session process down, rather than after.
        case finished = 4
    }

    private let fields: UnsafeMutablePointer<Int32>

    init(_ page: UnsafeMutableRawPointer) {
        fields = page.bindMemory(to: Int32.self, capacity: 3)
        fields.initialize(repeating: 0, count: 3)
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

    /// The session process's exit status, once it is `finished`.
    var exitStatus: Int32 {
        get { fields[2] }
        nonmutating set { fields[2] = newValue }
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
        set(holds ? .locked : .open)
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
        set(.released)
    }

    /// The terminal the guardian stands for is as idlewrap found it and no longer the
    /// session's (another terminal took it, `--take`): the guardian ends, so that the
    /// shell that started idlewrap has its terminal back, and the session process goes
    /// on without it, its parent's end no longer a hang-up. Its pid goes on naming the
    /// session (the control socket, IDLEWRAP_PID). Call it once the session process has
    /// left the terminal's session: nothing of the shell's job is left in it.
    func leave() {
        GuardianCalls.stopParentDeathSignal()
        set(.left)
        // Woken as by its child's change of state; a guardian already gone (killed) is
        // not another process's to wake.
        if getppid() == sessionPid { ChildProcess(pid: sessionPid).send(SIGCHLD) }
    }

    /// Once the guardian is left, it reads nothing more: the page says so to the end,
    /// lest it read a lock of the new terminal's before it woke.
    private func set(_ condition: GuardianPage.Condition) {
        guard page.condition != .left else { return }
        page.condition = condition
    }

    /// Ends the session process with `status`, released. With `_exit`, as the guardian ends:
    /// nothing is buffered (idlewrap writes with write(2)), and the C library's exit handlers
    /// (each loaded library's destructors) would write to pages the session process still
    /// shares copy-on-write with its guardian, page faults every start-up's end waited for.
    /// Its guardian, still there, is told the status and woken first, with every descriptor
    /// closed (the terminal's last user is then the guardian): it ends while the kernel
    /// tears the session process down, not after. Where the descriptors cannot all be
    /// closed at once, the guardian waits for the end as before.
    func end(_ status: Int32) -> Never {
        release()
        if page.condition == .released, getppid() == sessionPid, GuardianCalls.closeAllDescriptors() {
            page.exitStatus = status
            page.condition = .finished
            ChildProcess(pid: sessionPid).send(SIGCHLD)
        }
        GuardianCalls.end(status)
    }
}

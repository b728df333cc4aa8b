import Glibc

/// What `status` tells about a session, and what --list shows. Never the
/// command's arguments (they may hold secrets), only its name.
struct SessionStatus: Equatable, Sendable {
    var pid: pid_t
    /// The terminal idlewrap locks (its own stdin), e.g. /dev/pts/3.
    var terminal: String
    var user: String
    var command: String
    /// Whole seconds since the last keystroke.
    var idleSeconds: Int
    var locked: Bool
    /// Whole seconds until the idle lock (rounded up), nil when none is due:
    /// locked already, or --timeout off.
    var locksInSeconds: Int?

    /// The reply to `status`: one `key value` line per field. Text fields go
    /// through `terminalSafe`, so no value holds a newline.
    var reply: String {
        [
            "pid \(pid)",
            "terminal \(terminalSafe(terminal))",
            "user \(terminalSafe(user))",
            "command \(terminalSafe(command))",
            "idle \(idleSeconds)",
            "state \(locked ? "locked" : "unlocked")",
            "locks-in \(locksInSeconds.map(String.init) ?? "none")",
        ].map { $0 + "\n" }.joined()
    }
}

/// A separate extension keeps the memberwise initializer.
extension SessionStatus {
    /// Reads a `status` reply; nil when it is not one.
    init?(reply: String) {
        var fields: [Substring: Substring] = [:]
        for line in reply.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { return nil }
            fields[line[..<space]] = line[line.index(after: space)...]
        }
        guard let pid = fields["pid"].flatMap({ pid_t($0) }), let terminal = fields["terminal"],
            let user = fields["user"], let command = fields["command"],
            let idle = fields["idle"].flatMap({ Int($0) }), let state = fields["state"],
            state == "locked" || state == "unlocked", let locksIn = fields["locks-in"]
        else { return nil }
        let seconds = Int(locksIn)
        guard seconds != nil || locksIn == "none" else { return nil }
        self.init(
            pid: pid, terminal: String(terminal), user: String(user), command: String(command), idleSeconds: idle,
            locked: state == "locked", locksInSeconds: seconds)
    }
}

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
    /// Since when the session has had no terminal (seconds since the epoch), nil while it
    /// has one. A detached session is locked.
    var detachedSince: Int? = nil

    /// `unlocked`, `locked` or `detached`.
    var state: String {
        detachedSince != nil ? "detached" : locked ? "locked" : "unlocked"
    }

    /// The reply to `status`: one `key value` line per field. Text fields go
    /// through `terminalSafe`, so no value holds a newline.
    var reply: String {
        [
            "pid \(pid)",
            "terminal \(terminalSafe(terminal))",
            "user \(terminalSafe(user))",
            "command \(terminalSafe(command))",
            "idle \(idleSeconds)",
            "state \(state)",
            "locks-in \(locksInSeconds.map(String.init) ?? "none")",
        ].map { $0 + "\n" }.joined() + (detachedSince.map { "detached-since \($0)\n" } ?? "")
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
            ["locked", "unlocked", "detached"].contains(state), let locksIn = fields["locks-in"]
        else { return nil }
        let seconds = Int(locksIn)
        guard seconds != nil || locksIn == "none" else { return nil }
        let detachedSince = fields["detached-since"].flatMap { Int($0) }
        guard (state == "detached") == (detachedSince != nil) else { return nil }
        // Shown by --list: read as a reply writes them, control characters in caret notation,
        // whatever the peer sent.
        self.init(
            pid: pid, terminal: terminalSafe(String(terminal)), user: terminalSafe(String(user)),
            command: terminalSafe(String(command)), idleSeconds: idle,
            locked: state != "unlocked", locksInSeconds: seconds, detachedSince: detachedSince)
    }
}

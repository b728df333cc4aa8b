/// `--list`'s plain columns: a header, then one line per session, columns
/// separated by two spaces. Text from a session is made terminal-safe: as root
/// with --all-users, a user's socket could answer anything.
enum SessionTable {
    static let header = ["PID", "TTY", "USER", "COMMAND", "IDLE", "STATE", "LOCKS IN"]

    static func text(_ sessions: [SessionStatus]) -> String {
        let rows = [header] + sessions.map(row)
        var widths = [Int](repeating: 0, count: header.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    static func row(_ session: SessionStatus) -> [String] {
        let terminal = session.terminal.hasPrefix("/dev/") ? String(session.terminal.dropFirst(5)) : session.terminal
        return [
            String(session.pid), terminalSafe(terminal), terminalSafe(session.user), terminalSafe(session.command),
            duration(session.idleSeconds), session.state,
            session.locksInSeconds.map(duration) ?? "-",
        ]
    }

    /// `42s`, `5m03s`, `2h05m`.
    static func duration(_ seconds: Int) -> String {
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 { return "\(seconds / 60)m\(twoDigits(seconds % 60))s" }
        return "\(seconds / 3600)h\(twoDigits(seconds % 3600 / 60))m"
    }
}

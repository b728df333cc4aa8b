import PTYKit

/// The lock screen for a terminal idlewrap cannot drive (TERM=dumb): lines of
/// text and nothing else, since such a terminal shows an escape sequence as text. It can
/// neither hide nor clear what it shows, so the first drawing of a lock pushes the
/// command's screen out of view with blank lines, and each later drawing is written below
/// the last, as on a printing terminal; the unlock writes the command's screen as text
/// (`CommandScreen.showAsText`).
enum PlainLockScreen {
    /// Whether the terminal named by `term` (the TERM variable) gets the plain lock screen.
    /// Only a terminal said to be dumb: one with no TERM at all may still be an xterm, where
    /// the full lock screen hides the command's screen and history, and this one cannot.
    static func isNeeded(term: String?) -> Bool {
        term == "dumb"
    }

    /// The lines of `content` from the start of a line of their own, each cut to the width,
    /// the prompt last with the cursor after it. The first drawing of a lock (`shown` nil)
    /// has every line and `rows` lines in all, so that the command's screen scrolls out of
    /// view; a later one only the lines that say something new since `shown`, and the
    /// prompt again after them. Empty when there is nothing new.
    static func draw(_ content: LockScreenContent, size: WindowSize, after shown: LockScreenContent?) -> [UInt8] {
        let rows = max(Int(size.rows), 1)
        let columns = max(Int(size.columns), 1)
        var lines = LockScreen.layout(content, rows: .max)
        if let shown {
            let before = LockScreen.layout(shown, rows: .max)
            let news = lines.filter { line in
                line.kind != .prompt && line.kind != .gap
                    && !before.contains { $0.kind == line.kind && $0.text == line.text }
            }
            let prompt = lines.filter { $0.kind == .prompt }
            let promptIsNew = content.prompt != shown.prompt
            guard !news.isEmpty || promptIsNew else { return [] }
            lines = news + prompt
        }
        let text = lines.map { line in
            line.kind == .prompt
                ? LockScreen.fitted(line.text, columns: columns - 1) + " "
                : LockScreen.fitted(line.text, columns: columns)
        }
        let blanks = shown == nil ? max(rows - text.count, 0) : 0
        return Array(("\r\n" + String(repeating: "\r\n", count: blanks) + text.joined(separator: "\r\n")).utf8)
    }

    /// Starts a line of its own after the last drawing: the session ends while locked.
    static let leave = Array("\r\n".utf8)
}

import Glibc
import PTYKit

/// What the lock screen shows.
struct LockScreenContent: Equatable {
    /// The program's name, without its arguments: they may hold secrets
    /// (`mysql -pSECRET`).
    var program: String
    var host: String
    var since: String
    var message: String?
    var failures: Int
    /// The outcome of the last attempt, or why checking is impossible.
    var status: String?
    var prompt: String
    /// `New output: N lines, last at HH:MM`: that output arrived, never what it says.
    var arrival: String? = nil
    /// `Command finished at HH:MM`.
    var finished: String? = nil
}

/// The bytes that hide the command's screen behind the lock screen, draw it,
/// and bring the command's screen back. It hides the tmux way (alternate
/// screen, cleared) and restores the dtach way (a full-screen command redraws
/// itself on a size change).
enum LockScreen {
    /// Hides everything the command shows: onto the alternate screen (or, if
    /// the command is already there, its cursor saved and the screen cleared),
    /// with the title saved on the terminal's title stack and blanked, tmux's window
    /// name reset, and the modes that make the terminal send input by itself turned off.
    static func enter(modes: TerminalModes, wipeScrollback: Bool) -> [UInt8] {
        var text = ""
        if wipeScrollback { text += "\u{1b}[3J" }
        if modes.titleWasSet { text += "\u{1b}[22;0t\u{1b}]0;\u{1b}\\" }
        // tmux has no stack for window names: a neutral one at once (an empty one would
        // bring back tmux's automatic name only at its next check).
        if modes.windowNameWasSet { text += "\u{1b}kidlewrap\u{1b}\\" }
        text += modes.alternateScreen ? "\u{1b}7" : "\u{1b}[?1049h"
        // Plain attributes and the ASCII character set for the lock screen;
        // the command's are saved with the cursor above.
        text += "\u{1b}[0m\u{1b}(B\u{0f}"
        return Array(text.utf8) + LockInputModes.offSequence(for: modes)
    }

    /// Clears the lock screen and brings back the command's, with the modes
    /// and title it had (and tmux's automatic window name).
    static func leave(modes: TerminalModes) -> [UInt8] {
        // The modes go back on while the lock screen still shows: the kitty
        // keyboard stack popped must be the one the lock pushed onto.
        var text = modes.alternateScreen ? "\u{1b}8" : "\u{1b}[?1049l"
        if !modes.cursorVisible { text += "\u{1b}[?25l" }
        if modes.titleWasSet { text += "\u{1b}[23;0t" }
        // The window goes back to tmux's automatic name until the command sets one again.
        if modes.windowNameWasSet { text += "\u{1b}k\u{1b}\\" }
        return Array("\u{1b}[H\u{1b}[2J".utf8) + LockInputModes.restoreSequence(for: modes) + Array(text.utf8)
    }

    /// The whole lock screen, centred, with the cursor after the prompt.
    /// Each line has a row of its own and is cut to the width; when the rows
    /// run out, the least needed lines go first (in the order of `Line.Kind`), so the
    /// screen stays legible, and nothing overlaps, down to a single cell.
    static func draw(_ content: LockScreenContent, size: WindowSize) -> [UInt8] {
        let rows = max(Int(size.rows), 1)
        let columns = max(Int(size.columns), 1)
        let lines = layout(content, rows: rows)
        let top = (rows - lines.count) / 2 + 1
        var text = "\u{1b}[?25l\u{1b}[H\u{1b}[2J"
        var cursor: (row: Int, column: Int)?
        for (index, line) in lines.enumerated() {
            let row = top + index
            if line.kind == .prompt {
                // The cursor goes after the prompt, so the prompt leaves it a column.
                let shown = fitted(line.text, columns: columns - 1)
                let column = self.column(centering: shown.count + 1, in: columns)
                text += "\u{1b}[\(row);\(column)H" + shown
                cursor = (row, column + shown.count)
            } else if !line.text.isEmpty {
                let shown = fitted(line.text, columns: columns)
                text += "\u{1b}[\(row);\(self.column(centering: shown.count, in: columns))H" + shown
            }
        }
        if let cursor { text += "\u{1b}[\(cursor.row);\(cursor.column)H\u{1b}[?25h" }
        return Array(text.utf8)
    }

    /// One line of the lock screen.
    struct Line {
        /// Most needed first: without the prompt nobody can unlock; without
        /// the status a wrong password or a broken check goes unexplained.
        enum Kind: Comparable {
            case prompt, status, locked, failures, finished, arrival, program, since, message, gap
        }

        var kind: Kind
        var text: String
    }

    /// The lines shown, top to bottom: at most `rows` of them, the least
    /// needed left out first.
    static func layout(_ content: LockScreenContent, rows: Int) -> [Line] {
        var lines = [
            Line(kind: .locked, text: "Locked"),
            Line(kind: .program, text: "\(content.program) on \(content.host)"),
            Line(kind: .since, text: "since \(content.since)"),
        ]
        if let message = content.message { lines.append(Line(kind: .message, text: message)) }
        if let finished = content.finished { lines.append(Line(kind: .finished, text: finished)) }
        if let arrival = content.arrival { lines.append(Line(kind: .arrival, text: arrival)) }
        if content.failures > 0 {
            let failures = content.failures == 1 ? "1 failed attempt" : "\(content.failures) failed attempts"
            lines.append(Line(kind: .failures, text: failures))
        }
        if let status = content.status { lines.append(Line(kind: .status, text: status)) }
        // While keys are ignored there is no prompt, and no cursor.
        if !content.prompt.isEmpty {
            lines.append(Line(kind: .gap, text: ""))
            lines.append(Line(kind: .prompt, text: content.prompt))
        }
        guard lines.count > rows else { return lines }
        let kept = lines.map(\.kind).sorted().prefix(rows)
        return lines.filter { kept.contains($0.kind) }
    }

    /// The wall-clock time of day, for "since".
    static func clockText(at time: time_t = Glibc.time(nil)) -> String {
        LocalTime.text(time, format: "%Y-%m-%d %H:%M:%S")
    }

    /// `line` cut to `columns` characters, with "..." to show the cut when
    /// there is room for it.
    private static func fitted(_ line: String, columns: Int) -> String {
        let characters = Array(terminalSafe(line))
        guard characters.count > columns else { return String(characters) }
        return columns > 3 ? String(characters.prefix(columns - 3)) + "..." : String(characters.prefix(max(columns, 0)))
    }

    private static func column(centering width: Int, in columns: Int) -> Int {
        max((columns - width) / 2, 0) + 1
    }
}

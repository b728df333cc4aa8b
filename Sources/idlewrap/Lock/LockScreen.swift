import Glibc
import PTYKit

/// What the lock screen shows.
struct LockScreenContent: Equatable {
    var command: String
    var since: String
    var message: String?
    var failures: Int
    /// The outcome of the last attempt, or why checking is impossible.
    var status: String?
    var prompt: String
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

    /// For a session that ends while locked: nothing of the command's screen
    /// may reappear, so both screens are cleared on the way out.
    static func leaveCleared(wipeScrollback: Bool) -> [UInt8] {
        let wipe = wipeScrollback ? "\u{1b}[3J" : ""
        return Array("\u{1b}[H\u{1b}[2J\u{1b}[?1049l\u{1b}[H\u{1b}[2J\(wipe)\u{1b}[0m\u{1b}[?25h".utf8)
    }

    /// The whole lock screen, centred, with the cursor after the prompt.
    static func draw(_ content: LockScreenContent, size: WindowSize) -> [UInt8] {
        var lines = ["Locked", content.command, "since \(content.since)"]
        if let message = content.message { lines.append(message) }
        if content.failures > 0 {
            lines.append(content.failures == 1 ? "1 failed attempt" : "\(content.failures) failed attempts")
        }
        if let status = content.status { lines.append(status) }
        lines.append("")
        let rows = max(Int(size.rows), 1)
        let columns = max(Int(size.columns), 1)
        let top = max((rows - lines.count - 1) / 2, 0) + 1
        var text = "\u{1b}[?25l\u{1b}[H\u{1b}[2J"
        for (index, line) in lines.enumerated() where top + index <= rows {
            let shown = fitted(line, columns: columns)
            text += "\u{1b}[\(top + index);\(column(centering: shown.count, in: columns))H" + shown
        }
        let prompt = fitted(content.prompt, columns: max(columns - 1, 1))
        let promptRow = min(top + lines.count, rows)
        text += "\u{1b}[\(promptRow);\(column(centering: prompt.count + 1, in: columns))H\(prompt) \u{1b}[?25h"
        return Array(text.utf8)
    }

    /// The wall-clock time of day, for "since".
    static func clockText(at time: time_t = Glibc.time(nil)) -> String {
        var clock = time
        var parts = tm()
        localtime_r(&clock, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func fitted(_ line: String, columns: Int) -> String {
        let characters = Array(terminalSafe(line))
        guard characters.count > columns else { return String(characters) }
        return columns > 3 ? String(characters.prefix(columns - 3)) + "..." : String(characters.prefix(columns))
    }

    private static func column(centering width: Int, in columns: Int) -> Int {
        max((columns - width) / 2, 0) + 1
    }
}

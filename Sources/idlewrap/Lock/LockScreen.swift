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
    /// How many lines that scrolled away while locked will not reach the scrollback.
    var scrollbackLoss: String? = nil
}

/// What entering the lock screen changed on the terminal besides the screen itself: the
/// list that leaving it works through, so that nothing it turns on is left on.
struct LockScreenEntry {
    /// The command's modes when the lock began.
    let modes: ScreenModes
    /// The titles the lock hid, and what they were.
    let titles: HiddenTitles
    /// Whether the lock pushed kitty keyboard flags 0 on each screen's stack.
    let pushedKeyboard: (main: Bool, alternate: Bool)
}

/// The bytes that hide the command's screen behind the lock screen, draw it, and leave it.
/// It hides the tmux way (alternate screen, cleared); the command's screen comes back from
/// its model (`CommandScreen.show`).
enum LockScreen {
    /// The title the lock shows in place of the command's: never the site's message, and not
    /// empty, which some terminals (mlterm) ignore, leaving the command's in the title bar.
    static let title = Array("Locked".utf8)

    /// Hides everything the command shows: onto the alternate screen (cleared when drawn),
    /// its titles hidden (`HiddenTitles`), the modes that make the terminal send input by
    /// itself turned off, and the known state a screen of one's own draws from (no margins,
    /// origin mode off, ASCII, insert mode off, the default pen), whatever the command left.
    /// `afterCut`: the command's output was cut short, and a title or window name it was
    /// setting may have been set by the cut.
    static func enter(
        modes: ScreenModes, titles: CommandTitles, afterCut: Bool, wipeScrollback: Bool, into buffer: OutputBuffer
    ) -> LockScreenEntry {
        if wipeScrollback { buffer.append(.eraseScrollback) }
        let hidden = HiddenTitles(titles, modes: modes, afterCut: afterCut, title: title, into: buffer)
        // The modes off on the command's screen, then on the lock screen's: a program can
        // leave kitty keyboard flags on the alternate screen's stack, and a password typed
        // with them would arrive as escape sequences. (On a terminal without an alternate
        // screen both pushes land on the one stack, and both pops too.)
        modes.appendInputModesOff(to: buffer)
        modes.appendLockOutModesOff(to: buffer)
        let flags = modes.kittyKeyboardFlagsByScreen
        var pushedKeyboard = (main: false, alternate: flags.alternate != 0)
        if !modes.alternateScreen {
            pushedKeyboard.main = flags.main != 0
            buffer.append(.mode(.alternateScreen1049, on: true))
            if pushedKeyboard.alternate { buffer.append(.pushKeyboardFlags(0)) }
        }
        ScreenModel.appendKnownState(autowrap: true, to: buffer)
        return LockScreenEntry(modes: modes, titles: hidden, pushedKeyboard: pushedKeyboard)
    }

    /// Written on the lock screen before the command's screen is repainted: the kitty
    /// keyboard entry the lock pushed popped on the screen it was pushed on, then the
    /// titles as the command has them now (`HiddenTitles.appendGivenBack`). The input modes
    /// come back after the repaint, as the command has them then
    /// (`ScreenModes.appendInputModesOn(after:to:)`).
    static func leave(_ entry: LockScreenEntry, titles: CommandTitles, rows: Int, into buffer: OutputBuffer) {
        if !entry.modes.alternateScreen {
            // The lock's own alternate screen is left blank, row by row: a program that
            // enters it without clearing it (modes 47 and 1047) must not find the lock
            // screen there.
            for row in 1...max(rows, 1) {
                buffer.append(.cursorPosition(row: row, column: 1))
                buffer.append(.eraseToEndOfLine)
            }
        }
        if entry.pushedKeyboard.alternate { buffer.append(.popKeyboardFlags(1)) }
        if entry.pushedKeyboard.main {
            buffer.append(.mode(.alternateScreen1049, on: false))
            buffer.append(.popKeyboardFlags(1))
        }
        entry.titles.appendGivenBack(titles, into: buffer)
    }

    /// The session ends while the lock screen shows: it is cleared with everything the lock
    /// pushed popped, the alternate screen is left and the main screen cleared too, so
    /// nothing of the command's reappears, and what the command left on is turned off.
    static func leaveForGood(_ entry: LockScreenEntry, wipeScrollback: Bool, into buffer: OutputBuffer) {
        buffer.append(.cursorPosition(row: 1, column: 1))
        buffer.append(.eraseDisplay)
        if entry.pushedKeyboard.alternate { buffer.append(.popKeyboardFlags(1)) }
        entry.titles.appendGivenBackForGood(into: buffer)
        let depth = entry.modes.kittyKeyboardDepth
        if entry.modes.alternateScreen && depth.alternate > 0 { buffer.append(.popKeyboardFlags(depth.alternate)) }
        buffer.append(.mode(.alternateScreen1049, on: false))
        buffer.append(.cursorPosition(row: 1, column: 1))
        buffer.append(.eraseDisplay)
        if wipeScrollback { buffer.append(.eraseScrollback) }
        buffer.append(.resetAttributes)
        let mainPops = depth.main + (entry.pushedKeyboard.main ? 1 : 0)
        if mainPops > 0 { buffer.append(.popKeyboardFlags(mainPops)) }
        buffer.append(.mode(.cursorVisible, on: true))
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
        // Each row erased, not the display: tmux's scroll-on-clear would push a screen
        // cleared by ED 2 into its history, and the command's with it where the lock
        // screen covers it (a terminal without an alternate screen).
        let buffer = OutputBuffer()
        buffer.append(.mode(.cursorVisible, on: false))
        for row in 1...rows {
            buffer.append(.cursorPosition(row: row, column: 1))
            buffer.append(.eraseToEndOfLine)
        }
        var cursor: (row: Int, column: Int)?
        for (index, line) in lines.enumerated() {
            let row = top + index
            if line.kind == .prompt {
                // The cursor goes after the prompt, so the prompt leaves it a column.
                let shown = fitted(line.text, columns: columns - 1)
                let column = self.column(centering: shown.count + 1, in: columns)
                buffer.append(.cursorPosition(row: row, column: column))
                buffer.append(contentsOf: Array(shown.utf8))
                cursor = (row, column + shown.count)
            } else if !line.text.isEmpty {
                let shown = fitted(line.text, columns: columns)
                buffer.append(.cursorPosition(row: row, column: self.column(centering: shown.count, in: columns)))
                buffer.append(contentsOf: Array(shown.utf8))
            }
        }
        if let cursor {
            buffer.append(.cursorPosition(row: cursor.row, column: cursor.column))
            buffer.append(.mode(.cursorVisible, on: true))
        }
        return buffer.bytes
    }

    /// One line of the lock screen.
    struct Line {
        /// Most needed first: without the prompt nobody can unlock; without
        /// the status a wrong password or a broken check goes unexplained.
        enum Kind: Comparable {
            case prompt, status, locked, failures, finished, arrival, scrollbackLoss, program, since, message, gap
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
        if let loss = content.scrollbackLoss { lines.append(Line(kind: .scrollbackLoss, text: loss)) }
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
    static func fitted(_ line: String, columns: Int) -> String {
        let characters = Array(terminalSafe(line))
        guard characters.count > columns else { return String(characters) }
        return columns > 3 ? String(characters.prefix(columns - 3)) + "..." : String(characters.prefix(max(columns, 0)))
    }

    private static func column(centering width: Int, in columns: Int) -> Int {
        max((columns - width) / 2, 0) + 1
    }
}

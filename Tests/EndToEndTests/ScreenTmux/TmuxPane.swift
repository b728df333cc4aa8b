import Glibc
import Testing

@testable import PTYKit
@testable import TestSupport

/// A pane of a private tmux server (`tmux -L SOCKET -f /dev/null`) whose program is `cat`
/// on a raw terminal: bytes pasted into it (`paste-buffer -r`) come back as its output, so
/// tmux draws exactly the bytes sent. Each send ends with a title that tmux shows only once
/// it has parsed everything before it.
final class TmuxPane {
    let rows: Int
    let columns: Int
    private let socket: String
    /// The server's socket file, which tmux leaves behind after kill-server.
    private var socketPath = ""
    private let file: String
    private var sends = 0

    init(rows: Int, columns: Int) throws {
        self.rows = rows
        self.columns = columns
        TmuxPane.counter += 1
        socket = "screen-model-\(getpid())-\(TmuxPane.counter)"
        file = "/tmp/\(socket).bytes"
        try run(
            [
                "new-session", "-d", "-x", String(columns), "-y", String(rows), "stty raw -echo; exec cat", ";",
                "set-option", "-g", "status", "off", ";", "set-option", "-g", "history-limit", "10000",
            ])
        try waitFor("#{pane_current_command}") { $0 == "cat" }
        socketPath = try format("#{socket_path}")
    }

    deinit {
        _ = try? run(["kill-server"])
        if !socketPath.isEmpty { unlink(socketPath) }
        unlink(file)
    }

    /// Sends `bytes` as the program's output and waits until tmux has drawn them.
    func send(_ bytes: [UInt8]) throws {
        sends += 1
        let token = "sent-\(sends)"
        let payload = bytes + Array("\u{1b}]2;\(token)\u{1b}\\".utf8)
        guard let handle = fopen(file, "wb") else { throw TmuxFailure(message: "cannot write \(file)") }
        _ = payload.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
        fclose(handle)
        try run(["load-buffer", file, ";", "paste-buffer", "-r", "-d"])
        try waitFor("#{pane_title}") { $0 == token }
    }

    /// `capture-pane -p -e -N`: each row with its attributes as SGR, as tmux keeps them.
    func capture() throws -> [String] {
        let text = try run(["capture-pane", "-p", "-e", "-N"])
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A format of the pane, such as `#{cursor_x}`.
    func format(_ format: String) throws -> String {
        var text = try run(["display-message", "-p", format])
        while text.last == "\n" { text.removeLast() }
        return text
    }

    private func waitFor(_ format: String, _ condition: (String) -> Bool) throws {
        let deadline = MonotonicInstant.now() + .seconds(20)
        while MonotonicInstant.now() < deadline {
            if condition((try? self.format(format)) ?? "") { return }
            var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&pause, nil)
        }
        throw TmuxFailure(message: "tmux never showed \(format) as expected")
    }

    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let (status, text) = Shell.run(
            "LC_ALL=C.UTF-8 TMUX= tmux -u -L \(socket) -f /dev/null \(Shell.quoted(arguments)) </dev/null 2>&1")
        guard status == 0 else { throw TmuxFailure(message: "tmux \(arguments.first ?? ""): \(text)") }
        return text
    }

    nonisolated(unsafe) private static var counter = 0
}

struct TmuxFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// One visible cell as both sides show it: its text, width and style (no hyperlinks: tmux
/// 3.3 has none).
struct ShownCell: Equatable {
    var text: String
    var width: UInt8
    var style: Style
}

extension Style {
    /// The same look in one spelling: tmux writes its own (semicolons, `4:2`).
    var respelled: Style {
        var style = self
        for colour in [\Style.foreground, \Style.background, \Style.underlineColour] {
            style[keyPath: colour] = Colour(rawValue: style[keyPath: colour].rawValue & ~(3 << 26))
        }
        style.attributes.underline = style.attributes.underline
        return style
    }
}

extension ScreenModel {
    /// The visible cells.
    var shownCells: [[ShownCell]] {
        let snapshot = snapshot()
        let cells = snapshot.onAlternate ? snapshot.alternate ?? [] : snapshot.main
        return cells.map { row in
            row.filter { $0.width != 0 }.map { cell in
                var scalars = cell.scalars
                if scalars.first == 0x1B { scalars = [Cell.decGraphicsScalar(scalars[1])] }
                var text = ""
                for scalar in scalars { text.unicodeScalars.append(Unicode.Scalar(scalar) ?? "?") }
                return ShownCell(text: text, width: cell.width, style: cell.style.respelled)
            }
        }
    }

    /// What tmux's `capture-pane -p -e -N` lines show, read by a model of their own: each
    /// line at its row (the pen carries over, as tmux writes it), SO selecting the DEC
    /// graphics that tmux marks that way.
    static func reading(capture lines: [String], rows: Int, columns: Int) -> ScreenModel {
        let reader = ScreenModel(rows: rows, columns: columns)
        reader.feed(Array("\u{1b}[?7l\u{1b})0".utf8))
        for (index, line) in lines.enumerated() where index < rows {
            // tmux 3.3 writes SGR 53 (overline) as `5:3`, the way it writes `4:2`.
            let line = line.replacing("[5:3", with: "[53").replacing(";5:3", with: ";53")
            reader.feed(Array("\u{1b}[\(index + 1);1H".utf8) + Array(line.utf8))
        }
        return reader
    }
}

/// What tmux says about the pane and what the model says, in tmux's formats.
struct ShownState: Equatable, CustomStringConvertible {
    var values: [String]

    static let formats =
        "#{cursor_x},#{cursor_y} cursor=#{cursor_flag} alt=#{alternate_on} insert=#{insert_flag} "
        + "origin=#{origin_flag} wrap=#{wrap_flag} ckeys=#{keypad_cursor_flag} keypad=#{keypad_flag} "
        + "mouse=#{mouse_standard_flag}#{mouse_button_flag}#{mouse_all_flag} sgr=#{mouse_sgr_flag} "
        + "region=#{scroll_region_upper}-#{scroll_region_lower} tabs=#{pane_tabs}"

    init(tmux pane: TmuxPane) throws {
        values = try pane.format(Self.formats).split(separator: " ").map(String.init)
    }

    init(_ model: ScreenModel) {
        let state = model.state
        let modes = model.modes
        func flag(_ on: Bool) -> String { on ? "1" : "0" }
        let x = state.cursor.pendingWrap ? state.columns : state.cursor.x
        let tabs = state.tabStops.stops.enumerated().filter(\.element).map { String($0.offset) }.joined(separator: ",")
        values = [
            "\(x),\(state.cursor.y)", "cursor=\(flag(modes.cursorVisible))", "alt=\(flag(model.isAlternateScreen))",
            "insert=\(flag(state.gridModes.insert))", "origin=\(flag(state.gridModes.origin))",
            "wrap=\(flag(state.gridModes.autowrap))",
            "ckeys=\(flag(modes.isSet(privateMode: 1)))", "keypad=\(flag(modes.applicationKeypad))",
            "mouse=\(flag(modes.isSet(privateMode: 1000)))\(flag(modes.isSet(privateMode: 1002)))"
                + "\(flag(modes.isSet(privateMode: 1003)))",
            "sgr=\(flag(modes.isSet(privateMode: 1006)))", "region=\(state.margins.top)-\(state.margins.bottom)",
            "tabs=\(tabs)",
        ]
    }

    var description: String { values.joined(separator: " ") }
}

/// The rows that differ, each as both sides show it. One difference between xterm (which
/// the model follows) and tmux is left out: EL while a wrap is pending erases the last
/// column in xterm (VT100, VTE, kitty) and nothing in tmux, so a blank there may keep the
/// pen it was written with in tmux only (top's inverse header does that).
func differences(_ shown: [[ShownCell]], _ expected: [[ShownCell]]) -> [String] {
    var found: [String] = []
    for row in 0..<max(shown.count, expected.count) {
        var a = row < shown.count ? shown[row] : []
        let b = row < expected.count ? expected[row] : []
        if let last = a.last, let other = b.last, a.count == b.count, last.text == " ", other.text == " " {
            a[a.count - 1] = other
        }
        guard a != b else { continue }
        let column = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        let detail = column < min(a.count, b.count) ? "\(a[column]) vs \(b[column])" : "length \(a.count) vs \(b.count)"
        found.append(
            "row \(row) at cell \(column): \(detail)\n  tmux:  \(a.map(\.text).joined())\n  model: \(b.map(\.text).joined())"
        )
    }
    return found
}

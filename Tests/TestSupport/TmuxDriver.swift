import Glibc

@testable import PTYKit
@testable import idlewrap

/// A real terminal emulator for tests that must see the screen as a person
/// would: tmux runs the command in a pane, `send-keys` types, `capture-pane`
/// reads what is visible. Each driver has its own tmux server.
final class TmuxDriver {
    let socket: String
    private var isRunning = true

    /// `options` are global window options set before the command starts.
    init(_ command: [String], rows: Int = 24, columns: Int = 80, options: [String: String] = [:]) throws {
        _ = Self.staleServersEnded
        socket = "idlewrap-test-\(getpid())-\(TmuxDriver.nextSocket())"
        // remain-on-exit first, so a command that ends at once leaves its status.
        let settings = options.sorted { $0.key < $1.key }.flatMap { ["set-option", "-g", $0.key, $0.value, ";"] }
        _ = try tmux(
            ["-f", "/dev/null", "start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";"] + settings
                + ["new-session", "-d", "-x", String(columns), "-y", String(rows)] + command)
    }

    deinit {
        _ = try? tmux(["kill-server"])
        // tmux leaves the socket file behind.
        unlink("\(Self.socketDirectory)/\(socket)")
    }

    /// What the pane shows now, one line per row; with `attributes`, with the escape
    /// sequences for colours and other attributes.
    func screen(attributes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p"] + (attributes ? ["-e"] : []))
    }

    /// Everything a person sees, exactly: each cell of `capture-pane -p -e -N` with its
    /// attributes, read back by a screen model (so that a blank tmux keeps as written, past
    /// what a line shows, is the blank it looks like), then the cursor and the modes tmux
    /// keeps for the screen.
    func exactScreen() throws -> ExactScreen {
        let capture = try tmux(["capture-pane", "-p", "-e", "-N"])
        let state = try format(
            "cursor #{cursor_x},#{cursor_y} shown #{cursor_flag} alternate #{alternate_on} region "
                + "#{scroll_region_upper}-#{scroll_region_lower} origin #{origin_flag} insert #{insert_flag} "
                + "wrap #{wrap_flag} keypad #{keypad_cursor_flag},#{keypad_flag} mouse #{mouse_any_flag} "
                + "size #{pane_width}x#{pane_height}")
        return ExactScreen(capture: capture, state: state)
    }

    /// The pane's history and then its screen, a line per row, oldest first; `joined`: a
    /// line per line, the rows of a wrapped one joined.
    func history(joined: Bool = false) throws -> [String] {
        try tmux(["capture-pane", "-p", "-S", "-"] + (joined ? ["-J"] : []))
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Makes the window `rows` by `columns`, as a person resizing the terminal does.
    func resize(rows: Int, columns: Int) throws {
        try tmux(["resize-window", "-x", String(columns), "-y", String(rows)])
    }

    /// A tmux format expanded for the pane, such as `#{pane_title}`.
    func format(_ format: String) throws -> String {
        try tmux(["display-message", "-p", format]).trimmingSuffix("\n")
    }

    /// Waits until the visible screen satisfies `condition`.
    @discardableResult
    func waitForScreen(timeout: Double = TerminalDriver.defaultTimeout, _ condition: (String) -> Bool) throws -> Bool {
        let deadline = MonotonicInstant.now() + .seconds(timeout)
        repeat {
            if condition(try screen()) { return true }
            var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
            nanosleep(&pause, nil)
        } while MonotonicInstant.now() < deadline
        return false
    }

    func waitForText(_ text: String, timeout: Double = TerminalDriver.defaultTimeout) throws -> Bool {
        try waitForScreen(timeout: timeout) { $0.contains(text) }
    }

    /// Types `text` literally (no key-name lookup).
    func type(_ text: String) throws {
        _ = try tmux(["send-keys", "-l", text])
    }

    func press(_ key: String) throws {
        _ = try tmux(["send-keys", key])
    }

    /// Locks idlewrap, the pane's first process, with SIGUSR1; true once the lock screen shows.
    func lockNow() throws -> Bool {
        kill(try panePid(), SIGUSR1)
        return try waitForText("Password for")
    }

    /// Types the password at the lock screen; true once the lock screen is gone.
    func unlock(with password: String = "open sesame") throws -> Bool {
        try type(password)
        try press("Enter")
        return try waitForScreen { !$0.contains("Password for") }
    }

    /// The pid of the pane's first process (idlewrap).
    func panePid() throws -> pid_t {
        pid_t(try tmux(["display-message", "-p", "#{pane_pid}"]).trimmingSuffix("\n")) ?? -1
    }

    /// The exit status once the pane's process is dead. tmux 3.3 sometimes
    /// leaves a dead pane process unreaped for a long time, so a zombie's own
    /// exit code (the last field of /proc/PID/stat) counts too.
    func waitForExitStatus(timeout: Double = TerminalDriver.defaultTimeout) throws -> Int32? {
        let pid = try panePid()
        var status: Int32?
        try waitForScreen(timeout: timeout) { _ in
            let dead = (try? tmux(["display-message", "-p", "#{pane_dead} #{pane_dead_status}"])) ?? ""
            let fields = dead.trimmingSuffix("\n").split(separator: " ")
            if fields.first == "1", fields.count == 2 { status = Int32(fields[1]) }
            status = status ?? zombieStatus(pid)
            return status != nil
        }
        return status
    }

    private func zombieStatus(_ pid: pid_t) -> Int32? {
        guard let stat = readText("/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[end...].dropFirst(2).split(separator: " ")
        guard fields.first == "Z", let last = fields.last, let raw = Int32(String(last).trimmingSuffix("\n")) else {
            return nil
        }
        return raw & 0x7f == 0 ? raw >> 8 : 128 + raw & 0x7f
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let driver = try TerminalDriver(["tmux", "-L", socket] + arguments, environment: ["TMUX": ""])
        guard driver.waitForExit() == .exited(0) else {
            throw TmuxError(message: "tmux \(arguments.joined(separator: " ")) failed: \(driver.text)")
        }
        // tmux output comes through a terminal: lines end in CR LF.
        return driver.text.replacing("\r\n", with: "\n")
    }

    /// A test run that is killed never releases its drivers: its tmux servers, and the
    /// (often locked) idlewrap in them, would run on. The first driver of the next run
    /// ends the servers whose test process is gone.
    private static let staleServersEnded: Void = {
        let directory = socketDirectory
        for name in directoryEntries(directory) where name.hasPrefix("idlewrap-test-") {
            // idlewrap-test-PID-N
            let fields = name.split(separator: "-")
            guard fields.count == 4, let owner = pid_t(fields[2]), kill(owner, 0) == -1, errno == ESRCH else {
                continue
            }
            _ = try? TerminalDriver(["tmux", "-L", name, "kill-server"], environment: ["TMUX": ""]).waitForExit()
            unlink("\(directory)/\(name)")
        }
    }()

    /// Where tmux puts the sockets of this user's servers.
    private static let socketDirectory =
        (getenv("TMUX_TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/tmux-\(getuid())"

    nonisolated(unsafe) private static var counter = 0
    private static func nextSocket() -> Int {
        counter += 1
        return counter
    }
}

/// A pane as `TmuxDriver.exactScreen` reads it.
struct ExactScreen: Equatable, CustomStringConvertible {
    let capture: String
    let state: String
    let cells: ScreenSnapshot

    init(capture: String, state: String) {
        self.capture = capture
        self.state = state
        let lines = capture.split(separator: "\n", omittingEmptySubsequences: false)
        let reader = ScreenModel(rows: max(lines.count, 1), columns: 1000)
        // No wrapping and G1 as DEC graphics, as tmux writes the cells.
        Array("\u{1b}[?7l\u{1b})0".utf8).withUnsafeBytes { reader.feed($0) }
        for (index, line) in lines.enumerated() {
            // tmux 3.3 writes SGR 53 (overline) as `5:3`, the way it writes `4:2`.
            let line = line.replacing("[5:3", with: "[53").replacing(";5:3", with: ";53")
            (Array("\u{1b}[\(index + 1);1H".utf8) + Array(line.utf8)).withUnsafeBytes { reader.feed($0) }
        }
        cells = reader.snapshot()
    }

    static func == (left: ExactScreen, right: ExactScreen) -> Bool {
        left.state == right.state && left.cells.main == right.cells.main
    }

    var description: String { capture + state }
}

struct TmuxError: Error {
    let message: String
}

/// Polls until `condition` holds, for at most `timeout` seconds: for a screen that tmux
/// updates on its own time.
@discardableResult
func eventually(timeout: Double = TerminalDriver.defaultTimeout, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = MonotonicInstant.now() + .seconds(timeout)
    repeat {
        if try condition() { return true }
        var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
        nanosleep(&pause, nil)
    } while MonotonicInstant.now() < deadline
    return false
}

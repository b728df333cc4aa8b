import Glibc
import PTYKit

@testable import idlewrap

/// A real terminal emulator for tests that must see the screen as a person
/// would: tmux runs the command in a pane, `send-keys` types, `capture-pane`
/// reads what is visible. Each driver has its own tmux server.
final class TmuxDriver {
    let socket: String
    private var isRunning = true

    /// `options` are global window options set before the command starts.
    init(_ command: [String], rows: Int = 24, columns: Int = 80, options: [String: String] = [:]) throws {
        socket = "idlewrap-test-\(getpid())-\(TmuxDriver.nextSocket())"
        // remain-on-exit first, so a command that ends at once leaves its status.
        let settings = options.sorted { $0.key < $1.key }.flatMap { ["set-option", "-g", $0.key, $0.value, ";"] }
        _ = try tmux(
            ["-f", "/dev/null", "start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";"] + settings
                + ["new-session", "-d", "-x", String(columns), "-y", String(rows)] + command)
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// What the pane shows now, one line per row; with `attributes`, with the escape
    /// sequences for colours and other attributes.
    func screen(attributes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p"] + (attributes ? ["-e"] : []))
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

    nonisolated(unsafe) private static var counter = 0
    private static func nextSocket() -> Int {
        counter += 1
        return counter
    }
}

struct TmuxError: Error {
    let message: String
}

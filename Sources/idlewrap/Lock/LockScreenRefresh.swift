import Glibc
import PTYKit

/// What the lock screen says and when it is drawn again: at once for an answer, a failure
/// or a new size; for output that arrives while locked at most once a second, so a chatty
/// command does not keep redrawing it.
struct LockScreenRefresh {
    var content: LockScreenContent
    /// Output read while locked, and when the command finished while locked.
    var arrival = OutputArrival()
    var finishedAt: time_t?
    private var drawnAt: MonotonicInstant?
    /// When to draw again for news that came sooner than a second after the last drawing.
    private(set) var due: MonotonicInstant?

    init(program: String, host: String, message: String?) {
        content = LockScreenContent(
            program: program, host: host, since: "", message: message, failures: 0, status: nil, prompt: "")
    }

    /// A new lock: nothing arrived, nothing failed.
    mutating func begin(since: String) {
        content.since = since
        content.failures = 0
        content.status = nil
        arrival = OutputArrival()
    }

    /// The bytes that draw the whole lock screen now; `droppedLines` scrolled away while
    /// locked and will not reach the terminal's history.
    mutating func draw(size: WindowSize, droppedLines: Int, at now: MonotonicInstant) -> [UInt8] {
        content.arrival = arrival.text
        content.finished = finishedAt.map { "Command finished at \(LocalTime.hourAndMinute($0))" }
        content.scrollbackLoss = droppedLines > 0 ? "\(Self.lines(droppedLines)) will miss the scrollback" : nil
        drawnAt = now
        due = nil
        return LockScreen.draw(content, size: size)
    }

    /// News to show: true if the screen is to be drawn now; otherwise `due` says when.
    mutating func needsDrawing(at now: MonotonicInstant) -> Bool {
        guard due == nil else { return false }
        let next = drawnAt.map { $0 + .seconds(1) } ?? now
        if next <= now { return true }
        due = next
        return false
    }

    /// `1 earlier line`, `3 earlier lines`.
    static func lines(_ count: Int) -> String {
        "\(count) earlier \(count == 1 ? "line" : "lines")"
    }
}

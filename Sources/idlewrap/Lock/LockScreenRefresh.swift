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
    /// What the plain lock screen showed last in this lock; nil before its first drawing.
    private var plainShown: LockScreenContent?

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
        plainShown = nil
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

    /// The bytes that write the plain lock screen below what it showed before: only what is
    /// new (`PlainLockScreen.draw`). The output that arrived shows with the next drawing
    /// that has something else to say: a line for every second of it would bury the prompt.
    mutating func drawPlain(size: WindowSize, at now: MonotonicInstant) -> [UInt8] {
        content.finished = finishedAt.map { "Command finished at \(LocalTime.hourAndMinute($0))" }
        content.arrival = plainShown?.arrival
        drawnAt = now
        due = nil
        var bytes = PlainLockScreen.draw(content, size: size, after: plainShown)
        if !bytes.isEmpty {
            content.arrival = arrival.text
            bytes = PlainLockScreen.draw(content, size: size, after: plainShown)
            plainShown = content
        }
        return bytes
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

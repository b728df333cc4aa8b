import PTYKit

/// Where the terminal's cursor is when the command starts, asked once (DSR 6) so that the
/// command's screen model starts there and the unlock leaves the rows above it (earlier
/// output, a motd) alone: the question, and the input around its answer.
///
/// Nothing waits for the answer: the command runs and its output reaches the terminal as
/// it comes; the screen keeps a copy until the answer (`CommandScreen.awaitStartPosition`).
/// The answer is taken out of the input and never reaches the command nor counts as a
/// key; what is typed before, around and after it goes on intact and in order. A
/// possible start of the answer at the end of a read is held at most `keyPatience` (a
/// lone Escape key typed then arrives that much later), or `splitReplyPatience` once it
/// is surely the answer's (`CursorPositionReply.holdsBegunReply`): the only deadline, so
/// that an idle session never wakes for the question. The screen waits `patience` (then
/// it starts at the top left, as without an answer); an answer later than that is still
/// taken out of the input up to `lateReplyWindow` after the question (a terminal answers
/// queries in order, so the first report is this one's), and so is nothing after it.
/// Both are checked when something happens (`expire`), not woken for. At exit an answer
/// still awaited is waited for, at most `exitPatience` (`awaitsAnswer`).
struct StartPositionQuery {
    /// DSR 6: "where is the cursor?"
    static let question: [UInt8] = Array("\u{1B}[6n".utf8)
    static let patience: Duration = .seconds(1)
    static let lateReplyWindow: Duration = .seconds(10)
    static let keyPatience: Duration = .milliseconds(50)
    static let splitReplyPatience: Duration = .milliseconds(500)
    /// How long idlewrap waits at exit for an answer that has not come: left in the
    /// terminal's input, it would reach the next program (a shell reads `ESC[3;1R` as keys).
    static let exitPatience: Duration = .milliseconds(500)

    /// What one read of input, or a passed deadline, comes to.
    struct Outcome {
        /// Bytes typed, to go on as input (zero them after use).
        var keys: [UInt8] = []
        /// The answer, 0-based, if it came in time for the screen.
        var position: (row: Int, column: Int)?
        /// The screen should stop waiting and start at the top left.
        var givesUp = false
    }

    private var reply = CursorPositionReply()
    private let screenGivesUpAt: MonotonicInstant
    private let stopsListeningAt: MonotonicInstant
    /// The screen keeps the output for the answer.
    private(set) var screenIsWaiting = true
    private var heldSince: MonotonicInstant?

    init(askedAt now: MonotonicInstant) {
        screenGivesUpAt = now + Self.patience
        stopsListeningAt = now + Self.lateReplyWindow
    }

    /// The answer came, or it is too late for it, and nothing is held: input no longer goes
    /// through `take`.
    var isOver: Bool { (reply.position != nil || stoppedListening) && reply.held.isEmpty }

    /// The answer may still come and be taken out of the input.
    var awaitsAnswer: Bool { reply.position == nil && !stoppedListening }

    /// When `expire` wants to be called: when a held byte has waited long enough.
    var deadline: MonotonicInstant? {
        heldSince.map { $0 + heldPatience }
    }

    /// How long what is held waits for the rest of the answer.
    private var heldPatience: Duration {
        reply.holdsBegunReply ? Self.splitReplyPatience : Self.keyPatience
    }

    /// One read of input.
    mutating func take(_ input: UnsafeRawBufferPointer, at now: MonotonicInstant) -> Outcome {
        var outcome = expire(at: now)
        guard !stoppedListening else {
            outcome.keys += reply.flush()
            outcome.keys.append(contentsOf: input)
            return outcome
        }
        outcome.keys += reply.take(input, holding: true)
        heldSince = reply.held.isEmpty ? nil : (heldSince ?? now)
        if let position = reply.position {
            if screenIsWaiting && now < screenGivesUpAt {
                outcome.position = (max(position.row - 1, 0), max(position.column - 1, 0))
            } else if screenIsWaiting {
                outcome.givesUp = true
            }
            screenIsWaiting = false
        }
        return outcome
    }

    /// The time is `now`: held bytes go on as keys once they waited long enough, the screen
    /// stops waiting once it has waited long enough, and listening ends after the window.
    mutating func expire(at now: MonotonicInstant) -> Outcome {
        var outcome = Outcome()
        if let heldSince, heldSince + heldPatience <= now || now >= stopsListeningAt {
            outcome.keys = reply.flush()
            self.heldSince = nil
        }
        if screenIsWaiting && now >= screenGivesUpAt {
            screenIsWaiting = false
            outcome.givesUp = true
        }
        if now >= stopsListeningAt && reply.position == nil {
            // Not listening any more: the next report is a key.
            stoppedListening = true
        }
        return outcome
    }

    /// The window for a late answer closed without one.
    private(set) var stoppedListening = false
}

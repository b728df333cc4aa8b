import PTYKit

/// The conversation at the lock screen: the authenticator's questions, the line typed in
/// answer (never echoed, never forwarded), and the pause after a failure, which doubles
/// with each failure in a row.
///
/// An attempt begins with the first key typed, not when the question shows: PAM judges
/// the account when the attempt begins (pam_faillock's `preauth`), and an attempt begun at
/// lock time or right after a failure would be judged during a lock-out that the user then
/// waits out, and refuse the first right password after it. Until then the screen asks
/// `firstPrompt`; a line given before the authenticator asked its first question answers
/// that question if it is the one shown, and is dropped if it is another.
struct UnlockDialog {
    static let firstDelay: Duration = .seconds(1)
    static let longestDelay: Duration = .seconds(30)

    /// Where the conversation stands, and what the authenticator had to say on the way.
    struct Turn {
        let step: AuthStep
        let notices: [String]
    }

    private let authenticator: Authenticator
    private let firstPrompt: String
    private var conversation: AuthConversation?
    /// The question on the screen, which the line being typed answers.
    private var shownPrompt: String
    /// A line was submitted before the authenticator asked for it.
    private var lineIsSubmitted = false
    private var editor = PasswordLineEditor()
    private var failuresInARow = 0

    init(authenticator: Authenticator, firstPrompt: String) {
        self.authenticator = authenticator
        self.firstPrompt = firstPrompt
        shownPrompt = firstPrompt
    }

    /// The descriptor the authenticator's check is waiting on, if any.
    var readiness: FileDescriptor? { conversation?.readiness }

    /// A new lock: no failures in a row yet.
    mutating func restart() {
        failuresInARow = 0
    }

    /// A new attempt: its first question, asked of the authenticator once the user answers.
    mutating func begin() -> Turn? {
        end()
        shownPrompt = firstPrompt
        return Turn(step: .asking(prompt: firstPrompt), notices: [])
    }

    /// Keys typed at the prompt: the next turn once a line is submitted, or as the first
    /// key begins the attempt (what the screen said of the last one no longer holds). Only
    /// the first line of a burst counts; what follows Enter is dropped.
    mutating func type(_ bytes: UnsafeRawBufferPointer) -> Turn? {
        let begins = conversation == nil
        if begins { conversation = authenticator.beginAttempt() }
        guard let (event, _) = editor.feed(bytes), event == .submitted else {
            return begins ? Turn(step: .asking(prompt: shownPrompt), notices: []) : nil
        }
        lineIsSubmitted = true
        return turn()
    }

    /// The authenticator's descriptor is ready: where the check stands now.
    mutating func resume() -> Turn? {
        turn()
    }

    /// The attempt failed or could not be checked: how long keys are ignored now.
    mutating func pause() -> Duration {
        end()
        let delay = min(Self.firstDelay * (1 << min(failuresInARow, 5)), Self.longestDelay)
        failuresInARow += 1
        return delay
    }

    /// The conversation is over, unlocked or abandoned.
    mutating func end(cancelling: Bool = false) {
        if cancelling { conversation?.cancel() }
        conversation = nil
        lineIsSubmitted = false
        editor.reset()
    }

    private mutating func turn() -> Turn? {
        guard let conversation else { return nil }
        var notices = conversation.takeNotices()
        var step = conversation.currentStep()
        if lineIsSubmitted, case .asking(let prompt) = step {
            lineIsSubmitted = false
            if prompt == shownPrompt {
                conversation.answer(editor.line)
                editor.reset()
                notices += conversation.takeNotices()
                step = conversation.currentStep()
            }
        }
        if case .asking(let prompt) = step {
            editor.reset()
            shownPrompt = prompt
        }
        return Turn(step: step, notices: notices)
    }
}

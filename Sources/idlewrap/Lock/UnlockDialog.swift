import PTYKit

/// The conversation at the lock screen: the authenticator's questions, the line typed in
/// answer (never echoed, never forwarded), and the pause after a failure, which doubles
/// with each failure in a row.
struct UnlockDialog {
    static let firstDelay: Duration = .seconds(1)
    static let longestDelay: Duration = .seconds(30)

    /// Where the conversation stands, and what the authenticator had to say on the way.
    struct Turn {
        let step: AuthStep
        let notices: [String]
    }

    private let authenticator: Authenticator
    private var conversation: AuthConversation?
    private var editor = PasswordLineEditor()
    private var failuresInARow = 0

    init(authenticator: Authenticator) {
        self.authenticator = authenticator
    }

    /// The descriptor the authenticator's check is waiting on, if any.
    var readiness: FileDescriptor? { conversation?.readiness }

    /// A new lock: no failures in a row yet.
    mutating func restart() {
        failuresInARow = 0
    }

    /// A new attempt.
    mutating func begin() -> Turn? {
        conversation = authenticator.beginAttempt()
        return turn()
    }

    /// Keys typed at the prompt: the next turn once a line is submitted. Only the first
    /// line of a burst counts; what follows Enter is dropped.
    mutating func type(_ bytes: UnsafeRawBufferPointer) -> Turn? {
        guard let (event, _) = editor.feed(bytes), event == .submitted, let conversation else { return nil }
        conversation.answer(editor.line)
        editor.reset()
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
        editor.reset()
    }

    private mutating func turn() -> Turn? {
        guard let conversation else { return nil }
        let notices = conversation.takeNotices()
        let step = conversation.currentStep()
        if case .asking = step { editor.reset() }
        return Turn(step: step, notices: notices)
    }
}

import PTYKit

/// Where an unlock attempt stands.
enum AuthStep: Equatable, Sendable {
    /// Show `prompt` and read a line, never echoed: the lock screen echoes
    /// nothing, not even the answer to a question PAM asks with echo on.
    case asking(prompt: String)
    /// The check runs in the background: poll `readiness`.
    case working
    case succeeded
    /// The answer was wrong ("Wrong password").
    case failed(message: String)
    /// The check itself cannot run: stay locked and show `reason`.
    case unavailable(reason: String)
}

/// One unlock attempt. Used from one thread (the relay's); a backend that
/// works in the background hides that behind `readiness`.
protocol AuthConversation: AnyObject {
    /// Becomes readable when `currentStep()` may have moved on or notices
    /// arrived; poll it while the step is `.working`. Nil for backends that
    /// never work in the background. Owned by the conversation: do not close.
    var readiness: FileDescriptor? { get }
    /// The current step; also drains `readiness`.
    func currentStep() -> AuthStep
    /// Messages the backend wants shown (PAM's info and error texts), oldest
    /// first; each is returned once.
    func takeNotices() -> [String]
    /// Answers the current `.asking` step (ignored in any other step). The
    /// answer is copied; the caller clears `secret` afterwards.
    func answer(_ secret: SecretBuffer)
    /// Abandons the attempt, e.g. because the session is ending; returns at
    /// once. Dropping the last reference to a conversation cancels it too.
    func cancel()
}

/// The question for `user`'s password: "Password for alice:". PAM's own plain
/// "Password:" is shown this way too.
func passwordPrompt(for user: String) -> String {
    "Password for \(user):"
}

/// Checks unlock attempts with one method.
protocol Authenticator: AnyObject {
    /// A new attempt, which starts at `.asking(prompt: "Password for alice:")`,
    /// or for PAM at `.working` until PAM's first question.
    func beginAttempt() -> AuthConversation
}

/// Why authentication could not be set up before the command starts, or why
/// `--set-password` could not set one; reported as `idlewrap: <description>` with
/// exit status 125.
struct AuthenticationError: Error, CustomStringConvertible, Equatable {
    let description: String
}

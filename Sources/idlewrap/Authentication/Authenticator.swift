import PTYKit

/// Where an unlock attempt stands.
enum AuthStep: Equatable, Sendable {
    /// Show `prompt` and read a line. `echo` is true for a question PAM asks
    /// with echo on (a user name, some one-time codes); a hidden question
    /// has it false.
    case asking(prompt: String, echo: Bool)
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

/// Checks unlock attempts with one method.
protocol Authenticator: AnyObject {
    var method: AuthMethod { get }
    /// A new attempt, which starts at `.asking(prompt: "Password for alice:",
    /// echo: false)`, or for PAM at `.working` until PAM's first question.
    func beginAttempt() -> AuthConversation
}

/// Why authentication could not be set up; reported as `idlewrap: <description>`
/// with exit status 125 before the command starts.
struct AuthSetupError: Error, CustomStringConvertible, Equatable {
    let description: String
}

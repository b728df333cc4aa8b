import PTYKit

/// Checks attempts against one crypt(3) hash: the `ask` method's session
/// password and the `file` method's stored one. A check takes tens of
/// milliseconds (yescrypt), short enough to run inside `answer`.
final class CryptAuthenticator: Authenticator {
    private let hash: String
    private let user: UserName

    /// `hash` must have passed `PasswordHash.problem(with:)`.
    init(hash: String, user: UserName) {
        self.hash = hash
        self.user = user
    }

    func beginAttempt() -> AuthConversation {
        CryptConversation(hash: hash, prompt: passwordPrompt(for: user.value))
    }
}

/// One attempt: asks once, then holds the verdict.
final class CryptConversation: AuthConversation {
    private let hash: String
    private var step: AuthStep

    init(hash: String, prompt: String) {
        self.hash = hash
        step = .asking(prompt: prompt)
    }

    var readiness: FileDescriptor? { nil }

    func currentStep() -> AuthStep { step }

    func takeNotices() -> [String] { [] }

    func answer(_ secret: SecretBuffer) {
        guard case .asking = step else { return }
        switch PasswordHash.matches(secret, hash: hash) {
        case true?: step = .succeeded
        case false?: step = .failed(message: "Wrong password")
        case nil: step = .unavailable(reason: "crypt(3) cannot check the password hash")
        }
    }

    /// Nothing runs in the background, so there is nothing to stop.
    func cancel() {}
}

import PTYKit

/// Checks attempts against one crypt(3) hash: the `ask` method's session
/// password and the `file` method's stored one. A check takes tens of
/// milliseconds (yescrypt), short enough to run inside `answer`.
final class CryptAuthenticator: Authenticator {
    private let hash: String
    private let user: UserName
    private let shortPassword: ShortPasswordRule?

    /// `hash` must have passed `PasswordHash.problem(with:)`.
    init(hash: String, user: UserName, shortPassword: ShortPasswordRule? = nil) {
        self.hash = hash
        self.user = user
        self.shortPassword = shortPassword
    }

    func beginAttempt() -> AuthConversation {
        CryptConversation(hash: hash, prompt: passwordPrompt(for: user.value), shortPassword: shortPassword)
    }
}

/// `min-password-length` for a hash it never saw made (a password file written
/// by hand, or before the policy): the right password still unlocks, since a
/// lock must not turn into a lock-out, but `record` hears of it, for the log.
struct ShortPasswordRule {
    let minimumLength: Int
    let record: (String) -> Void
}

/// One attempt: asks once, then holds the verdict.
final class CryptConversation: AuthConversation {
    private let hash: String
    private let shortPassword: ShortPasswordRule?
    private var step: AuthStep

    init(hash: String, prompt: String, shortPassword: ShortPasswordRule? = nil) {
        self.hash = hash
        self.shortPassword = shortPassword
        step = .asking(prompt: prompt)
    }

    var readiness: FileDescriptor? { nil }

    func currentStep() -> AuthStep { step }

    func takeNotices() -> [String] { [] }

    func answer(_ secret: SecretBuffer) {
        guard case .asking = step else { return }
        switch PasswordHash.matches(secret, hash: hash) {
        case true?:
            if let rule = shortPassword, secret.withBytes({ characterCount(ofUTF8: $0) }) < rule.minimumLength {
                rule.record("unlocked with a password shorter than min-password-length (\(rule.minimumLength))")
            }
            step = .succeeded
        case false?: step = .failed(message: "Wrong password")
        case nil: step = .unavailable(reason: "crypt(3) cannot check the password hash")
        }
    }

    /// Nothing runs in the background, so there is nothing to stop.
    func cancel() {}
}

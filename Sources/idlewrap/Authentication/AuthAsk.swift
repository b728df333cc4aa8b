import PTYKit

/// The `ask` method: a lock password for this session only, asked on the
/// terminal before the command starts. Only its salted hash is kept.
enum AuthAsk {
    static let maximumRounds = 3

    static func makeAuthenticator(
        user: UserName, terminal: FileDescriptor, minimumLength: Int = 1
    ) throws(AuthenticationError) -> CryptAuthenticator {
        let password: SecretBuffer
        do {
            password = try PasswordPrompt(terminal: terminal).askNewPassword(
                "Lock password:", rounds: maximumRounds, minimumLength: minimumLength)
        } catch .differed {
            throw AuthenticationError(description: "the lock passwords differed \(maximumRounds) times; not starting")
        } catch {
            throw AuthenticationError(description: "no lock password set: \(error)")
        }
        defer { password.clear() }
        if let problem = PasswordHash.lengthProblem(with: password) {
            throw AuthenticationError(description: "\(problem); not starting")
        }
        do {
            return CryptAuthenticator(hash: try PasswordHash.make(for: password), user: user)
        } catch {
            throw AuthenticationError(description: "cannot hash the lock password: \(error)")
        }
    }
}

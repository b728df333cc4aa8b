import PTYKit

/// The `ask` method: a lock password for this session only, asked on the
/// terminal before the command starts. Only its salted hash is kept.
enum AuthAsk {
    static let maximumRounds = 3

    static func makeAuthenticator(user: UserName, terminal: FileDescriptor) throws(AuthSetupError) -> CryptAuthenticator {
        let prompt = PasswordPrompt(terminal: terminal)
        for _ in 0..<maximumRounds {
            let first = try ask(prompt, "Lock password:")
            let second = try ask(prompt, "Repeat password:")
            defer {
                first.clear()
                second.clear()
            }
            guard first.hasSameBytes(as: second) else {
                prompt.say("The passwords differ; try again.")
                continue
            }
            if let problem = PasswordHash.lengthProblem(with: first) {
                prompt.say("Not usable: \(problem); try again.")
                continue
            }
            do {
                return CryptAuthenticator(method: .ask, hash: try PasswordHash.make(for: first), user: user)
            } catch {
                throw AuthSetupError(description: "cannot hash the lock password: \(error)")
            }
        }
        throw AuthSetupError(description: "the lock passwords differed \(maximumRounds) times; not starting")
    }

    private static func ask(_ prompt: PasswordPrompt, _ text: String) throws(AuthSetupError) -> SecretBuffer {
        do {
            return try prompt.ask(text)
        } catch {
            throw AuthSetupError(description: "no lock password set: \(error)")
        }
    }
}

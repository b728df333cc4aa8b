/// The `file` method: attempts are checked against the crypt(3) hash stored
/// in the password file, read and checked once, before the command starts.
enum AuthFile {
    static func makeAuthenticator(
        passwordFile: String, user: UserName, shortPassword: ShortPasswordRule? = nil
    ) throws(AuthenticationError) -> CryptAuthenticator {
        CryptAuthenticator(hash: try PasswordFile.readHash(at: passwordFile), user: user, shortPassword: shortPassword)
    }
}

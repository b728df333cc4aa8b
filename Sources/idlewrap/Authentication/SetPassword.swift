import Glibc
import PTYKit

/// `idlewrap --set-password [FILE]`: asks for a password and stores its hash
/// in the password file for the `file` method.
enum SetPassword {
    /// `makingDirectories`: for the default file, whose directory may not exist yet.
    /// When `input` is a terminal, asks twice with echo off; otherwise reads
    /// one line from it (for scripts). A password shorter than `minimumLength`
    /// characters (site policy) is refused, and `refused` is told why. Returns the
    /// exit status: success when the hash was written, failure (with a message on
    /// stderr) when nothing was.
    static func run(
        file: String, makingDirectories: Bool = true, input: FileDescriptor, quiet: Bool, minimumLength: Int = 1,
        refused: (String) -> Void = { _ in }
    ) -> Int32 {
        do throws(AuthenticationError) {
            let secret = input.isTerminal ? try askTwice(on: input) : try readLine(from: input)
            defer { secret.clear() }
            if let problem = PasswordHash.lengthProblem(with: secret) {
                throw AuthenticationError(description: "\(problem); nothing written")
            }
            if secret.withBytes({ characterCount(ofUTF8: $0) }) < minimumLength {
                refused("refused --set-password: shorter than min-password-length \(minimumLength)")
                throw AuthenticationError(
                    description: "\(PasswordPrompt.Failure.tooShort(minimumLength)); nothing written")
            }
            let hash: String
            do {
                hash = try PasswordHash.make(for: secret)
            } catch {
                throw AuthenticationError(description: "cannot hash the password: \(error)")
            }
            try PasswordFile.write(hash: hash, to: file, makingDirectories: makingDirectories)
        } catch {
            Diagnostics.error(error.description)
            return ExitStatus.failure
        }
        Diagnostics.notice("password hash written to \(file)", quiet: quiet)
        // Written, but a later start would refuse it: say why now.
        do {
            _ = try PasswordFile.readHash(at: file)
        } catch {
            Diagnostics.error("warning: \(error)")
        }
        return ExitStatus.success
    }

    private static func askTwice(on terminal: FileDescriptor) throws(AuthenticationError) -> SecretBuffer {
        do {
            // Asked with no minimum, so that a short password is refused below, in one place.
            return try PasswordPrompt(terminal: terminal).askNewPassword("New password:", rounds: 1)
        } catch .differed {
            throw AuthenticationError(description: "the passwords differ; nothing written")
        } catch {
            throw AuthenticationError(description: "no password set: \(error)")
        }
    }

    /// One line, without its line break, read a byte at a time so that no
    /// copy of it is left in an intermediate buffer.
    private static func readLine(from input: FileDescriptor) throws(AuthenticationError) -> SecretBuffer {
        // A longer line is refused whole, never cut down to a prefix.
        let secret = SecretBuffer(capacity: PasswordLineEditor.maximumLength)
        var byte: UInt8 = 0
        defer { explicit_bzero(&byte, 1) }
        while true {
            let count: Int
            do {
                count = try withUnsafeMutableBytes(of: &byte) { (buffer) throws(Errno) in
                    try input.read(into: buffer)
                }
            } catch {
                secret.clear()
                throw AuthenticationError(description: "cannot read the password from standard input: \(error)")
            }
            if count == 0 || byte == UInt8(ascii: "\n") { break }
            guard secret.append(byte) else {
                secret.clear()
                throw AuthenticationError(
                    description: "the password is longer than \(PasswordHash.longestPassword) bytes; nothing written")
            }
        }
        if secret.last == UInt8(ascii: "\r") { secret.removeLast() }
        let typeable = secret.withBytes { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 != 0x7F } }
        guard typeable else {
            secret.clear()
            throw AuthenticationError(
                description:
                    "the password contains a control character, which the lock screen cannot take; nothing written")
        }
        guard !secret.isEmpty else {
            throw AuthenticationError(description: "empty password; nothing written")
        }
        return secret
    }
}

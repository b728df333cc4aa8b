import CAuthShims
import Glibc
import PTYKit

/// crypt(3) password hashes through libxcrypt: making one for a new password,
/// checking a password against one, and telling whether a stored string is
/// one libcrypt can use.
enum PasswordHash {
    /// Salt prefixes to hash new passwords with, best first: yescrypt, and
    /// sha512-crypt where this libcrypt has yescrypt disabled.
    static let preferredPrefixes = ["$y$", "$6$"]

    /// libcrypt hashes passphrases of at most this many bytes (its buffer
    /// holds 512 with the NUL) and fails with ERANGE on longer ones.
    static let longestPassword = Int(CRYPT_MAX_PASSPHRASE_SIZE) - 1

    /// Why `secret` cannot be a password, or nil when it can.
    static func lengthProblem(with secret: SecretBuffer) -> String? {
        secret.count > longestPassword ? "the password is longer than \(longestPassword) bytes" : nil
    }

    /// A new salted hash of `secret`, with the first method this libcrypt
    /// supports.
    static func make(for secret: SecretBuffer) throws(Errno) -> String {
        var lastError = Errno(rawValue: EINVAL)
        for prefix in preferredPrefixes {
            do {
                return try make(for: secret, saltPrefix: prefix)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    /// A new hash of `secret` with the method that `saltPrefix` (e.g. "$6$")
    /// names, at its default cost, salted from the system's random source.
    static func make(for secret: SecretBuffer, saltPrefix: String) throws(Errno) -> String {
        try crypt(secret, setting: try CryptCalls.newSetting(prefix: saltPrefix))
    }

    /// Whether `secret` is the password `hash` was made from; nil when crypt
    /// cannot evaluate `hash` at all.
    static func matches(_ secret: SecretBuffer, hash: String) -> Bool? {
        // No hash is ever made from a longer one (`make` would fail), so it is
        // a wrong password, not a check that cannot run.
        if lengthProblem(with: secret) != nil { return false }
        guard let computed = try? crypt(secret, setting: hash) else { return nil }
        return constantTimeEqual(computed.utf8, hash.utf8)
    }

    /// Why `hash` is not a usable crypt(3) hash, or nil when it is.
    /// `checkSalt` is libcrypt's own rating, nil where libcrypt has none.
    static func problem(with hash: String, checkSalt: (String) -> Int32? = CryptCalls.checkSalt) -> String? {
        // Traditional DES hashes (no `$` prefix) are refused: any two letters
        // pass as their salt, so a password stored in plain text would be
        // taken for a hash that nothing matches.
        guard hash.hasPrefix("$") else { return "it does not start with a $method$ prefix" }
        switch checkSalt(hash) {
        case Int32(CRYPT_SALT_OK), Int32(CRYPT_SALT_METHOD_LEGACY), Int32(CRYPT_SALT_TOO_CHEAP):
            break
        case Int32(CRYPT_SALT_METHOD_DISABLED):
            return "its hashing method is disabled in this system's libcrypt"
        case nil:
            // libxcrypt before 4.3: a new setting for the hash's method (found,
            // as crypt finds it, by the hash's prefix) is made only if this
            // libcrypt has the method enabled. No hashing, so no cost.
            guard (try? CryptCalls.newSetting(prefix: hash)) != nil else {
                return "it is not a hash that this system's libcrypt supports"
            }
        default:
            return "it is not a hash that libcrypt supports"
        }
        // A whole hash is its setting plus a checksum of fixed length, which
        // catches truncated and padded hashes. For the common methods the
        // length is known; checking it costs nothing, where hashing (yescrypt:
        // ~30 ms and 16 MiB) would be paid by every start. Another method is
        // never hashed to learn its shape: the file sets the cost, and a huge
        // one would hang every start.
        let checksum = hash[hash.index(after: hash.lastIndex(of: "$")!)...]
        let length = checksumLength(of: hash)
        guard checksum.utf8.allSatisfy(isHashCharacter), length.map({ checksum.utf8.count == $0 }) ?? !checksum.isEmpty
        else { return "it is incomplete or damaged" }
        return nil
    }

    private static func crypt(_ secret: SecretBuffer, setting: String) throws(Errno) -> String {
        // Large (32 KiB) and holding intermediate state derived from the
        // password: on the heap, zeroed after use.
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        defer {
            explicit_bzero(data, MemoryLayout<crypt_data>.size)
            data.deallocate()
        }
        return try secret.withCString { (phrase) throws(Errno) in
            try CryptCalls.hash(phrase, setting: setting, scratch: data)
        }
    }

    /// The length of the part after the last `$` for methods whose
    /// checksum length is fixed (bcrypt's salt shares that part).
    private static func checksumLength(of hash: String) -> Int? {
        let lengths: [(prefix: String, length: Int)] = [
            ("$y$", 43), ("$gy$", 43), ("$7$", 43), ("$6$", 86), ("$5$", 43), ("$1$", 22),
            ("$2b$", 53), ("$2a$", 53), ("$2y$", 53), ("$sha1$", 28),
        ]
        return lengths.first { hash.hasPrefix($0.prefix) }?.length
    }

    /// crypt(3)'s base-64 alphabet.
    private static func isHashCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
            return true
        default:
            return false
        }
    }

    /// Everything up to the last `$`: the method, parameters and salt.
    private static func setting(of hash: String) -> Substring {
        hash[..<(hash.lastIndex(of: "$") ?? hash.startIndex)]
    }
}

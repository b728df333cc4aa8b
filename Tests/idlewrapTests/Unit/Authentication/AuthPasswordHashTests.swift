import CAuthShims
import Testing

@testable import TestSupport
@testable import idlewrap

@Suite struct AuthPasswordHashTests {
    /// Made by `openssl passwd`, not by idlewrap: "correct horse".
    static let sha512 =
        "$6$idlewraptest$tlZNzy7TCOUVns1KFHpeFMawJIzwn33BtYHR6ZyofXV7B0KhOHCBUQa93KVChs525mg5ocWahfzJPuOYD27EC."
    static let sha256 = "$5$idlewraptest$h/wBrswgbsiqjEu2vuqEMFsbflw3SeieBbWDEjcv/9/"
    static let md5 = "$1$idlewrap$bJop55Ip2Wymt4xpDGvbC/"

    @Test(arguments: [sha512, sha256, md5])
    func checksHashesMadeElsewhere(_ hash: String) {
        #expect(PasswordHash.problem(with: hash) == nil)
        #expect(PasswordHash.matches(secret("correct horse"), hash: hash) == true)
        #expect(PasswordHash.matches(secret("correct horsE"), hash: hash) == false)
        #expect(PasswordHash.matches(secret(""), hash: hash) == false)
    }

    @Test func makesSaltedYescryptHashes() throws {
        let first = try PasswordHash.make(for: secret("correct horse"))
        let second = try PasswordHash.make(for: secret("correct horse"))
        #expect(first.hasPrefix("$y$"))
        #expect(first != second, "each hash has its own salt")
        #expect(PasswordHash.problem(with: first) == nil)
        #expect(PasswordHash.matches(secret("correct horse"), hash: first) == true)
        #expect(PasswordHash.matches(secret("correct horse"), hash: second) == true)
        #expect(PasswordHash.matches(secret("wrong horse"), hash: first) == false)
    }

    @Test func makesSha512HashesWhenAsked() throws {
        let hash = try PasswordHash.make(for: secret("pässwörd"), saltPrefix: "$6$")
        #expect(hash.hasPrefix("$6$"))
        #expect(PasswordHash.matches(secret("pässwörd"), hash: hash) == true)
    }

    @Test(arguments: [
        "", "hunter2", "ab01234567890", "$q$nonsense", "$y$", "$6$",
        String(sha512.dropLast(4)), sha512 + "AAAA", "$6$idlewraptest",
    ])
    func refusesWhatIsNotAWholeHash(_ text: String) {
        #expect(PasswordHash.problem(with: text) != nil)
    }

    /// libxcrypt before 4.3 (RHEL 8 has 4.1) has no crypt_checksalt: the same
    /// hashes pass and fail by what the method's salt generator accepts.
    @Test func withoutCheckSaltTheSameHashesPassAndFail() throws {
        let older: (String) -> Int32? = { _ in nil }
        let yescrypt = try PasswordHash.make(for: secret("correct horse"))
        for hash in [Self.sha512, Self.sha256, Self.md5, yescrypt] {
            #expect(PasswordHash.problem(with: hash, checkSalt: older) == nil, "\(hash)")
        }
        for text in ["", "hunter2", "$q$nonsense", "$y$", "$6$", String(Self.sha512.dropLast(4)), "$6$idlewraptest"] {
            #expect(PasswordHash.problem(with: text, checkSalt: older) != nil, "\(text)")
        }
        #expect(
            PasswordHash.problem(with: "$q$" + String(repeating: "A", count: 43), checkSalt: older)
                == "it is not a hash that this system's libcrypt supports")
    }

    @Test func checkSaltIsFoundWhereLibcryptHasIt() {
        // This machine's libxcrypt is 4.3 or later (the build's header declares crypt_checksalt).
        #expect(CryptCalls.checkSalt(Self.sha512) == Int32(CRYPT_SALT_OK))
        #expect(CryptCalls.checkSalt("$q$nonsense") == Int32(CRYPT_SALT_INVALID))
    }

    /// Found by the password-file fuzz target: a method whose checksum length is not
    /// known used to be hashed to learn its shape, at the cost the file sets (minutes).
    @Test(.timeLimit(.minutes(1)))
    func aHugeCostIsNeverPaidToCheckTheShape() {
        let costly = "$sha1$4294967295$idlewrap$" + String(repeating: "A", count: 28)
        #expect(PasswordHash.problem(with: costly) == nil)
        #expect(PasswordHash.problem(with: "$sha1$4294967295$idlewrap$") != nil)
    }
}

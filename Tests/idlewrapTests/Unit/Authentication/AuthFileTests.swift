import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

@Suite struct AuthFileTests {
    func setup(
        method: AuthMethod?, passwordFile: String?, environment: [String: String] = [:]
    ) throws(AuthenticationError) -> Authenticator {
        try AuthSetup.makeAuthenticator(
            method: method, passwordFile: passwordFile, pamService: "idlewrap", pamConfigDirectory: nil,
            user: "alice", terminal: .standardInput, environment: { environment[$0] })
    }

    func attempt(_ authenticator: Authenticator, _ password: String) -> AuthStep {
        let conversation = authenticator.beginAttempt()
        #expect(conversation.currentStep() == .asking(prompt: "Password for alice:"))
        conversation.answer(secret(password))
        #expect(conversation.takeNotices().isEmpty)
        return conversation.currentStep()
    }

    @Test func setPasswordThenUnlock() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("password")
        let pipe = try pipeHolding("correct horse\n")
        defer { try? pipe.close() }
        try #require(SetPassword.run(file: path, input: pipe, quiet: true) == 0)
        let authenticator = try setup(method: .file, passwordFile: path)
        #expect(authenticator is CryptAuthenticator)
        #expect(attempt(authenticator, "correct horse") == .succeeded)
        #expect(attempt(authenticator, "correct hörse") == .failed(message: "Wrong password"))
        #expect(attempt(authenticator, "correct horse ") == .failed(message: "Wrong password"))
    }

    @Test func acceptsASha512HashMadeElsewhere() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("password", AuthPasswordHashTests.sha512 + "\n")
        let authenticator = try setup(method: .file, passwordFile: path)
        #expect(attempt(authenticator, "correct horse") == .succeeded)
        #expect(attempt(authenticator, "wrong horse") == .failed(message: "Wrong password"))
    }

    @Test func answersOnlyTheQuestion() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("password", AuthPasswordHashTests.sha512 + "\n")
        let conversation = try setup(method: .file, passwordFile: path).beginAttempt()
        conversation.answer(secret("wrong"))
        conversation.answer(secret("correct horse"))
        #expect(conversation.currentStep() == .failed(message: "Wrong password"), "one attempt, one answer")
    }

    @Test func reportsAnUnsafeFileAtSetup() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("password", AuthPasswordHashTests.sha512 + "\n", mode: 0o660)
        #expect(throws: AuthenticationError.self) { try setup(method: .file, passwordFile: path) }
        #expect(throws: AuthenticationError.self) { try setup(method: nil, passwordFile: path) }
    }

    @Test func defaultsToTheFileWhenTheDefaultFileExists() throws {
        let directory = try TemporaryDirectory()
        try #require(mkdir(directory.file("idlewrap"), 0o700) == 0)
        try directory.write("idlewrap/password", AuthPasswordHashTests.sha512 + "\n")
        let authenticator = try setup(method: nil, passwordFile: nil, environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(authenticator is CryptAuthenticator)
        #expect(attempt(authenticator, "correct horse") == .succeeded)
    }

    @Test func defaultsToPAMWithoutAFile() throws {
        let directory = try TemporaryDirectory()
        // A stack whose account phase lets alice (no such account here) in.
        try directory.write("idlewrap", "auth required pam_unix.so\naccount required pam_permit.so\n")
        let authenticator = try AuthSetup.makeAuthenticator(
            method: nil, passwordFile: nil, pamService: "idlewrap", pamConfigDirectory: directory.path,
            user: "alice", terminal: .standardInput, environment: { ["HOME": directory.path][$0] })
        #expect(authenticator is PAMAuthenticator, "libpam.so.0 is installed here")
    }

    @Test func theFileMethodNeedsAFile() throws {
        #expect(throws: AuthenticationError.self) { try setup(method: .file, passwordFile: nil) }
        let directory = try TemporaryDirectory()
        #expect(throws: AuthenticationError.self) { try setup(method: .file, passwordFile: directory.file("absent")) }
    }

    @Test func defaultPasswordFile() {
        func path(_ environment: [String: String]) -> String? {
            AuthSetup.defaultPasswordFile(environment: { environment[$0] })
        }
        #expect(path(["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/a"]) == "/x/config/idlewrap/password")
        #expect(path(["XDG_CONFIG_HOME": "relative", "HOME": "/home/a"]) == "/home/a/.config/idlewrap/password")
        #expect(path(["XDG_CONFIG_HOME": "", "HOME": "/home/a"]) == "/home/a/.config/idlewrap/password")
        #expect(path(["HOME": "/home/a"]) == "/home/a/.config/idlewrap/password")
        #expect(path(["HOME": ""]) == nil)
        #expect(path([:]) == nil)
    }
}

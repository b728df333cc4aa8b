import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

@Suite(.timeLimit(.minutes(1)))
struct AuthAskTests {
    /// Starts `ask` setup on `terminal` in the background, as idlewrap does
    /// before the command runs.
    func startSetup(on terminal: TestTerminal) throws -> Joinable<Result<Authenticator, AuthenticationError>> {
        let replica = terminal.replica
        return try startThread {
            Result { () throws(AuthenticationError) in
                try AuthSetup.makeAuthenticator(
                    method: .ask, passwordFile: nil, pamService: "idlewrap", pamConfigDirectory: nil,
                    user: "alice", terminal: replica, environment: { _ in nil })
            }
        }
    }

    func attempt(_ authenticator: Authenticator, _ password: String) -> AuthStep {
        let conversation = authenticator.beginAttempt()
        #expect(conversation.currentStep() == .asking(prompt: "Password for alice:"))
        #expect(conversation.readiness == nil)
        let answer = secret(password)
        conversation.answer(answer)
        answer.clear()
        return conversation.currentStep()
    }

    @Test func asksTwiceWithEchoOffAndChecksAttempts() throws {
        let terminal = try TestTerminal()
        let setup = try startSetup(on: terminal)
        defer {
            terminal.hangUp()
            _ = setup.value()
        }
        try terminal.waitFor("Lock password: ")
        #expect(terminal.localModes & tcflag_t(ECHO) == 0)
        try terminal.type("lock me\r")
        try terminal.waitFor("Repeat password: ")
        #expect(terminal.localModes & tcflag_t(ECHO) == 0)
        try terminal.type("lock me\r")
        let authenticator = try setup.value().get()
        #expect(!terminal.transcript.contains("lock me"))
        #expect(terminal.localModes & tcflag_t(ECHO) != 0, "echo is restored")
        #expect(authenticator is CryptAuthenticator)
        #expect(attempt(authenticator, "lock me") == .succeeded)
        #expect(attempt(authenticator, "lock you") == .failed(message: "Wrong password"))
    }

    @Test func asksAgainWhenTheTwoDiffer() throws {
        let terminal = try TestTerminal()
        let setup = try startSetup(on: terminal)
        defer {
            terminal.hangUp()
            _ = setup.value()
        }
        try terminal.waitFor("Lock password: ")
        try terminal.type("first\r")
        try terminal.waitFor("Repeat password: ")
        try terminal.type("second\r")
        try terminal.waitFor("The passwords differ; try again.")
        try terminal.waitFor("Lock password: ")
        try terminal.type("third\r")
        try terminal.waitFor("Repeat password: ")
        try terminal.type("third\r")
        let authenticator = try setup.value().get()
        #expect(attempt(authenticator, "third") == .succeeded)
        #expect(attempt(authenticator, "first") == .failed(message: "Wrong password"))
    }

    @Test func refusesAPasswordLongerThanLibcryptTakes() throws {
        let terminal = try TestTerminal()
        let setup = try startSetup(on: terminal)
        defer {
            terminal.hangUp()
            _ = setup.value()
        }
        let tooLong = String(repeating: "x", count: 600)
        try terminal.waitFor("Lock password: ")
        try terminal.type(tooLong + "\r")
        try terminal.waitFor("Repeat password: ")
        try terminal.type(tooLong + "\r")
        #expect(throws: AuthenticationError(description: "the password is longer than 511 bytes; not starting")) {
            try setup.value().get()
        }
    }

    @Test func givesUpAfterThreeMismatches() throws {
        let terminal = try TestTerminal()
        let setup = try startSetup(on: terminal)
        defer {
            terminal.hangUp()
            _ = setup.value()
        }
        for round in 1...3 {
            try terminal.waitFor("Lock password: ")
            try terminal.type("a\(round)\r")
            try terminal.waitFor("Repeat password: ")
            try terminal.type("b\(round)\r")
            if round < 3 {
                try terminal.waitFor("try again.")
            }
        }
        #expect(throws: AuthenticationError(description: "the lock passwords differed 3 times; not starting")) {
            try setup.value().get()
        }
    }

    @Test func controlCCancelsAndRestoresTheTerminal() throws {
        let terminal = try TestTerminal()
        let setup = try startSetup(on: terminal)
        defer {
            terminal.hangUp()
            _ = setup.value()
        }
        try terminal.waitFor("Lock password: ")
        try terminal.type("abc\u{03}")
        #expect(throws: AuthenticationError(description: "no lock password set: cancelled")) {
            try setup.value().get()
        }
        #expect(terminal.localModes & tcflag_t(ECHO | ICANON | ISIG) == tcflag_t(ECHO | ICANON | ISIG))
    }
}

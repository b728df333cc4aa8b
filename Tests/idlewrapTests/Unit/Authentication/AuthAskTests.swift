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

    /// Runs `body` with `ask` set up on a new terminal in the background; the terminal is
    /// hung up and the set-up's thread joined on every way out.
    func withSetup(
        _ body: (TestTerminal, Joinable<Result<Authenticator, AuthenticationError>>) throws -> Void
    ) throws {
        let terminal = try TestTerminal()
        let setup = try startSetup(on: terminal)
        defer {
            terminal.hangUp()
            _ = setup.value()
        }
        try body(terminal, setup)
    }

    /// Types `first` at "Lock password: " and `second` at "Repeat password: ".
    func enter(_ first: String, then second: String, on terminal: TestTerminal) throws {
        try terminal.waitFor("Lock password: ")
        try terminal.type(first + "\r")
        try terminal.waitFor("Repeat password: ")
        try terminal.type(second + "\r")
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
        try withSetup { terminal, setup in
            try terminal.answerWithoutEcho("Lock password: ", "lock me")
            try terminal.answerWithoutEcho("Repeat password: ", "lock me")
            let authenticator = try setup.value().get()
            #expect(!terminal.transcript.contains("lock me"))
            #expect(terminal.localModes & tcflag_t(ECHO) != 0, "echo is restored")
            #expect(authenticator is CryptAuthenticator)
            #expect(attempt(authenticator, "lock me") == .succeeded)
            #expect(attempt(authenticator, "lock you") == .failed(message: "Wrong password"))
        }
    }

    @Test func asksAgainWhenTheTwoDiffer() throws {
        try withSetup { terminal, setup in
            try enter("first", then: "second", on: terminal)
            try terminal.waitFor("The passwords differ; try again.")
            try enter("third", then: "third", on: terminal)
            let authenticator = try setup.value().get()
            #expect(attempt(authenticator, "third") == .succeeded)
            #expect(attempt(authenticator, "first") == .failed(message: "Wrong password"))
        }
    }

    @Test func refusesAPasswordLongerThanLibcryptTakes() throws {
        try withSetup { terminal, setup in
            let tooLong = String(repeating: "x", count: 600)
            try enter(tooLong, then: tooLong, on: terminal)
            #expect(throws: AuthenticationError(description: "the password is longer than 511 bytes; not starting")) {
                try setup.value().get()
            }
        }
    }

    @Test func givesUpAfterThreeMismatches() throws {
        try withSetup { terminal, setup in
            for round in 1...3 {
                try enter("a\(round)", then: "b\(round)", on: terminal)
                if round < 3 {
                    try terminal.waitFor("try again.")
                }
            }
            #expect(throws: AuthenticationError(description: "the lock passwords differed 3 times; not starting")) {
                try setup.value().get()
            }
        }
    }

    @Test func controlCCancelsAndRestoresTheTerminal() throws {
        try withSetup { terminal, setup in
            try terminal.waitFor("Lock password: ")
            try terminal.type("abc\u{03}")
            #expect(throws: AuthenticationError(description: "no lock password set: cancelled")) {
                try setup.value().get()
            }
            #expect(terminal.localModes & tcflag_t(ECHO | ICANON | ISIG) == tcflag_t(ECHO | ICANON | ISIG))
        }
    }
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

@Suite(.timeLimit(.minutes(1)))
struct SetPasswordTests {
    func storedHashMatches(_ path: String, _ password: String) throws -> Bool {
        let hash = try PasswordFile.readHash(at: path)
        return PasswordHash.matches(secret(password), hash: hash) == true
    }

    @Test(arguments: ["correct horse\n", "correct horse\r\n", "correct horse", "correct horse\nignored\n"])
    func readsOneLineFromAPipe(_ input: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("idlewrap/password")
        let pipe = try pipeHolding(input)
        defer { try? pipe.close() }
        #expect(SetPassword.run(file: path, input: pipe, quiet: true) == 0)
        #expect(try fileStatus(path).st_mode & 0o7777 == 0o600)
        #expect(try readFile(path).hasPrefix("$y$"))
        #expect(try storedHashMatches(path, "correct horse"))
        #expect(try !storedHashMatches(path, "correct horse\n"))
    }

    @Test(arguments: ["", "\n", "\r\n", "tab\there\n", String(repeating: "x", count: 513) + "\n"])
    func writesNothingForAnUnusablePassword(_ input: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("password")
        let pipe = try pipeHolding(input)
        defer { try? pipe.close() }
        #expect(SetPassword.run(file: path, input: pipe, quiet: true) == 125)
        var info = stat()
        #expect(lstat(path, &info) == -1)
    }

    @Test func keepsTheOldFileWhenNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("password", AuthPasswordHashTests.sha512 + "\n")
        let pipe = try pipeHolding("\n")
        defer { try? pipe.close() }
        #expect(SetPassword.run(file: path, input: pipe, quiet: true) == 125)
        #expect(try readFile(path) == AuthPasswordHashTests.sha512 + "\n")
    }

    /// Runs `body` with `--set-password` of a new password file (its path) asking on a new
    /// terminal in the background; the terminal is hung up and the thread joined on every
    /// way out.
    func withSetPassword(_ body: (String, TestTerminal, Joinable<Int32>) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("password")
        let terminal = try TestTerminal()
        let input = terminal.replica
        let status = try startThread { SetPassword.run(file: path, input: input, quiet: true) }
        defer {
            terminal.hangUp()
            _ = status.value()
        }
        try body(path, terminal, status)
    }

    @Test func asksTwiceWithoutEchoOnATerminal() throws {
        try withSetPassword { path, terminal, status in
            try terminal.answerWithoutEcho("New password: ", "tty secret")
            try terminal.answerWithoutEcho("Repeat password: ", "tty secret")
            #expect(status.value() == 0)
            #expect(!terminal.transcript.contains("tty secret"))
            #expect(terminal.localModes & tcflag_t(ECHO) != 0, "echo is restored")
            #expect(try storedHashMatches(path, "tty secret"))
        }
    }

    @Test func writesNothingWhenTheTwoAnswersDiffer() throws {
        try withSetPassword { path, terminal, status in
            try terminal.waitFor("New password: ")
            try terminal.type("one\r")
            try terminal.waitFor("Repeat password: ")
            try terminal.type("two\r")
            #expect(status.value() == 125)
            var info = stat()
            #expect(lstat(path, &info) == -1)
        }
    }

    @Test func controlCCancels() throws {
        try withSetPassword { path, terminal, status in
            try terminal.waitFor("New password: ")
            try terminal.type("half\u{03}")
            #expect(status.value() == 125)
            #expect(terminal.localModes & tcflag_t(ECHO) != 0, "echo is restored")
            var info = stat()
            #expect(lstat(path, &info) == -1)
        }
    }
}

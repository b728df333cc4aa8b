import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// libcrypt takes passwords of at most 511 bytes: longer ones are refused
    /// when set and are wrong passwords at the lock screen.
    @Suite struct PasswordLength {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        @Test(arguments: [512, 600, 5000])
        func setPasswordRefusesOverLongInputFromAPipe(length: Int) throws {
            let path = directory.file("password")
            let setter = try TerminalDriver([
                "sh", "-c", "printf '%s\\n' \"$1\" | \"$0\" --set-password \"$2\"", TerminalDriver.idlewrap,
                String(repeating: "a", count: length), path,
            ])
            #expect(setter.waitForExit() == .exited(125))
            #expect(setter.hasShown("idlewrap: the password is longer than 511 bytes; nothing written"))
            #expect(access(path, F_OK) != 0)
        }

        @Test func setPasswordTakesTheLongestPassword() throws {
            let password = String(repeating: "b", count: 511)
            let path = try makePasswordFile(in: directory, password: password)
            let terminal = try TerminalDriver(idlewrap: [
                "--password-file", path, "-t", "0", "--", "sh", "-c", "echo ready; exec sleep 1000",
            ])
            #expect(terminal.expect("ready"))
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            try terminal.type(password + "\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
        }

        @Test func setPasswordOnATerminalRefusesOverLongInput() throws {
            let path = directory.file("password")
            let setter = try TerminalDriver(idlewrap: ["--set-password", path])
            let password = String(repeating: "c", count: 600)
            #expect(setter.expect("New password:"))
            try setter.type(password + "\r")
            #expect(setter.expect("Repeat password:"))
            try setter.type(password + "\r")
            #expect(setter.waitForExit() == .exited(125))
            #expect(setter.hasShown("the password is longer than 511 bytes; nothing written"))
            #expect(access(path, F_OK) != 0)
        }

        @Test(arguments: [512, 2000])
        func overLongTypedPasswordIsAWrongPassword(length: Int) throws {
            let path = try makePasswordFile(in: directory)
            let terminal = try TerminalDriver(idlewrap: [
                "--password-file", path, "-t", "0", "--", "sh", "-c", "echo ready; exec sleep 1000",
            ])
            #expect(terminal.expect("ready"))
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            // A password that starts right and goes on: never a match.
            try terminal.type("open sesame" + String(repeating: "d", count: length) + "\r")
            #expect(terminal.expect("Wrong password"))
            #expect(!terminal.hasShown("cannot check"))
            #expect(terminal.expect("Password for"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
        }
    }
}

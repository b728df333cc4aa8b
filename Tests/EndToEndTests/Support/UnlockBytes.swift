import Glibc
import Testing

@testable import TestSupport

/// The bytes idlewrap writes to the terminal at the unlock of `command`, run with a
/// password file in `directory`; the command prints `ready` when it has drawn.
func unlockBytes(of command: String, in directory: TemporaryDirectory) throws -> String {
    let password = try makePasswordFile(in: directory)
    let terminal = try TerminalDriver(idlewrap: [
        "--password-file", password, "-t", "0", "--", "sh", "-c", command + "; printf 'ready'; exec cat",
    ])
    #expect(terminal.expect("ready"))
    #expect(terminal.waitForAttributes { !$0.isCanonical })
    terminal.signal(SIGUSR1)
    #expect(terminal.expect("Password for"))
    let before = terminal.transcript.count
    try terminal.type("open sesame\r")
    #expect(terminal.expect("\u{1b}[?2026l"))
    return String(decoding: terminal.transcript[before...], as: UTF8.self)
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd.DetachTake {
    /// The terminal idlewrap started on goes back to the shell that started it as soon as
    /// another terminal takes the session (`--take`): idlewrap there exits 129 and the
    /// shell reads the next line, its terminal as it was, while the session goes on for the
    /// taker under its session process's pid (its socket for --list, --lock-all and a
    /// signal; IDLEWRAP_PID still names the guardian for an idlewrap started inside), and
    /// the taker's hang-up detaches it as ever.
    @Test func theFirstTerminalGoesBackToItsShellAtOnce() throws {
        // A's shell runs idlewrap, says how it ended, and reads a line itself.
        let script = "\"$0\" \"$@\"; echo \"idlewrap exited $?\"; read -r line; echo \"the shell read $line\""
        let first = try user.setprivTerminal(
            ["sh", "-c", script, user.idlewrap, "--auth", "ask", "--detach", "hangup", "-t", "0", "--", "sh"])
        for prompt in ["Lock password:", "Repeat password:"] {
            try #require(first.expect(prompt), "\(first.text)")
            try first.type("open sesame\r")
        }
        try #require(first.expect("$ "), "\(first.text)")
        try first.type("echo \"star\"\"ted\"\r")
        try #require(first.expect("started"), "\(first.text)")
        let pid = try child(of: first.process.pid)
        let process = try child(of: pid)
        try #require(first.waitUntil { access("\(user.runtimeDirectory)/\(pid)", F_OK) == 0 }, "no socket")

        let second = try take(pid: pid)
        let taken = MonotonicInstant.now()
        #expect(first.expect("idlewrap exited 129", timeout: 20), "\(first.text)")
        // At once, not at the session's end: the bound is only the shared machine's.
        let seconds = (MonotonicInstant.now() - taken).inSeconds
        #expect(seconds < 10, "idlewrap exited \(seconds) s after the take began")
        #expect(first.hasShown("idlewrap: this session was taken over by another terminal"))
        #expect(first.waitForAttributes { sameSettings($0, first.initialAttributes) }, "A is left raw")
        try first.type("mine\r")
        #expect(first.expect("the shell read mine"), "\(first.text)")
        #expect(first.waitForExit() == .exited(0))
        #expect(access("/proc/\(process)", F_OK) == 0, "the session ended with its guardian")

        #expect(second.expect("Password for \(user.name):"), "\(second.text)")
        try second.type("open sesame\r")
        #expect(second.expect("\u{1b}[?1049l"), "\(second.text)")
        try second.type("echo \"tak\"\"er $IDLEWRAP_PID\"\r")
        #expect(second.expect("taker \(pid)"), "\(second.text)")
        // IDLEWRAP_PID names no process now; the session process is checked instead.
        try second.type("\(user.idlewrap) --auth ask -- true\r")
        #expect(second.expect("already wrapped"), "\(second.text)")
        // The guardian's pid may come back for a new idlewrap, which would register over a
        // socket still named by it and hide this session: the session process names it now.
        #expect(access("\(user.runtimeDirectory)/\(pid)", F_OK) != 0, "still named by the guardian's pid")
        let list = try user.runToEnd([user.idlewrap, "--list"])
        #expect(list.status == .exited(0) && list.text.contains("\(process)"), "\(list.text)")
        let lockAll = try user.runToEnd([user.idlewrap, "--lock-all"])
        #expect(lockAll.status == .exited(0), "\(lockAll.text)")
        #expect(second.expect("Password for \(user.name):"), "\(second.text)")
        try second.type("open sesame\r")
        #expect(second.expect("\u{1b}[?1049l"), "\(second.text)")
        // The pid --list shows is a process that a signal reaches.
        kill(process, SIGUSR1)
        #expect(second.expect("Password for \(user.name):"), "\(second.text)")
        let rootList = TestUser.result(of: [TerminalDriver.idlewrap, "--list", "--user", user.name])
        #expect(rootList.status == .exited(0) && rootList.text.contains("\(process)"), "\(rootList.text)")

        // The taker hangs up (its client gets the SIGHUP): the session detaches, and a
        // plain --attach takes it back.
        second.signal(SIGHUP)
        #expect(second.waitForExit(timeout: 60) == .exited(129), "\(second.text)")
        #expect(
            TerminalDriver.waitFor {
                (try? user.runToEnd([user.idlewrap, "--list"]))?.text.contains("detached") == true
            },
            "the session does not detach")
        let third = try user.setprivTerminal([user.idlewrap, "--attach"])
        #expect(third.expect("Password for \(user.name):"), "\(third.text)")
        try third.type("open sesame\r")
        #expect(third.expect("\u{1b}[?1049l"), "\(third.text)")
        try third.type("echo \"thi\"\"rd\"\r")
        #expect(third.expect("third"), "\(third.text)")
        end(pid, process: process, attached: third)
    }
}

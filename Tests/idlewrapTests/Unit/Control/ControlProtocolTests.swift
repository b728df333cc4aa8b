import Testing

@testable import idlewrap

@Suite("The control socket's requests and replies")
struct ControlProtocolTests {
    private func parse(_ text: String) -> ControlRequest.Parsed {
        ControlRequest.parse(Array(text.utf8))
    }

    @Test("a request is a known word and a newline")
    func requests() {
        #expect(parse("status\n") == .request(.status))
        #expect(parse("lock\n") == .request(.lock))
        #expect(ControlRequest.lock.line == "lock\n")
    }

    @Test("a request without its newline waits for more, until it is too long")
    func incomplete() {
        #expect(parse("") == .incomplete)
        #expect(parse("sta") == .incomplete)
        #expect(parse("lock") == .incomplete)
        #expect(parse(String(repeating: "x", count: ControlRequest.maximumLength - 1)) == .incomplete)
        #expect(parse(String(repeating: "x", count: ControlRequest.maximumLength)) == .invalid)
    }

    @Test("anything else is invalid: no unlock, no extra words, nothing after the line")
    func invalid() {
        for text in [
            "unlock\n", "LOCK\n", "lock \n", " lock\n", "lock\r\n", "lock now\n", "\n", "lock\nlock\n", "status\nx",
            "lock\u{0}\n",
        ] {
            #expect(parse(text) == .invalid, "\(text.debugDescription)")
        }
    }

    private let sample = SessionStatus(
        pid: 4242, terminal: "/dev/pts/7", user: "alice", command: "vim", idleSeconds: 75, locked: false,
        locksInSeconds: 225)

    @Test("a status reply is key-value lines, and reads back as it was")
    func statusReply() {
        #expect(
            sample.reply
                == "pid 4242\nterminal /dev/pts/7\nuser alice\ncommand vim\nidle 75\nstate unlocked\nlocks-in 225\n")
        #expect(SessionStatus(reply: sample.reply) == sample)
        var locked = sample
        locked.locked = true
        locked.locksInSeconds = nil
        #expect(locked.reply.hasSuffix("state locked\nlocks-in none\n"))
        #expect(SessionStatus(reply: locked.reply) == locked)
    }

    @Test("a command name with spaces or control characters stays on its line")
    func statusReplyText() throws {
        var odd = sample
        odd.command = "my tool\nstate locked\u{1b}[2J"
        let read = try #require(SessionStatus(reply: odd.reply))
        #expect(read.command == "my tool^Jstate locked^[[2J")
        #expect(read.locked == false)
    }

    @Test("a reply that is not a status reply is rejected")
    func badReplies() {
        #expect(SessionStatus(reply: "") == nil)
        #expect(SessionStatus(reply: "locked\n") == nil)
        #expect(SessionStatus(reply: sample.reply.replacing("idle 75", with: "idle soon")) == nil)
        #expect(SessionStatus(reply: sample.reply.replacing("state unlocked", with: "state open")) == nil)
        #expect(SessionStatus(reply: sample.reply.replacing("locks-in 225", with: "locks-in later")) == nil)
    }

    @Test("JSON strings escape quotes, backslashes and every control character")
    func jsonStrings() {
        #expect(JSONText.string("plain") == #""plain""#)
        #expect(JSONText.string(#"a "quoted" \ path"#) == #""a \"quoted\" \\ path""#)
        #expect(JSONText.string("tab\tnew\nline\rret") == #""tab\tnew\nline\rret""#)
        #expect(JSONText.string("\u{0}\u{1b}[2J\u{1f}\u{7f}") == #""\u0000\u001b[2J\u001f\u007f""#)
        #expect(JSONText.string("héllo ✓") == "\"héllo ✓\"")
        #expect(JSONText.string("") == #""""#)
    }

    @Test("a session as JSON has stable keys; none due is null")
    func jsonSession() {
        #expect(
            sample.json
                == #"{"pid": 4242, "terminal": "/dev/pts/7", "user": "alice", "command": "vim", "idle_seconds": 75, "locked": false, "locks_in_seconds": 225, "state": "unlocked", "detached_since": null}"#
        )
        var locked = sample
        locked.locked = true
        locked.locksInSeconds = nil
        #expect(
            locked.json.hasSuffix(
                #""locked": true, "locks_in_seconds": null, "state": "locked", "detached_since": null}"#))
        #expect(JSONText.array([]) == "[]")
        #expect(JSONText.array(["1", "2"]) == "[\n  1,\n  2\n]")
    }

    @Test("the table's columns line up, and durations read easily")
    func table() {
        var other = sample
        other.pid = 7
        other.terminal = "/dev/pts/12"
        other.command = "bash"
        other.locked = true
        other.locksInSeconds = nil
        other.idleSeconds = 3 * 3600 + 5 * 60 + 9
        #expect(
            SessionTable.text([sample, other]) == """
                PID   TTY     USER   COMMAND  IDLE   STATE     LOCKS IN
                4242  pts/7   alice  vim      1m15s  unlocked  3m45s
                7     pts/12  alice  bash     3h05m  locked    -

                """)
        #expect(SessionTable.duration(0) == "0s")
        #expect(SessionTable.duration(59) == "59s")
        #expect(SessionTable.duration(60) == "1m00s")
        #expect(SessionTable.duration(3599) == "59m59s")
        #expect(SessionTable.duration(3600) == "1h00m")
    }
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    @Suite struct Relay {
        @Test func typedBytesReachTheCommandAndItsOutputComesBack() throws {
            let session = try TerminalDriver(idlewrap: ["-t", "0", "--", "cat"])
            try session.type("hello relay\r")
            #expect(session.expect("hello relay\r\nhello relay\r\n"))
            try session.type([0x04])
            #expect(session.waitForExit() == .exited(0))
        }

        @Test func largeOutputArrivesComplete() throws {
            // -q: without a PAM service file here, a notice would come first.
            let session = try TerminalDriver(idlewrap: ["-q", "-t", "0", "--", "seq", "1", "200000"])
            #expect(session.waitForExit() == .exited(0))
            // First the question where the cursor is (DSR 6), which this terminal never answers.
            let expected = "\u{1b}[6n" + (1...200_000).map { "\($0)\r\n" }.joined()
            #expect(session.text == expected)
        }

        @Test func largeInputReachesASlowCommandComplete() throws {
            // The command reads nothing for a while, so idlewrap must queue
            // what is typed rather than drop it.
            let session = try TerminalDriver(idlewrap: [
                "-t", "0", "--", "sh", "-c", "stty raw -echo; echo ready; sleep 1; head -c 300000 | wc -c",
            ])
            #expect(session.expect("ready"))
            try session.type([UInt8](repeating: UInt8(ascii: "x"), count: 300_000))
            #expect(session.expect("300000"))
            #expect(session.waitForExit() == .exited(0))
        }

        @Test(arguments: [("exit 7", Int32(7)), ("kill -TERM $$", 143), ("kill -KILL $$", 137), ("true", 0)])
        func exitStatusIsTheCommands(script: String, status: Int32) throws {
            let session = try TerminalDriver(idlewrap: ["-t", "0", "--", "sh", "-c", script])
            #expect(session.waitForExit() == .exited(status))
        }

        @Test func commandNotFoundExits127NamingIt() throws {
            let session = try TerminalDriver(idlewrap: ["-t", "0", "--", "no-such-command-here"])
            #expect(session.waitForExit() == .exited(127))
            #expect(session.hasShown("idlewrap: no-such-command-here: command not found"))
        }

        @Test(arguments: [(mode_t(0o644), "Permission denied"), (0o755, "Exec format error")])
        func commandNotExecutableExits126NamingIt(mode: mode_t, reason: String) throws {
            let path = "/tmp/idlewrap-not-executable-\(getpid())-\(mode)"
            let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: mode)
            try file.writeAll("\u{7f}ELF not really\n")
            try file.close()
            chmod(path, mode)
            defer { unlink(path) }
            let session = try TerminalDriver(idlewrap: ["-t", "0", "--", path])
            #expect(session.waitForExit() == .exited(126))
            #expect(session.hasShown("idlewrap: \(path): cannot execute: \(reason)"))
        }

        @Test(arguments: [
            ["--bogus"], ["-t", "abc"], ["-t"], ["--hold-limit", "1X"], ["-k", "xyz"], ["-a", "nope"],
            ["--kill-after", "-1"],
        ])
        func badUsageExits125AndRunsNothing(options: [String]) throws {
            let marker = "/tmp/idlewrap-bad-usage-\(getpid())"
            unlink(marker)
            let session = try TerminalDriver(idlewrap: options + ["--", "touch", marker])
            #expect(session.waitForExit() == .exited(125))
            #expect(session.hasShown("idlewrap: "))
            #expect(session.hasShown("Try 'idlewrap --help'"))
            #expect(access(marker, F_OK) != 0)
        }

        @Test func windowSizeIsCopiedAndFollowsResizes() throws {
            let session = try TerminalDriver(
                idlewrap: ["-t", "0", "--", "sh", "-c", "stty size; read line; stty size"],
                size: WindowSize(rows: 30, columns: 100))
            #expect(session.expect("30 100\r\n"))
            try session.resize(to: WindowSize(rows: 40, columns: 120))
            try session.type("\r")
            #expect(session.expect("40 120\r\n"))
            #expect(session.waitForExit() == .exited(0))
        }

        @Test(.requires(.perl)) func commandLeadsItsSessionInTheForeground() throws {
            // Field 6 of /proc/self/stat is the session id: a session leader's is its own pid.
            let check =
                #"open(F, "/proc/self/stat"); @f = split(/ /, <F>); print((getpgrp() == POSIX::tcgetpgrp(0) && $f[5] == $$) ? "foreground\n" : "background\n")"#
            let session = try TerminalDriver(idlewrap: ["-t", "0", "--", "perl", "-MPOSIX", "-e", check])
            #expect(session.waitForExit() == .exited(0))
            #expect(session.hasShown("foreground"))
        }

        @Test func interactiveBashHasJobControl() throws {
            let session = try TerminalDriver(idlewrap: ["-t", "0", "--", "bash", "--norc", "--noprofile", "-i"])
            try session.type("sleep 30 &\r")
            #expect(session.expect("[1]"))
            try session.type("jobs; kill %1; echo done-$((6*7))\r")
            #expect(session.expect("done-42"))
            try session.type("exit\r")
            #expect(session.waitForExit() == .exited(0))
            #expect(!session.hasShown("no job control"))
            #expect(!session.hasShown("cannot set terminal process group"))
        }

        @Test func terminalSettingsAreRestoredOnExit() throws {
            let session = try TerminalDriver(idlewrap: ["-t", "0", "--", "sh", "-c", "read line"])
            #expect(session.waitForAttributes { !$0.isCanonical })
            try session.type("x\r")
            #expect(session.waitForExit() == .exited(0))
            #expect(sameSettings(try session.attributes(), session.initialAttributes))
        }

        @Test(arguments: [SIGTERM, SIGHUP, SIGINT, SIGQUIT])
        func signalsHangUpTheCommandAndRestoreTheTerminal(signal: Int32) throws {
            let session = try TerminalDriver(idlewrap: ["-t", "0", "--", "sh", "-c", "echo pid=$$; exec sleep 60"])
            #expect(session.expect("pid="))
            #expect(session.waitForAttributes { !$0.isCanonical })
            #expect(session.expect("\r\n"))
            let pid = pid_t(session.text.split(separator: "=").last!.prefix { $0.isNumber })!
            session.signal(signal)
            #expect(session.waitForExit() == .exited(128 + signal))
            #expect(sameSettings(try session.attributes(), session.initialAttributes))
            #expect(kill(pid, 0) == -1, "the command outlived idlewrap")
        }

        @Test func aCommandThatIgnoresTheHangupIsKilledAfterTheGrace() throws {
            let session = try TerminalDriver(idlewrap: [
                "-t", "0", "--", "sh", "-c", "trap '' HUP; echo pid=$$; exec sleep 120",
            ])
            #expect(session.expect("pid="))
            #expect(session.expect("\r\n"))
            let pid = pid_t(session.text.split(separator: "=").last!.prefix { $0.isNumber })!
            #expect(session.waitForAttributes { !$0.isCanonical })
            let sentAt = MonotonicInstant.now()
            session.signal(SIGTERM)
            #expect(session.waitForExit(timeout: 60) == .exited(143))
            let waited = (MonotonicInstant.now() - sentAt) / .seconds(1)
            // It had ten seconds to act on SIGHUP, then SIGKILL.
            #expect(waited >= 9.5, "idlewrap left after \(waited) s")
            #expect(kill(pid, 0) == -1, "the command outlived idlewrap")
        }

        @Test func outputReachesASlowTerminalCompleteAfterTheCommandExits() throws {
            // The command exits at once with its output still in the pty;
            // the terminal takes 4 KiB every 250 ms, so each write to it waits
            // longer than the 200 ms quiet spell. Nothing may be cut off.
            let session = try TerminalDriver(idlewrap: [
                "-t", "0", "--", "sh", "-c", "head -c 100000 /dev/zero | tr '\\0' '\\043'",
            ])
            var received = 0
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = MonotonicInstant.now() + .seconds(120)
            reading: while MonotonicInstant.now() < deadline {
                var slot = pollfd(fd: session.terminal.master.rawValue, events: Int16(POLLIN), revents: 0)
                guard poll(&slot, 1, 1000) > 0 else { continue }
                let count = read(session.terminal.master.rawValue, &buffer, buffer.count)
                if count <= 0 { break reading }
                received += buffer[..<count].filter { $0 == UInt8(ascii: "#") }.count
                var pause = timespec(tv_sec: 0, tv_nsec: 250_000_000)
                nanosleep(&pause, nil)
            }
            #expect(received == 100_000)
            #expect(session.waitForExit() == .exited(0))
        }

        @Test func outputOfAnExitedCommandIsNotHeldUpByABackgroundJob() throws {
            let session = try TerminalDriver(idlewrap: ["-t", "0", "--", "sh", "-c", "sleep 60 & echo finished"])
            // The background job keeps the pseudo-terminal open for a minute;
            // idlewrap must leave long before that.
            #expect(session.waitForExit(timeout: 20) == .exited(0))
            #expect(session.hasShown("finished"))
        }

        @Test func commandSeesItsTerminalAndIdlewrapsPid() throws {
            let session = try TerminalDriver(idlewrap: [
                "-q", "-t", "0", "--", "sh", "-c", "echo \"[$IDLEWRAP_PID] [$IDLEWRAP_TTY] [$(tty)]\"",
            ])
            #expect(session.waitForExit() == .exited(0))
            // After idlewrap's question where the cursor is (DSR 6), unanswered here.
            let question = "\u{1b}[6n"
            #expect(session.text.hasPrefix(question))
            let line = String(session.text.dropFirst(question.count))
            #expect(line.contains("[\(session.process.pid)]"))
            let parts = line.split(separator: "[").map { $0.prefix { $0 != "]" } }
            #expect(parts.count == 3 && parts[1] == parts[2] && parts[1].hasPrefix("/dev/pts/"))
        }

        @Test func commandInheritsNoDescriptorButTheTerminal() throws {
            // Listed from outside: any listing from inside opens a descriptor of its own.
            let session = try TerminalDriver(idlewrap: ["-t", "0", "--", "sh", "-c", "echo pid=$$; exec sleep 60"])
            #expect(session.expect("pid="))
            #expect(session.expect("\r\n"))
            let pid = session.text.split(separator: "=").last!.prefix { $0.isNumber }
            // The shell before its exec, and the dynamic loader just after it,
            // briefly hold descriptors of their own; a leaked one stays.
            #expect(session.waitUntil(timeout: 10) { (try? descriptors(of: "/proc/\(pid)/fd")) == ["0", "1", "2"] })
            session.signal(SIGTERM)
            #expect(session.waitForExit() == .exited(143))
        }

        @Test func notATerminalRunsTheCommandDirectly() throws {
            let script = "\"$0\" -t 0 -- sh -c 'echo \"pid=[$IDLEWRAP_PID]\"' | cat"
            let session = try TerminalDriver(["sh", "-c", script, TerminalDriver.idlewrap])
            #expect(session.waitForExit() == .exited(0))
            #expect(session.hasShown("pid=[]"))
            #expect(session.hasShown("idlewrap: not a terminal; running sh without locking"))
        }

        @Test func quietSilencesTheNotice() throws {
            let script = "\"$0\" -q -t 0 -- echo direct | cat"
            let session = try TerminalDriver(["sh", "-c", script, TerminalDriver.idlewrap])
            #expect(session.waitForExit() == .exited(0))
            #expect(session.hasShown("direct"))
            #expect(!session.hasShown("idlewrap:"))
        }

        @Test func nestedIdlewrapRunsTheCommandDirectlyUnlessAsked() throws {
            let inner =
                "\"$0\" -t 0 -- sh -c 'echo inner=$IDLEWRAP_PID'; \"$0\" --nested -t 0 -- sh -c 'echo nested=$IDLEWRAP_PID'"
            let session = try TerminalDriver(idlewrap: ["-t", "0", "--", "sh", "-c", inner, TerminalDriver.idlewrap])
            #expect(session.waitForExit() == .exited(0))
            let outer = session.process.pid
            #expect(session.hasShown("inner=\(outer)\r\n"))
            #expect(session.hasShown("already wrapped"))
            #expect(session.hasShown("nested="))
            #expect(!session.hasShown("nested=\(outer)\r\n"))
        }

        @Test func sshOriginalCommandRunsThroughTheShell() throws {
            let session = try TerminalDriver(
                idlewrap: ["-t", "0"],
                environment: ["SHELL": "/bin/sh", "SSH_ORIGINAL_COMMAND": "echo via-ssh $0"])
            #expect(session.waitForExit() == .exited(0))
            #expect(session.hasShown("via-ssh /bin/sh"))
        }

        @Test func sshOriginalCommandWorksWithoutATerminal() throws {
            let session = try TerminalDriver(
                ["sh", "-c", "\"$0\" -q </dev/null | tr a-z A-Z", TerminalDriver.idlewrap],
                environment: ["SHELL": "/bin/sh", "SSH_ORIGINAL_COMMAND": "echo piped"])
            #expect(session.waitForExit() == .exited(0))
            #expect(session.hasShown("PIPED"))
        }

        @Test func defaultCommandIsTheUsersShell() throws {
            let session = try TerminalDriver(idlewrap: ["-t", "0"], environment: ["SHELL": "/bin/sh"])
            try session.type("echo shell=$0; exit 5\r")
            #expect(session.expect("shell=/bin/sh"))
            #expect(session.waitForExit() == .exited(5))
        }

        @Test func idlewrapAsTheUsersShellIsSkipped() throws {
            // Someone made idlewrap their login shell: SHELL names it. Running
            // it again would nest forever; the passwd entry's shell runs instead.
            let passwdShell = String(cString: getpwuid(getuid())!.pointee.pw_shell)
            let session = try TerminalDriver(idlewrap: ["-t", "0"], environment: ["SHELL": TerminalDriver.idlewrap])
            try session.type("echo shell=$0; exit 6\r")
            #expect(session.expect("shell=\(passwdShell)\r\n"))
            #expect(session.waitForExit() == .exited(6))
        }

        @Test func loginFlagStartsALoginShell() throws {
            let session = try TerminalDriver(idlewrap: ["-t", "0", "-l"], environment: ["SHELL": "/bin/sh"])
            try session.type("echo shell=$0; exit\r")
            #expect(session.expect("shell=-sh"))
            #expect(session.waitForExit() == .exited(0))
        }
    }
}

/// Whether two terminal settings are the same in every field a program sees.
func sameSettings(_ a: TerminalAttributes, _ b: TerminalAttributes) -> Bool {
    var a = a.termios
    var b = b.termios
    return a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_cflag == b.c_cflag && a.c_lflag == b.c_lflag
        && withUnsafeBytes(of: &a.c_cc) { x in withUnsafeBytes(of: &b.c_cc) { y in x.elementsEqual(y) } }
}

/// The names in a /proc/PID/fd directory, sorted.
func descriptors(of directory: String) throws -> [String] {
    guard let stream = opendir(directory) else { throw Errno(rawValue: errno) }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

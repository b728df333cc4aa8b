import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// Faults a session meets in use, through the real binary. After each the
    /// terminal has its settings back, no process is left behind, and every
    /// byte arrived exactly once where it was going and nowhere else.
    @Suite struct Faults {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        func session(_ options: [String], _ command: [String], password: String = "open sesame") throws
            -> TerminalDriver
        {
            let file = try makePasswordFile(in: directory, password: password)
            return try TerminalDriver(idlewrap: ["--password-file", file, "-t", "0"] + options + ["--"] + command)
        }

        /// A command that writes numbered lines in raw mode (byte-exact, no
        /// CR added) until `stop` exists, then `done`.
        func flood(until stop: String) -> [String] {
            ["sh", "-c", "stty raw -echo; echo ready; while [ ! -e \"$0\" ]; do seq 1 1000; done; echo done", stop]
        }

        static let floodBlock = Array((1...1000).map { "\($0)\n" }.joined().utf8)

        /// Whether `stream` is `ready`, whole flood blocks, then `done`.
        func isExactFlood(_ stream: ArraySlice<UInt8>) -> (exact: Bool, blocks: Int) {
            // idlewrap's question where the cursor is (DSR 6) first, unanswered here.
            let head = Array("\u{1b}[6nready\n".utf8)
            let tail = Array("done\n".utf8)
            guard stream.starts(with: head), stream.reversed().starts(with: tail.reversed()) else { return (false, 0) }
            let body = stream.dropFirst(head.count).dropLast(tail.count)
            let block = Faults.floodBlock
            guard body.count % block.count == 0 else { return (false, 0) }
            var start = body.startIndex
            while start < body.endIndex {
                guard body[start..<(start + block.count)].elementsEqual(block) else { return (false, 0) }
                start += block.count
            }
            return (true, body.count / block.count)
        }

        @Test(.requires(.perl)) func tenMegabytePasteReachesASlowReaderCompleteAndInOrder() throws {
            let size = 10 * 1024 * 1024
            let received = directory.file("received")
            // At most 4 KiB a read and a pause after each: idlewrap has to hold
            // the paste back (backpressure) for most of the way.
            let reader = #"""
                open(O, ">", $ARGV[0]) or die; $n = 0;
                while ($n < $ARGV[1]) { $r = sysread(STDIN, $b, 4096); last unless $r; syswrite(O, $b); $n += $r; select(undef, undef, undef, 0.001) }
                close(O); print "received=$n\n";
                """#
            let terminal = try session(
                [],
                [
                    "sh", "-c", "stty raw -echo -iexten; echo ready; exec perl -e \"$0\" \"$1\" \"$2\"", reader,
                    received, String(size),
                ])
            #expect(terminal.expect("ready"))
            let pid = try #require(commandPid(of: terminal))
            // Every byte value, in an order that shows any loss or reordering.
            var state: UInt32 = 2_463_534_242
            let paste = (0..<size).map { _ -> UInt8 in
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                return UInt8(truncatingIfNeeded: state >> 11)
            }
            try terminal.type(paste)
            #expect(terminal.expect("received=\(size)", timeout: 180))
            #expect(terminal.waitForExit() == .exited(0))
            #expect(try readBytes(received) == paste)
            // Nothing of the paste was echoed or shown.
            #expect(terminal.transcript.count < 64, "the terminal showed \(terminal.transcript.count) bytes")
            #expect(sameSettings(try terminal.attributes(), terminal.initialAttributes))
            #expect(kill(pid, 0) == -1)
        }

        @Test func outputFloodDuringAThousandResizesArrivesExact() throws {
            let stop = directory.file("stop")
            let terminal = try session([], flood(until: stop))
            #expect(terminal.expect("ready"))
            let pid = try #require(commandPid(of: terminal))
            #expect(terminal.waitUntil { terminal.transcript.count > 100_000 })
            let atFirstResize = terminal.transcript.count
            for index in 0..<1000 {
                try terminal.resize(to: WindowSize(rows: UInt16(10 + index % 40), columns: UInt16(40 + index % 90)))
                terminal.pump(timeout: 0.002)
            }
            let atLastResize = terminal.transcript.count
            _ = try directory.write("stop", "")
            #expect(terminal.waitForExit(timeout: 60) == .exited(0))
            #expect(atLastResize > atFirstResize, "no output arrived during the resizes")
            let (exact, blocks) = isExactFlood(terminal.transcript[...])
            #expect(exact, "the output was not byte-exact (\(terminal.transcript.count) bytes)")
            #expect(blocks > 0)
            #expect(sameSettings(try terminal.attributes(), terminal.initialAttributes))
            #expect(kill(pid, 0) == -1)
        }

        @Test func signalBurstsWhileWritingLockOnceAndLoseNoOutput() throws {
            let stop = directory.file("stop")
            let copy = directory.file("output")
            // What the command writes goes to a file too: the screen it should show.
            let terminal = try session(
                [],
                [
                    "sh", "-c",
                    "stty raw -echo; (echo ready; while [ ! -e \"$0\" ]; do seq 1 1000; done; echo done) | tee \"$1\"",
                    stop, copy,
                ])
            #expect(terminal.expect("ready"))
            let pid = try #require(commandPid(of: terminal))
            #expect(terminal.waitUntil { terminal.transcript.count > 100_000 })
            func burst(lock: Bool) {
                for _ in 0..<50 {
                    if lock { terminal.signal(SIGUSR1) }
                    terminal.signal(SIGWINCH)
                    terminal.pump(timeout: 0)
                }
            }
            burst(lock: true)
            #expect(terminal.expect("Password for"))
            burst(lock: true)
            #expect(terminal.expect("Password for"))
            // The guardian passes a burst's lock requests on one by one: the password goes in
            // once the last has reached the session process, or that one locks again after it.
            let sessionProcess = try #require(sessionProcessPid(of: terminal))
            #expect(
                terminal.waitUntil {
                    !isPending(SIGUSR1, for: terminal.process.pid) && !isPending(SIGUSR1, for: sessionProcess)
                })
            // Told to finish while locked: what it writes comes back at the unlock.
            _ = try directory.write("stop", "")
            try terminal.type("open sesame\r")
            let exited = terminal.waitForExit(timeout: 60)
            #expect(
                exited == .exited(0),
                "idlewrap did not end after the unlock; the screen ends with \(String(decoding: terminal.transcript.suffix(400), as: UTF8.self).debugDescription)"
            )
            // One lock: one lock screen entered.
            #expect(occurrences(of: "\u{1b}[?1049h", in: terminal.transcript).count == 1)
            // The output before the lock reached the terminal as written.
            let written = try readBytes(copy)
            if let lockStart = terminal.transcript.firstIndex(of: 0x1b) {
                #expect(written.starts(with: terminal.transcript[..<lockStart]))
            }
            // And the terminal ends showing exactly the command's screen.
            let shown = ScreenModel(rows: 24, columns: 80)
            terminal.transcript.withUnsafeBytes { shown.feed($0) }
            let expected = ScreenModel(rows: 24, columns: 80)
            written.withUnsafeBytes { expected.feed($0) }
            #expect(shown.snapshot() == expected.snapshot())
            #expect(sameSettings(try terminal.attributes(), terminal.initialAttributes))
            #expect(kill(pid, 0) == -1)
        }

        @Test func crashingPAMHelperKeepsTheSessionLockedAndSaysWhy() throws {
            // pam_exec runs the helper, which takes the password and dies of
            // SIGSEGV before it can answer.
            let attempts = directory.file("attempts")
            let helper = try directory.write(
                "helper.sh", "#!/bin/sh\nread -r password\necho attempt >> \(attempts)\nkill -SEGV $$\n", mode: 0o755)
            let confdir = directory.file("pam.d")
            mkdir(confdir, 0o700)
            _ = try directory.write(
                "pam.d/idlewrap-crash",
                "auth required pam_exec.so expose_authtok \(helper)\naccount required pam_permit.so\n")
            let terminal = try TerminalDriver(idlewrap: [
                "-a", "pam", "--pam-service", "idlewrap-crash", "--pam-confdir", confdir, "-t", "0", "--",
                "sh", "-c", "echo pid=$$; exec cat",
            ])
            #expect(terminal.expect("pid="))
            let pid = try #require(commandPid(of: terminal))
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            for attempt in 1...2 {
                #expect(terminal.expect("Password for"))
                try terminal.type("any password\r")
                #expect(terminal.expect("PAM: System error"), "attempt \(attempt): the lock screen does not say why")
                #expect(terminal.waitUntil { (try? readFile(attempts))?.split(separator: "\n").count == attempt })
            }
            #expect(!terminal.hasShown("\u{1b}[?1049l"))
            #expect(terminal.process.isRunning)
            terminal.signal(SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
            #expect(!terminal.hasShown("any password"))
            #expect(sameSettings(try terminal.attributes(), terminal.initialAttributes))
            #expect(kill(pid, 0) == -1)
        }

        @Test func passwordFileChangedOrRemovedAfterStartKeepsTheHashReadAtStart() throws {
            let terminal = try session([], ["sh", "-c", "echo pid=$$; exec cat"])
            #expect(terminal.expect("pid="))
            let pid = try #require(commandPid(of: terminal))
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            // Replaced by a hash of another password: the old one still rules.
            let path = try makePasswordFile(in: directory, password: "changed")
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            #expect(try terminal.unlockAfterAWrongPassword("changed", then: "open sesame"))
            // Removed: the same.
            #expect(unlink(path) == 0)
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            #expect(try terminal.unlockAfterAWrongPassword("changed", then: "open sesame"))
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))
            #expect(sameSettings(try terminal.attributes(), terminal.initialAttributes))
            #expect(kill(pid, 0) == -1)
        }

        @Test(arguments: [false, true])
        func terminalHangupEndsTheSessionWith129(locked: Bool) throws {
            let terminal = try session([], ["sh", "-c", "echo pid=$$; exec sleep 60"])
            #expect(terminal.expect("pid="))
            let pid = try #require(commandPid(of: terminal))
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            if locked {
                terminal.signal(SIGUSR1)
                #expect(terminal.expect("Password for"))
            }
            // The last descriptor on the terminal's master closes: idlewrap's
            // stdin reads end of file, and it gets SIGHUP.
            terminal.terminal.close()
            var status: TerminationStatus?
            let deadline = MonotonicInstant.now() + .seconds(30)
            while status == nil && MonotonicInstant.now() < deadline {
                status = try terminal.process.reapIfExited()
                var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
                nanosleep(&pause, nil)
            }
            #expect(status == .exited(129))
            #expect(kill(pid, 0) == -1, "the command outlived idlewrap")
        }

        @Test func aThousandLockCyclesLeaveMemoryAndDescriptorsFlat() throws {
            // sha256-crypt at its fewest rounds: a check takes about a millisecond.
            let cheap = try directory.write(
                "cheap", "$5$rounds=1000$abcdefgh$KrFOqHeJjC5SBQkUN0k55.k4ttlTKcCsy6B.MQKlhG9\n")
            let terminal = try TerminalDriver(idlewrap: ["--password-file", cheap, "-t", "0", "--", "cat"])
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            let pid = try #require(commandPid(of: terminal))
            func cycle() throws -> Bool {
                terminal.signal(SIGUSR1)
                guard terminal.expect("Password for") else { return false }
                try terminal.type("cycle\r")
                return terminal.expect("\u{1b}[?1049l")
            }
            var measured: [(rss: Int, descriptors: Int)] = []
            var completed = 0
            cycling: for checkpoint in [100, 1000] {
                while completed < checkpoint {
                    guard try cycle() else { break cycling }
                    completed += 1
                }
                // The fewest of a few looks: a descriptor open for a moment
                // (syslog's socket while a record is sent) is not a leak.
                var open = Int.max
                for _ in 0..<10 {
                    open = min(open, try descriptors(of: "/proc/\(terminal.process.pid)/fd").count)
                    terminal.pump(timeout: 0.01)
                }
                measured.append((residentKilobytes(of: terminal.process.pid) ?? -1, open))
            }
            #expect(completed == 1000)
            #expect(measured.count == 2)
            if measured.count == 2 {
                let (early, late) = (measured[0], measured[1])
                #expect(
                    late.descriptors == early.descriptors,
                    "descriptors: \(early.descriptors) after 100 cycles, \(late.descriptors) after 1000")
                // Allowance for malloc's arenas settling; a leak of even 1 KiB
                // a cycle would be 900 KiB.
                if !isSanitized {
                    #expect(
                        late.rss - early.rss <= 256, "RSS: \(early.rss) kB after 100 cycles, \(late.rss) kB after 1000")
                }
            }
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))
            #expect(sameSettings(try terminal.attributes(), terminal.initialAttributes))
            #expect(kill(pid, 0) == -1)
        }
    }
}

/// Where each `needle` ends in `bytes`.
func occurrences(of needle: String, in bytes: [UInt8]) -> [Int] {
    let pattern = Array(needle.utf8)
    guard bytes.count >= pattern.count else { return [] }
    return (0...(bytes.count - pattern.count)).filter {
        bytes[$0] == pattern[0] && bytes[$0..<($0 + pattern.count)].elementsEqual(pattern)
    }
    .map { $0 + pattern.count }
}

/// VmRSS of a process in kB, from /proc/PID/status.
func residentKilobytes(of pid: pid_t) -> Int? {
    guard let status = readText("/proc/\(pid)/status"),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "")
}

/// The whole contents of a file.
func readBytes(_ path: String) throws -> [UInt8] {
    let file = try FileDescriptor.open(path, O_RDONLY)
    defer { try? file.close() }
    var contents: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = try buffer.withUnsafeMutableBytes { (raw) throws(Errno) in try file.read(into: raw) }
        if count == 0 { return contents }
        contents += buffer[..<count]
    }
}

/// Whether this test run (and so the idlewrap binary built with it) is
/// under AddressSanitizer or ThreadSanitizer, whose allocators keep freed
/// memory aside and make RSS meaningless as a leak measure.
let isSanitized: Bool = {
    let everything = UnsafeMutableRawPointer(bitPattern: 0)
    return dlsym(everything, "__asan_init") != nil || dlsym(everything, "__tsan_init") != nil
}()

/// Whether `signal` waits for `pid`, blocked or not yet taken (/proc/PID/status).
func isPending(_ signal: Int32, for pid: pid_t) -> Bool {
    guard let status = readText("/proc/\(pid)/status") else { return false }
    let bit = UInt64(1) << UInt64(signal - 1)
    return status.split(separator: "\n").contains { line in
        guard line.hasPrefix("ShdPnd:") || line.hasPrefix("SigPnd:"), let mask = line.split(separator: "\t").last
        else { return false }
        return (UInt64(mask, radix: 16) ?? 0) & bit != 0
    }
}

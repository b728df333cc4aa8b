import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// A hold limit larger than the memory idlewrap may have never ends a locked session
    /// (issue 27, finding 3): the hold grows with what arrives, and where memory runs out
    /// it is full, its oldest lines dropped and counted as past the limit. Under tmux, with
    /// the address space capped by `ulimit -v`.
    @Suite(.requires(.tmux)) struct HoldLimit {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        /// `ulimit -v` in KiB, and how many numbers `seq` writes while locked: 1 GiB with a
        /// little output (the old hold asked for all 2G at the first line and died), and 96
        /// MiB with more output than the hold can get memory for.
        static let cases: [(addressSpace: Int, numbers: Int, dropsLines: Bool)] = [
            (1_048_576, 300_000, false),
            (98_304, 4_000_000, true),
        ]

        @Test(arguments: cases)
        func aHoldTooLargeForMemoryNeverEndsALockedSession(addressSpace: Int, numbers: Int, dropsLines: Bool) throws {
            // The sanitizers reserve more address space than any cap leaves.
            guard !isSanitized else { return }
            let password = try makePasswordFile(in: directory)
            let go = directory.file("go")
            let command =
                "stty -echo; echo ready; while [ ! -e \"$0\" ]; do sleep 0.1; done; seq 1 \(numbers); "
                + "touch \"$0.done\"; exec sleep 1000"
            let screen = try TmuxDriver(
                [
                    "sh", "-c", "ulimit -v \(addressSpace); exec \"$@\"", "sh", TerminalDriver.idlewrap,
                    "--password-file", password, "--hold-limit", "2G", "-t", "0", "--", "sh", "-c", command, go,
                ], options: ["history-limit": "10000"])
            #expect(try screen.waitForText("ready"))
            let pid = try screen.panePid()
            #expect(try screen.lockNow())
            _ = try directory.write("go", "")
            #expect(eventually(timeout: 240) { directory.read("go.done") != nil }, "seq did not end while locked")
            #expect(kill(pid, 0) == 0, "idlewrap ended while locked")
            #expect(try screen.waitForText("Password for"))
            #expect(try screen.unlock())
            #expect(try screen.waitForText(String(numbers)))
            // The screen is the end of the output, exactly; the history goes on from it.
            let rows = try screen.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(Array(rows.prefix(24)) == (numbers - 22...numbers).map(String.init) + [""])
            let history = try screen.history()
            let notice = history.dropLast(rows.count).last ?? ""
            if dropsLines {
                #expect(
                    notice.hasPrefix("idlewrap: ")
                        && notice.hasSuffix("earlier lines of output did not fit --hold-limit"), "\(notice)")
            } else {
                #expect(notice == String(numbers - 23))
            }
            #expect(kill(pid, 0) == 0, "idlewrap ended at the unlock")
        }

        /// The notice of what did not fit is a line of its own, also when the last held row
        /// is the first half of a line that wraps onto the screen: that line stays whole in
        /// the history (issue 27, finding 8).
        @Test func theNoticeSplitsNoWrappedLine() throws {
            let password = try makePasswordFile(in: directory)
            let go = directory.file("go")
            let wide = String(repeating: "W", count: 120)
            let command =
                "stty -echo; echo ready; while [ ! -e \"$0\" ]; do sleep 0.1; done; seq 1 500; "
                + "printf '\(wide)\\n'; seq 1 22; printf end; touch \"$0.done\"; exec sleep 1000"
            let screen = try TmuxDriver(
                [
                    TerminalDriver.idlewrap, "--password-file", password, "--hold-limit", "1K", "-t", "0", "--", "sh",
                    "-c", command, go,
                ], options: ["history-limit": "10000"])
            #expect(try screen.waitForText("ready"))
            #expect(try screen.lockNow())
            _ = try directory.write("go", "")
            #expect(eventually { directory.read("go.done") != nil }, "the output did not end while locked")
            #expect(try screen.unlock())
            #expect(try screen.waitForText("end"))
            let rows = try screen.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(rows.first == String(repeating: "W", count: 40))
            let lines = try screen.history(joined: true)
            let wideLine = try #require(lines.firstIndex(of: wide), "\(lines.suffix(30))")
            let notice = lines[wideLine - 1]
            #expect(
                notice.hasPrefix("idlewrap: ") && notice.hasSuffix("earlier lines of output did not fit --hold-limit"),
                "\(notice)")
            #expect(lines[wideLine - 2] == "500")
        }
    }
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// The real binary judged by Ghostty (GhosttyOracle): idlewrap runs a command that
    /// writes the first half of a recording, is locked, writes the rest while locked, and
    /// is unlocked; everything idlewrap wrote to its terminal goes into one Ghostty
    /// terminal, the command's bytes into another, and they must show the same (but for
    /// the differences Tests/Oracle/allowed-differences.txt explains).
    @Suite(GhosttyOracle.required) struct Oracle {
        /// The recordings of Tests/ScreenRecordings and a program that draws colours in
        /// every form, the underline styles, line drawing, wide characters and combining
        /// marks, and sets a title.
        static let inputs = ["vim", "less", "top", "shell", "drawing"]

        @Test(arguments: inputs)
        func theUnlockShowsWhatTheCommandDrew(_ name: String) throws {
            let input =
                name == "drawing"
                ? Self.drawing
                : try readFileBytes(packageDirectory + "/Tests/ScreenRecordings/\(name).typescript")
            let directory = try TemporaryDirectory()
            // Halfway, at a boundary: the lock would wait for one.
            var half = input.count / 2
            let probe = ScreenModel(rows: 24, columns: 80)
            input[..<half].withUnsafeBytes { probe.feed($0) }
            while half < input.count && !probe.isAtBoundary {
                input[half...half].withUnsafeBytes { probe.feed($0) }
                half += 1
            }
            try writeBytes(Array(input[..<half]), to: directory.file("first"))
            try writeBytes(Array(input[half...]), to: directory.file("rest"))
            let password = try makePasswordFile(in: directory)
            // Raw output (no LF to CR LF), so the terminal gets the recorded bytes as they are.
            let script =
                "stty -opost -echo; cat \"$0/first\"; touch \"$0/shown\"; while [ ! -e \"$0/go\" ]; do sleep 0.1; done; "
                + "cat \"$0/rest\"; touch \"$0/done\"; exec sleep 1000"
            let session = try TerminalDriver(
                idlewrap: ["--password-file", password, "-t", "0", "--", "sh", "-c", script, directory.path])
            #expect(session.waitUntil { directory.read("shown") != nil && session.transcript.count > half })
            // All of the first half is on the terminal before the lock.
            let tail = Array(input[max(half - 64, 0)..<half])
            #expect(session.waitUntil { session.transcript.suffix(tail.count).elementsEqual(tail) })
            session.signal(SIGUSR1)
            #expect(session.expect("Password for"))
            _ = try directory.write("go", "")
            #expect(session.waitUntil { directory.read("done") != nil })
            let locked = session.transcript.count
            try session.type("open sesame\r")
            // The unlock is one write that ends synchronized output; then nothing more comes.
            #expect(
                session.waitUntil {
                    Self.contains(session.transcript[locked...], Array("\u{1b}[?1049l".utf8))
                        && Self.contains(session.transcript[locked...], Array("\u{1b}[?2026l".utf8))
                })
            var quiet = session.transcript.count
            #expect(
                session.waitUntil {
                    session.pump(timeout: 0.3)
                    defer { quiet = session.transcript.count }
                    return session.transcript.count == quiet
                })
            let found = try GhosttyOracle.differences([
                GhosttyOracle.Case(
                    name: "binary/\(name)", rows: 24, columns: 80, expected: input, actual: session.transcript)
            ])
            let allowed = try AllowedDifferences(path: GhosttyOracle.allowList)
            let unexplained = found.filter { allowed.entry(allowing: $0) == nil }
            #expect(unexplained.isEmpty, "\(unexplained.map(\.description).joined(separator: "\n"))")
        }

        static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
            guard haystack.count >= needle.count else { return false }
            var index = haystack.startIndex
            while index + needle.count <= haystack.endIndex {
                if haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
                index += 1
            }
            return false
        }

        /// Colours (16, 256 and direct, `;` and `:` forms), every underline style and
        /// underline colour, the attributes, DEC line drawing, wide characters, combining
        /// marks, and a title.
        static let drawing: [UInt8] = Array(
            ("\u{1b}]2;oracle drawing\u{7}\u{1b}[H\u{1b}[2J"
                + (30...37).map { "\u{1b}[\($0)m\($0)\u{1b}[\($0 + 60)m\($0 + 60) " }.joined() + "\u{1b}[m\r\n"
                + (40...47).map { "\u{1b}[\($0)m\($0)\u{1b}[\($0 + 60)m\($0 + 60) " }.joined() + "\u{1b}[m\r\n"
                + stride(from: 0, to: 256, by: 17).map { "\u{1b}[38;5;\($0)m#\u{1b}[48:5:\($0)m@" }.joined()
                + "\u{1b}[m\r\n"
                + "\u{1b}[38;2;255;128;0;48;2;0;0;128m orange on navy \u{1b}[m "
                + "\u{1b}[38:2::10:200:30m colon green \u{1b}[48:2::90:0:90m on purple \u{1b}[m\r\n"
                + "\u{1b}[4msingle\u{1b}[m \u{1b}[21mdouble21\u{1b}[m \u{1b}[4:2mdouble\u{1b}[m \u{1b}[4:3mcurly\u{1b}[m "
                + "\u{1b}[4:4mdotted\u{1b}[m \u{1b}[4:5mdashed\u{1b}[m "
                + "\u{1b}[4;58;5;196mred-line\u{1b}[m \u{1b}[4:3;58:2::0:160:255mblue-curl\u{1b}[m\r\n"
                + "\u{1b}[1mbold\u{1b}[m \u{1b}[2mdim\u{1b}[m \u{1b}[3mitalic\u{1b}[m \u{1b}[5mblink\u{1b}[m "
                + "\u{1b}[7minverse\u{1b}[m \u{1b}[8mhidden\u{1b}[m \u{1b}[9mstrike\u{1b}[m \u{1b}[53moverline\u{1b}[m\r\n"
                + "\u{1b}(0lqqwqqk\r\nx  x  x\r\ntqqnqqu\r\nmqqvqqj `afgjklmnopqrstuvwxyz{|}~\u{1b}(B\r\n"
                + "漢字かな 😀 e\u{301} a\u{308}\u{332} n\u{303}\r\n$ ").utf8)
    }
}

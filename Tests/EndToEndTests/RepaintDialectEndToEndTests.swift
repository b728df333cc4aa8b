import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// The unlock's repaint as the real binary writes it (issue 29): in the spelling the
    /// command used, since terminals read spellings differently.
    @Suite struct RepaintDialect {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        /// The parameters of every SGR in `text`.
        func graphicRenditions(in text: String) -> [String] {
            text.split(separator: "\u{1b}[").compactMap { sequence in
                let parameters = sequence.prefix { $0.isNumber || $0 == ";" || $0 == ":" }
                return sequence.dropFirst(parameters.count).first == "m" ? String(parameters) : nil
            }
        }

        @Test func attributesComeBackInTheCommandsSpellingInShortSGRs() throws {
            let unlocked = try unlockBytes(
                of: "printf '\\033[38;2;255;128;0;48;2;0;0;128morange\\033[0m \\033[21mdouble\\033[0m "
                    + "\\033[4:2mcolon\\033[0m \\033[38:2::1:2:3;58:5:9;4mcolour\\033[0m\\r\\n'", in: directory)
            let sgrs = graphicRenditions(in: unlocked)
            let counts = sgrs.map {
                $0.split(omittingEmptySubsequences: false, whereSeparator: { $0 == ";" || $0 == ":" }).count
            }
            #expect(counts.allSatisfy { $0 <= 10 }, "\(sgrs)")
            #expect(sgrs.contains { $0.hasSuffix("38;2;255;128;0") } && sgrs.contains { $0.hasSuffix("48;2;0;0;128") })
            #expect(sgrs.contains("0;21") && sgrs.contains("0;4:2"), "\(sgrs)")
            #expect(sgrs.contains { $0.contains("38:2::1:2:3") } && sgrs.contains { $0.hasSuffix("58:5:9") }, "\(sgrs)")
        }

        @Test func lettersDrawnInTheLineDrawingSetComeBackInIt() throws {
            let unlocked = try unlockBytes(of: "printf '\\033(0ABlqk\\033(B.\\r\\n'", in: directory)
            #expect(unlocked.contains("\u{1b}(0ABlqk\u{1b}(B."), "\(unlocked.debugDescription)")
        }

        /// Synchronized output begins and ends once, origin mode is reset once, and the
        /// default tab stops are left as the terminal has them.
        @Test func theUnlockWritesNothingTwiceOrInVain() throws {
            let unlocked = try unlockBytes(of: "printf 'a\\tb\\r\\n'", in: directory)
            #expect(unlocked.split(separator: "\u{1b}[?2026h", omittingEmptySubsequences: false).count == 2)
            #expect(unlocked.split(separator: "\u{1b}[?6l", omittingEmptySubsequences: false).count == 2)
            #expect(!unlocked.contains("\u{1b}[3g"), "\(unlocked.debugDescription)")
        }
    }
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

/// The lock and unlock judged by a terminal nobody here wrote (GhosttyOracle): the
/// command's output goes into one Ghostty terminal; into another, what the session's
/// CommandScreen and LockScreen write for it (the output until a boundary, the lock
/// screen, then, for the rest written while locked, the held lines, the repaint, the
/// input modes and the title at the unlock). Locked at the start (everything comes back
/// through the hold and the repaint) and halfway. Every difference must be one of
/// Tests/Oracle/allowed-differences.txt, each explained there; and each of those must
/// still happen, so that a fix shows up as an entry to remove.
@Suite("Lock and unlock against Ghostty", .serialized, GhosttyOracle.required)
struct GhosttyOracleTests {
    /// A body of inputs: its cases' names begin with `prefix`.
    enum Corpus: String, CaseIterable, Sendable {
        case recordings = "recording/"
        case fuzz = "fuzz/"
        case alacritty = "alacritty/"
        case libvterm = "libvterm/"
    }

    /// Where in the output the lock comes.
    enum LockPoint: CaseIterable {
        case start, halfway
    }

    @Test(arguments: Corpus.allCases)
    func everyDifferenceFromGhosttyIsExplained(_ corpus: Corpus) throws {
        let inputs = try Self.inputs(corpus)
        try #require(!inputs.isEmpty, "no inputs for \(corpus)")
        var cases: [GhosttyOracle.Case] = []
        for input in inputs {
            for point in LockPoint.allCases {
                cases.append(
                    GhosttyOracle.Case(
                        name: "\(input.name)@\(point)", rows: input.rows, columns: input.columns, expected: input.bytes,
                        actual: Self.lockedAndUnlocked(input.bytes, rows: input.rows, columns: input.columns, at: point)
                    ))
            }
        }
        let allowed = try AllowedDifferences(path: GhosttyOracle.allowList)
        var used: Set<AllowedDifferences.Entry> = []
        var unexplained: [GhosttyOracle.Difference] = []
        for difference in try GhosttyOracle.differences(cases) {
            if let entry = allowed.entry(allowing: difference) {
                used.insert(entry)
            } else {
                unexplained.append(difference)
            }
        }
        let list = unexplained.map(\.description).joined(separator: "\n")
        #expect(
            unexplained.isEmpty,
            "\(unexplained.count) differences from Ghostty not in Tests/Oracle/allowed-differences.txt:\n\(list)")
        let stale = allowed.entries.filter { $0.casePattern.hasPrefix(corpus.rawValue) && !used.contains($0) }
        #expect(
            stale.isEmpty,
            "allowed-differences.txt lines that no longer differ (remove them): \(stale.map(\.line))")
    }

    /// What the session writes to the terminal for `input` locked at `point` and unlocked
    /// after the rest of it.
    static func lockedAndUnlocked(_ input: [UInt8], rows: Int, columns: Int, at point: LockPoint) -> [UInt8] {
        var written: [UInt8] = []
        let screen = CommandScreen(size: WindowSize(rows: UInt16(rows), columns: UInt16(columns)), holdLimit: 1 << 22) {
            written += $0
        }
        var rest = input[...]
        if point == .halfway {
            let half = input.count / 2
            input[..<half].withUnsafeBytes { screen.follow($0) }
            rest = input[half...]
        }
        // The lock waits for a boundary and cuts a sequence that does not end (LockController).
        var entry: LockScreenEntry?
        func engage(afterCut: Bool) {
            screen.hide()
            screen.write { buffer in
                entry = LockScreen.enter(
                    modes: screen.modes, titles: screen.titles, afterCut: afterCut, wipeScrollback: false,
                    into: buffer)
                buffer.append(contentsOf: Self.lockScreenText)
            }
        }
        let lock = LockAtBoundary { engage(afterCut: false) }
        screen.observer = lock
        if screen.isAtBoundary {
            engage(afterCut: false)
        } else {
            screen.awaitBoundary()
        }
        withExtendedLifetime(lock) { rest.withUnsafeBytes { screen.follow($0) } }
        if entry == nil {
            screen.cutShort()
            engage(afterCut: true)
        }
        if let entry {
            screen.show(hiddenModes: entry.modes) { buffer in
                LockScreen.leave(entry, titles: screen.titles, rows: rows, into: buffer)
            }
        }
        return written
    }

    /// Engages the lock where the boundary it awaits comes, as the session's lock does.
    final class LockAtBoundary: CommandScreenObserver {
        let engage: () -> Void
        init(_ engage: @escaping () -> Void) { self.engage = engage }
        func screen(_ screen: CommandScreen, didFollow bytes: UnsafeRawBufferPointer, titlesBefore titles: UInt) {}
        func screenReachedBoundary(_ screen: CommandScreen) { engage() }
    }

    /// What stands for the lock screen's text: drawn where the command's screen was.
    static let lockScreenText = Array("\u{1b}[1;1H\u{1b}[7m locked \u{1b}[m\u{1b}[3;3HPassword for oracle: ".utf8)

    /// The inputs of `corpus`, each with its screen size.
    static func inputs(_ corpus: Corpus) throws -> [(name: String, rows: Int, columns: Int, bytes: [UInt8])] {
        switch corpus {
        case .recordings:
            // Recorded in an 80x24 tmux pane (Tests/ScreenRecordings/README or ScreenTmuxTests).
            return try ["vim", "less", "top", "shell"].map { name in
                let path = packageDirectory + "/Tests/ScreenRecordings/\(name).typescript"
                return ("recording/\(name)", 24, 80, try readFileBytes(path))
            }
        case .fuzz:
            return try fuzzInputs()
        case .alacritty, .libvterm:
            return try GhosttyOracle.referenceCases().filter { $0.name.hasPrefix(corpus.rawValue) }
        }
    }

    /// The screen-model fuzz target's corpus, read as the target reads it (Fuzz/Targets/
    /// ScreenModel.swift): a byte for the rows, one for the columns, one for the mode, the
    /// chunk lengths, then the stream. Inputs under table pressure (mode bit 4) are left
    /// out: expanded to 64 KiB on screens up to 60x200, they take minutes in Python and
    /// test the tables' limits, not what a terminal shows. Malformed UTF-8 is replaced by
    /// U+FFFD first: the model drops it, as tmux does, where Ghostty shows U+FFFD, as xterm
    /// does (docs/screen-model.md), and one such byte would shift every cell after it.
    /// Each is then compared up to the first construct the model and Ghostty read
    /// differently for a known reason (GhosttyOracle.cutAtDisputes).
    static func fuzzInputs() throws -> [(name: String, rows: Int, columns: Int, bytes: [UInt8])] {
        let directory = packageDirectory + "/Fuzz/corpus/screen-model"
        let inputs: [(name: String, rows: Int, columns: Int, bytes: [UInt8])] =
            try FileSystem.entries(ofDirectory: directory).sorted().compactMap { name in
                let data = try readFileBytes(directory + "/" + name)
                guard data.count > 3, data[2] & 0x10 == 0 else { return nil }
                let start = min(3 + Int(data[2] & 0x0F), data.count)
                let stream = Array(String(decoding: data[start...], as: UTF8.self).utf8)
                return ("fuzz/\(name.prefix(12))", Int(data[0]) % 12 + 1, Int(data[1]) % 40 + 1, stream)
            }
        return try GhosttyOracle.cutAtDisputes(inputs)
    }
}

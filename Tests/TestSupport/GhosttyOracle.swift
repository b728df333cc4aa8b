import Glibc
import PTYKit
import Testing

/// libghostty-vt, Ghostty's terminal core, as the screen model's judge: a terminal engine
/// nobody on idlewrap wrote. Tests/Oracle/ghostty-compare.py (through the Python package
/// pyghostty, which bundles the library) feeds a case's command output into one Ghostty
/// terminal and what idlewrap wrote to the terminal into another, and lists every way the
/// two differ: each cell (text, width, colours, attributes, underline style and colour,
/// hyperlink), each row's wrap flag, the cursor, the pen, the screen shown, the modes, the
/// kitty keyboard flags, the title and the working directory; as they are, after more
/// output, and on the main screen behind an alternate one.
enum GhosttyOracle {
    static let script = packageDirectory + "/Tests/Oracle/ghostty-compare.py"
    static let allowList = packageDirectory + "/Tests/Oracle/allowed-differences.txt"
    static let referenceTranscripts = packageDirectory + "/Tests/ReferenceTranscripts"
    static let missing = "needs the Python package pyghostty (pip install pyghostty), not installed"

    /// A python3 that imports pyghostty: the virtual environment `.ci/run` makes, else the
    /// first python3 on PATH.
    static let python: String? = {
        let candidates = [packageDirectory + "/.build/pyghostty/bin/python3", "python3"]
        return candidates.first { Shell.run("\(Shell.quoted([$0])) -c 'import pyghostty' >/dev/null 2>&1").status == 0 }
    }()

    /// The condition of the tests that need it: without pyghostty they are skipped, naming
    /// the package, unless `RequiredTool.strictVariable` is set (as `.ci/run` does, having
    /// installed it), which makes them fail instead.
    static var required: ConditionTrait {
        if python != nil { return .enabled(if: true) }
        guard RequiredTool.isStrict else { return .enabled(if: false, Comment(rawValue: missing)) }
        return .enabled(Comment(rawValue: missing)) {
            throw MissingTool(description: "\(missing), and \(RequiredTool.strictVariable) is set")
        }
    }

    /// A screen's worth of bytes two ways: `expected`, the command's output, and `actual`,
    /// what idlewrap wrote to the terminal for it.
    struct Case {
        let name: String
        let rows: Int
        let columns: Int
        let expected: [UInt8]
        let actual: [UInt8]
    }

    /// One way a case's two terminals differ: `count` cells (or 1 for the state), the first
    /// of them described in `example`.
    struct Difference: Hashable, CustomStringConvertible {
        let name: String
        let phase: String
        let kind: String
        let count: Int
        let example: String

        var description: String { "\(name) [\(phase)] \(kind) x\(count): \(example)" }
    }

    /// Every difference of every case, in the order of `cases`.
    static func differences(_ cases: [Case]) throws -> [Difference] {
        let python = try #require(python, "\(missing)")
        let directory = try TemporaryDirectory()
        // IDLEWRAP_ORACLE_KEEP=DIRECTORY keeps the cases there, to look into a difference.
        let keep = getenv("IDLEWRAP_ORACLE_KEEP").map { String(cString: $0) }
        var manifest = ""
        for (index, item) in cases.enumerated() {
            let base = keep.map { "\($0)/\(item.name.replacing("/", with: "_"))" } ?? directory.file("\(index)")
            let expected = base + ".expected"
            let actual = base + ".actual"
            try writeBytes(item.expected, to: expected)
            try writeBytes(item.actual, to: actual)
            manifest += "\(item.name)\t\(item.rows)\t\(item.columns)\t\(expected)\t\(actual)\n"
        }
        let manifestPath = try directory.write("manifest", manifest)
        let run = Shell.run(Shell.quoted([python, script, "compare", manifestPath]) + " 2>&1")
        try #require(run.status == 0, "ghostty-compare.py failed: \(run.output.suffix(2000))")
        return run.output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let count = Int(fields[3]) else { return nil }
            return Difference(name: fields[0], phase: fields[1], kind: fields[2], count: count, example: fields[4])
        }
    }

    /// The inputs as ghostty-compare.py's `cut` leaves them: without DEL and the bytes from
    /// 0x80 inside escape and control sequences, and up to the first construct the model
    /// and Ghostty read differently for a reason the script names (its DISPUTES). For the
    /// fuzz corpus, whose byte soup meets such a construct early: one disagreement there
    /// shifts every cell after it, and would hide a repaint bug behind it.
    static func cutAtDisputes(
        _ inputs: [(name: String, rows: Int, columns: Int, bytes: [UInt8])]
    ) throws -> [(name: String, rows: Int, columns: Int, bytes: [UInt8])] {
        let python = try #require(python, "\(missing)")
        let directory = try TemporaryDirectory()
        var manifest = ""
        for (index, input) in inputs.enumerated() {
            try writeBytes(input.bytes, to: directory.file("\(index)"))
            manifest += "\(input.name)\t\(input.rows)\t\(input.columns)\t\(directory.file("\(index)"))\n"
        }
        let manifestPath = try directory.write("manifest", manifest)
        let run = Shell.run(Shell.quoted([python, script, "cut", manifestPath]) + " 2>&1")
        try #require(run.status == 0, "ghostty-compare.py cut failed: \(run.output.suffix(2000))")
        return try inputs.enumerated().map { index, input in
            (input.name, input.rows, input.columns, try readFileBytes(directory.file("\(index).cut")))
        }
    }

    /// The reference transcripts of other terminals' test suites (Tests/ReferenceTranscripts),
    /// each as its name, screen size and bytes.
    static func referenceCases() throws -> [(name: String, rows: Int, columns: Int, bytes: [UInt8])] {
        let python = try #require(python, "\(missing)")
        let directory = try TemporaryDirectory()
        let run = Shell.run(Shell.quoted([python, script, "cases", referenceTranscripts, directory.path]) + " 2>&1")
        try #require(run.status == 0, "ghostty-compare.py cases failed: \(run.output.suffix(2000))")
        return try run.output.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t").map(String.init)
            let size = try readFile(fields[1] + ".size").split(separator: " ").compactMap { Int($0) }
            return (fields[0], size[0], size[1], try readFileBytes(fields[1] + ".bytes"))
        }
    }
}

/// The disagreements with Ghostty that are known and explained
/// (Tests/Oracle/allowed-differences.txt): a line `CASE PHASE KIND`, each a pattern as
/// fnmatch(3) takes it (PHASE's spaces written as `_`), after the comment lines that say
/// why.
struct AllowedDifferences {
    struct Entry: Hashable {
        let casePattern: String
        let phasePattern: String
        let kind: String
        let line: Int
    }

    let entries: [Entry]

    init(path: String) throws {
        var entries: [Entry] = []
        for (number, line) in try readFile(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let first = fields.first, !first.hasPrefix("#") else { continue }
            try #require(fields.count == 3, "allowed-differences.txt line \(number + 1): CASE PHASE KIND")
            entries.append(
                Entry(
                    casePattern: fields[0], phasePattern: fields[1].replacing("_", with: " "), kind: fields[2],
                    line: number + 1))
        }
        self.entries = entries
    }

    /// The entry that allows `difference`, if any.
    func entry(allowing difference: GhosttyOracle.Difference) -> Entry? {
        entries.first { entry in
            fnmatch(entry.kind, difference.kind, 0) == 0 && fnmatch(entry.casePattern, difference.name, 0) == 0
                && fnmatch(entry.phasePattern, difference.phase, 0) == 0
        }
    }
}

func writeBytes(_ bytes: [UInt8], to path: String) throws {
    let descriptor = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)
    defer { try? descriptor.close() }
    try bytes.withUnsafeBytes { try descriptor.writeAll($0) }
}

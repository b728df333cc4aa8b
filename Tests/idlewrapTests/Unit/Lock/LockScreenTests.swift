import PTYKit
import Testing

@testable import idlewrap

/// The lock screen as a terminal would show it: a grid that records every
/// character written, where, and whether anything was written twice or
/// outside it.
private struct RenderedScreen {
    let rows: Int
    let columns: Int
    var cells: [[Character?]]
    var cursor = (row: 1, column: 1)
    var cursorVisible = true
    var problems: [String] = []

    init(_ bytes: [UInt8], size: WindowSize) {
        rows = Int(size.rows)
        columns = Int(size.columns)
        cells = Array(repeating: Array(repeating: nil, count: columns), count: rows)
        var characters = Array(String(decoding: bytes, as: UTF8.self))[...]
        while let character = characters.popFirst() {
            guard character == "\u{1b}" else {
                put(character)
                continue
            }
            guard characters.popFirst() == "[" else {
                problems.append("an escape sequence other than CSI")
                continue
            }
            var body = ""
            while let next = characters.popFirst() {
                if next.isLetter {
                    apply(body, final: next)
                    break
                }
                body.append(next)
            }
        }
    }

    private mutating func apply(_ body: String, final: Character) {
        switch (body, final) {
        case (_, "H"):
            let numbers = body.split(separator: ";").map { Int($0) ?? 1 }
            cursor = (numbers.first ?? 1, numbers.count > 1 ? numbers[1] : 1)
            if cursor.row > rows || cursor.column > columns { problems.append("cursor moved outside to \(cursor)") }
        case ("", "K"):
            for column in cursor.column...max(columns, cursor.column) where column <= columns {
                cells[cursor.row - 1][column - 1] = nil
            }
        case ("?25", "l"): cursorVisible = false
        case ("?25", "h"): cursorVisible = true
        default: problems.append("unexpected sequence \(body)\(final)")
        }
    }

    private mutating func put(_ character: Character) {
        guard cursor.row <= rows, cursor.column <= columns else {
            problems.append("\"\(character)\" written outside at \(cursor)")
            return
        }
        if cells[cursor.row - 1][cursor.column - 1] != nil {
            problems.append("\"\(character)\" overwrites a character at \(cursor)")
        }
        cells[cursor.row - 1][cursor.column - 1] = character
        cursor.column += 1
    }

    /// Each row's text without the blank cells around it.
    var lines: [String] {
        cells.map { row in
            String(row.map { $0 ?? " " }).trimmingCharacters(in: " ")
        }.filter { !$0.isEmpty }
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}

struct LockScreenTests {
    static let content = LockScreenContent(
        program: "mysql", host: "db1.example.org", since: "2026-12-01 04:00:00",
        message: "Back in five minutes", failures: 1, status: "Wrong password", prompt: "Password for alice:")

    static var candidates: [String] {
        [
            "Locked", "mysql on db1.example.org", "since 2026-12-01 04:00:00", "Back in five minutes",
            "1 failed attempt", "Wrong password", "Password for alice:",
        ]
    }

    /// A row shows one line whole, or its start cut to the width.
    static func isOneLine(_ text: String) -> Bool {
        candidates.contains { line in
            line == text || (text.hasSuffix("...") && line.hasPrefix(text.dropLast(3)))
                || (text.count <= 3 && line.hasPrefix(text))
        }
    }

    static let sizes: [(rows: UInt16, columns: UInt16)] = [
        (24, 80), (10, 40), (8, 20), (5, 20), (4, 12), (3, 10), (2, 5), (2, 2), (1, 20), (1, 1), (7, 1), (1, 3),
    ]

    @Test(arguments: sizes.indices)
    func nothingOverlapsOrSpillsAtAnySize(index: Int) {
        let size = WindowSize(rows: LockScreenTests.sizes[index].rows, columns: LockScreenTests.sizes[index].columns)
        let screen = RenderedScreen(LockScreen.draw(LockScreenTests.content, size: size), size: size)
        #expect(screen.problems.isEmpty, "\(size): \(screen.problems)")
        for line in screen.lines {
            #expect(LockScreenTests.isOneLine(line), "\(size): \"\(line)\" is not one line of the lock screen")
        }
        #expect(screen.lines.count <= Int(size.rows))
        // The cursor waits after the prompt, inside the window.
        #expect(screen.cursorVisible)
        #expect(
            screen.cursor.row <= Int(size.rows) && screen.cursor.column <= Int(size.columns),
            "\(size): cursor at \(screen.cursor)")
        if size.columns >= 2 {
            #expect(screen.lines.contains { $0.hasPrefix("P") }, "\(size): no prompt in \(screen.lines)")
        }
    }

    @Test func aRoomyWindowShowsEverythingInOrder() {
        let size = WindowSize(rows: 24, columns: 80)
        let screen = RenderedScreen(LockScreen.draw(LockScreenTests.content, size: size), size: size)
        #expect(screen.lines == LockScreenTests.candidates)
    }

    @Test func smallWindowsKeepTheMostNeededLines() {
        let size = WindowSize(rows: 5, columns: 20)
        let screen = RenderedScreen(LockScreen.draw(LockScreenTests.content, size: size), size: size)
        #expect(
            screen.lines == [
                "Locked", "mysql on db1.exam...", "1 failed attempt", "Wrong password", "Password for alice:",
            ])
        let tiny = WindowSize(rows: 2, columns: 9)
        let tinyScreen = RenderedScreen(LockScreen.draw(LockScreenTests.content, size: tiny), size: tiny)
        #expect(tinyScreen.lines == ["Wrong ...", "Passw..."])
    }

    @Test func whileKeysAreIgnoredThereIsNoPromptAndNoCursor() {
        var content = LockScreenTests.content
        content.prompt = ""
        let size = WindowSize(rows: 3, columns: 20)
        let screen = RenderedScreen(LockScreen.draw(content, size: size), size: size)
        #expect(screen.problems.isEmpty)
        #expect(!screen.cursorVisible)
        #expect(screen.lines == ["Locked", "1 failed attempt", "Wrong password"])
    }

    @Test func theLockScreenNamesTheProgramNotItsArguments() {
        #expect(CommandPlan(arguments: ["mysql", "-pSECRET"], executable: nil).programName == "mysql")
        #expect(CommandPlan(arguments: ["/usr/bin/ssh", "-i", "key"], executable: nil).programName == "ssh")
        #expect(CommandPlan(arguments: ["-bash"], executable: "/bin/bash").programName == "bash")
        #expect(CommandPlan(arguments: ["-"], executable: nil).programName == "-")
        #expect(CommandPlan(arguments: [""], executable: nil).programName == "?")
    }
}

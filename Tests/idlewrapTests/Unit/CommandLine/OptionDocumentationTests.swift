import Testing

@testable import idlewrap

/// The checkout this test file is in: Tests/idlewrapTests/Unit/CommandLine/ is four
/// folders below it.
private let packageDirectory: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(5)
    return parts.joined(separator: "/")
}()

@Suite("Every option is documented")
struct OptionDocumentationTests {
    @Test("each option has an item in the manual page's option list, with every spelling")
    func manualPage() throws {
        let page = try readFile(packageDirectory + "/man/idlewrap.1")
        let items = page.split(separator: "\n").filter { $0.hasPrefix(".It Fl ") }
        for option in OptionTable.commandLine {
            // `Fl` writes the first hyphen: `Fl \-timeout` is --timeout.
            var spelling = "Fl " + mdoc("-" + option.long)
            if let valueName = option.valueName {
                let value = "Ar " + valueName.lowercased()
                spelling += option.argument == .attachedOnly ? " Op \(value)" : " \(value)"
            }
            if let short = option.short { spelling = "Fl \(short) , " + spelling }
            let found = items.contains { $0.hasSuffix(" " + spelling) || $0.contains(" \(spelling) ") }
            #expect(found, "no '.It \(spelling)' in man/idlewrap.1")
        }
    }

    @Test("each option is in the README's option table, spelled as --help spells it")
    func readme() throws {
        let readme = try readFile(packageDirectory + "/README.md")
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `-") }
        for option in OptionTable.commandLine {
            #expect(rows.contains { $0.contains("`\(option.synopsis)`") }, "no `\(option.synopsis)` in README.md")
        }
    }

    /// mdoc escapes hyphens in option names.
    private func mdoc(_ text: String) -> String {
        text.replacing("-", with: "\\-")
    }
}

import Testing

@testable import idlewrap

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

    @Test("each configuration key is named in the manual page's and the README's Configuration sections")
    func configurationKeys() throws {
        let page = try readFile(packageDirectory + "/man/idlewrap.1")
        let manual = try #require(page.split(separator: ".Sh ").first { $0.hasPrefix("CONFIGURATION\n") })
        let readme = try readFile(packageDirectory + "/README.md")
        let section = try #require(readme.split(separator: "\n## ").first { $0.hasPrefix("Configuration\n") })
        // The words of `.Cm` and `.It Cm` lines, which name keys.
        let keywords = Set(
            manual.split(separator: "\n").filter { $0.hasPrefix(".Cm ") || $0.hasPrefix(".It Cm ") }
                .flatMap { $0.split(separator: " ").map(String.init) })
        for option in OptionTable.settings {
            #expect(keywords.contains(option.long), "\(option.long) missing from CONFIGURATION in man/idlewrap.1")
            #expect(section.contains("`\(option.long)"), "\(option.long) missing from Configuration in README.md")
        }
        // The actions, which the sections name as command-line only.
        for option in OptionTable.commandLine where (option.setting == nil) {
            #expect(
                keywords.contains(option.long), "action \(option.long) missing from CONFIGURATION in man/idlewrap.1")
            #expect(
                section.contains("`\(option.long)`"), "action \(option.long) missing from Configuration in README.md")
        }
    }

    /// mdoc escapes hyphens in option names.
    private func mdoc(_ text: String) -> String {
        text.replacing("-", with: "\\-")
    }
}

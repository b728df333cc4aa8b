import Testing

@testable import TestSupport
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

    @Test("each configuration key is named in the manual page's and the deployment guide's Configuration sections")
    func configurationKeys() throws {
        let page = try readFile(packageDirectory + "/man/idlewrap.1")
        let manual = try #require(page.split(separator: ".Sh ").first { $0.hasPrefix("CONFIGURATION\n") })
        let guide = try readFile(packageDirectory + "/docs/deployment.md")
        let section = try #require(guide.split(separator: "\n## ").first { $0.hasPrefix("Configuration\n") })
        // The words of `.Cm` and `.It Cm` lines, which name keys.
        let keywords = Set(
            manual.split(separator: "\n").filter { $0.hasPrefix(".Cm ") || $0.hasPrefix(".It Cm ") }
                .flatMap { $0.split(separator: " ").map(String.init) })
        for key in OptionTable.settings.map(\.configKey) {
            #expect(keywords.contains(key), "\(key) missing from CONFIGURATION in man/idlewrap.1")
            #expect(section.contains("`\(key)"), "\(key) missing from Configuration in docs/deployment.md")
        }
        // The actions, which the sections name as command-line only.
        for option in OptionTable.commandLine where (option.setting == nil) {
            #expect(
                keywords.contains(option.long), "action \(option.long) missing from CONFIGURATION in man/idlewrap.1")
            #expect(
                section.contains("`\(option.long)`"),
                "action \(option.long) missing from Configuration in docs/deployment.md")
        }
    }

    /// The README restates no option: it points to the manual's sections, by name, in
    /// a table. Each name there is a section of the manual, and each section of the
    /// manual (but the title, synopsis and see-also) has its row.
    @Test("the README's table of the manual's sections names each of them, and only them")
    func readmeNamesTheManualsSections() throws {
        let page = try readFile(packageDirectory + "/man/idlewrap.1")
        let sections = Set(
            page.split(separator: "\n").filter { $0.hasPrefix(".Sh ") }.map { String($0.dropFirst(4)) }
        )
        .subtracting(["NAME", "SYNOPSIS", "SEE ALSO"])
        let readme = try readFile(packageDirectory + "/README.md")
        let table = try #require(readme.split(separator: "\n## ").first { $0.hasPrefix("The manual\n") })
        // Rows read `| SECTION, SECTION | what it says |`.
        let named = Set(
            table.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| section") }
                .compactMap { $0.split(separator: "|").first }
                .flatMap { $0.split(separator: ",").map { $0.split(separator: " ").joined(separator: " ") } })
        #expect(!named.isEmpty, "no table of the manual's sections in README.md")
        for name in named where !sections.contains(name) {
            Issue.record("README.md names a manual section \(name) that man/idlewrap.1 does not have")
        }
        for name in sections where !named.contains(name) {
            Issue.record("man/idlewrap.1's section \(name) has no row in README.md's table")
        }
    }

    /// mdoc escapes hyphens in option names.
    private func mdoc(_ text: String) -> String {
        text.replacing("-", with: "\\-")
    }
}

import Glibc

/// A PAM service's stack as libpam reads it from a directory such as /etc/pam.d:
/// `[-]TYPE CONTROL MODULE [ARGS]` lines, where CONTROL is a word or a `[value=action ...]`
/// list, `include` and `substack` name another service, and `@include FILE` (Debian)
/// pulls in a file. A leading `-` makes a missing module no error.
struct PAMStack: Equatable {
    struct Line: Equatable {
        let facility: String
        let control: String
        let module: String
        let arguments: [String]
        /// A missing module is skipped, not an error (`-auth ...`).
        let optionalModule: Bool
        /// `FILE:LINE: text`.
        let evidence: String

        var moduleName: String { String(module.split(separator: "/").last ?? "") }
    }

    private(set) var lines: [Line] = []
    /// Services or files named but not found.
    private(set) var missingFiles: [String] = []

    /// Where libpam looks for a module named without a directory.
    static let moduleDirectories = [
        "/lib/x86_64-linux-gnu/security", "/usr/lib/x86_64-linux-gnu/security", "/lib/aarch64-linux-gnu/security",
        "/usr/lib/aarch64-linux-gnu/security", "/lib64/security", "/usr/lib64/security", "/lib/security",
        "/usr/lib/security",
    ]

    /// Parses one file's lines; `read` gives another file's lines for includes, by path.
    init(file: String, shown: String, directory: String, read: (String) -> [Substring]?) {
        append(file: file, shown: shown, directory: directory, read: read, depth: 0)
    }

    private mutating func append(
        file: String, shown: String, directory: String, read: (String) -> [Substring]?, depth: Int
    ) {
        guard depth < 8, let text = read(file) else {
            missingFiles.append(shown)
            return
        }
        for (index, raw) in text.enumerated() {
            let words = Self.words(raw)
            guard let first = words.first else { continue }
            if first == "@include", words.count >= 2 {
                let path = words[1].hasPrefix("/") ? words[1] : directory + "/" + words[1]
                append(file: path, shown: words[1], directory: directory, read: read, depth: depth + 1)
                continue
            }
            guard words.count >= 3 else { continue }
            let optional = first.hasPrefix("-")
            let facility = optional ? String(first.dropFirst()) : first
            let control = words[1]
            if control == "include" || control == "substack" {
                let path = words[2].hasPrefix("/") ? words[2] : directory + "/" + words[2]
                var included = PAMStack(lines: [], missingFiles: [])
                included.append(file: path, shown: words[2], directory: directory, read: read, depth: depth + 1)
                lines += included.lines.filter { $0.facility == facility }
                missingFiles += included.missingFiles
                continue
            }
            lines.append(
                Line(
                    facility: facility.lowercased(), control: control, module: words[2],
                    arguments: Array(words.dropFirst(3)), optionalModule: optional,
                    evidence: evidenceLine(shown, index, raw)))
        }
    }

    private init(lines: [Line], missingFiles: [String]) {
        self.lines = lines
        self.missingFiles = missingFiles
    }

    /// The words of a line without its comment; a bracketed control is one word.
    static func words(_ line: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        var inBrackets = false
        for character in line {
            if character == "#" && !inBrackets && current.isEmpty { break }
            if character == "[" && current.isEmpty { inBrackets = true }
            if character == "]" { inBrackets = false }
            if (character == " " || character == "\t" || character == "\r") && !inBrackets {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    func lines(_ facility: String) -> [Line] { lines.filter { $0.facility == facility } }

    /// Whether a module libpam would load exists.
    static func moduleExists(_ module: String) -> Bool {
        if module.hasPrefix("/") { return access(module, R_OK) == 0 }
        return moduleDirectories.contains { access($0 + "/" + module, R_OK) == 0 }
    }

    /// `deny` and `unlock_time` of pam_faillock: its arguments first, then faillock.conf's
    /// `key = value`, then the module's defaults (3 and 600 seconds).
    static func faillockSettings(arguments: [String], configuration: [Substring]?) -> [String: String] {
        var settings = ["deny": "3", "unlock_time": "600"]
        for line in configuration ?? [] {
            let text = line.trimmingBlanks()
            guard !text.hasPrefix("#"), let equals = text.firstIndex(of: "=") else { continue }
            let key = String(text[..<equals].trimmingBlanks())
            if settings[key] != nil { settings[key] = String(text[text.index(after: equals)...].trimmingBlanks()) }
        }
        for argument in arguments {
            let parts = argument.split(separator: "=", maxSplits: 1)
            if parts.count == 2, settings[String(parts[0])] != nil { settings[String(parts[0])] = String(parts[1]) }
        }
        return settings
    }
}

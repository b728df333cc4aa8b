import PTYKit

/// Messages on stderr, always prefixed "idlewrap: ".
enum Diagnostics {
    static func error(_ message: String) {
        write("idlewrap: \(message)\n")
    }

    /// A notice the user may silence with -q.
    static func notice(_ message: String, quiet: Bool) {
        if !quiet { error(message) }
    }

    /// For messages written while the terminal may be in raw mode, where a
    /// bare newline would not return the cursor to the first column.
    static func lateError(_ message: String) {
        write("idlewrap: \(message)\r\n")
    }

    static func write(_ text: String) {
        try? FileDescriptor.standardError.writeAll(text)
    }
}

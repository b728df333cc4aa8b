import Glibc

/// The process environment, read once at start.
struct Environment {
    private(set) var entries: [String]

    static func current() -> Environment {
        var entries: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            entries.append(String(cString: entry))
            cursor += 1
        }
        return Environment(entries: entries)
    }

    subscript(name: String) -> String? {
        let prefix = name + "="
        for entry in entries where entry.hasPrefix(prefix) {
            return String(entry.dropFirst(prefix.count))
        }
        return nil
    }

    /// The environment with `name` set to `value`, replacing any earlier value.
    func setting(_ name: String, to value: String) -> Environment {
        let prefix = name + "="
        return Environment(entries: entries.filter { !$0.hasPrefix(prefix) } + [prefix + value])
    }

    /// Sets `name` in this process's own environment, which an exec passes on.
    static func export(_ name: String, _ value: String) {
        setenv(name, value, 1)
    }
}

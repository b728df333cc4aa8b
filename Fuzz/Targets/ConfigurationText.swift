@testable import idlewrap

// The configuration-file parser never crashes; its errors cannot drive the
// terminal they are printed on; and what it accepts, shown by --show-config and
// read back, gives the same options ("a line without its comment is a valid
// configuration file line").
//
// Input: one byte choosing the file (bit 0: the system file, where policy keys
// are allowed), then the file's text.

/// Values that --show-config shows in caret notation cannot be read back as they were.
private func hasControlCharacters(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
}

/// Where the last `  # ` in `line` starts, overlapping matches included.
private func lastSourceSeparator(in line: Substring) -> Substring.Index? {
    var index = line.endIndex
    while index > line.startIndex {
        index = line.index(before: index)
        if line[index...].hasPrefix("  # ") { return index }
    }
    return nil
}

private func checkUsageError(_ error: UsageError) {
    let text = error.description
    require(text.hasPrefix("idlewrap: "), "a usage error without the idlewrap: prefix")
    let controls = text.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }
    require(controls.isEmpty, "a usage error carries control characters: \(text.debugDescription)")
    require(text.split(separator: "\n").count == 2, "a usage error is not two lines: \(text.debugDescription)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let file: ConfigurationFile = input.choice(2) == 0 ? .user : .system
    let text = String(decoding: input.rest(), as: UTF8.self)
    var settings = Settings()
    do {
        try ConfigurationText.apply(text, file: file, path: "fuzz.conf", to: &settings)
    } catch {
        checkUsageError(error)
        return 0
    }
    let options = settings.options
    let shown = OptionTable.settings.compactMap { $0.setting?.text(in: options) }
    guard !shown.contains(where: hasControlCharacters) else { return 0 }

    // Each line without its comment, read back as the system file (which takes every
    // key); a line with an empty value stands for "not set", which some keys cannot
    // be given as, so those may fail.
    var again = Settings()
    for line in ShowConfig.text(of: settings).split(separator: "\n") {
        // The last "  # " (searched from the end: a value may end in "  #").
        guard let comment = lastSourceSeparator(in: line) else {
            fatalError("property violated: a --show-config line without its source: \(line)")
        }
        let setting = String(line[..<comment])
        do {
            try ConfigurationText.apply(setting, file: .system, path: "shown.conf", to: &again)
        } catch {
            require(setting.hasSuffix("="), "--show-config's line '\(setting)' cannot be read back: \(error.message)")
        }
    }
    require(again.options == options, "read back from --show-config: \(again.options), not \(options)")
    return 0
}

@testable import idlewrap

// The DURATION, SIZE and KEY parsers give back what they accept: a value they
// accept, written out again (by formatDuration and formatSize, --show-config's,
// and other spellings), parses to the same value; nothing traps on
// overflow. Also: a bare number means seconds, and a SIZE suffix multiplies.
//
// Input: one byte choosing the parser, then the text.

private func checkDuration(_ text: String) {
    guard let value = parseDuration(text) else { return }
    require(value >= .zero, "a negative duration from '\(text)'")
    require(parseDuration(secondsText(value)) == value, "'\(text)' → \(value) does not survive \(secondsText(value))")
    require(parseDuration(unitsText(value)) == value, "'\(text)' → \(value) does not survive \(unitsText(value))")
    require(parseDuration(formatDuration(value)) == value, "'\(text)' → \(value) does not survive formatDuration: \(formatDuration(value))")
    if text != "off" && text.utf8.allSatisfy({ $0 != UInt8(ascii: "h") && $0 != UInt8(ascii: "m") && $0 != UInt8(ascii: "s") }) {
        require(parseDuration(text + "s") == value, "'\(text)' is not seconds")
    }
}

private func checkSize(_ text: String) {
    guard let value = parseSize(text) else { return }
    require(value >= 0, "a negative size from '\(text)'")
    require(parseSize(String(value)) == value, "'\(text)' → \(value) does not survive being written out")
    require(parseSize(formatSize(value)) == value, "'\(text)' → \(value) does not survive formatSize: \(formatSize(value))")
    for (suffix, multiplier) in [("k", 1 << 10), ("M", 1 << 20), ("g", 1 << 30)] where value % multiplier == 0 {
        require(parseSize("\(value / multiplier)\(suffix)") == value, "'\(text)' → \(value) differs with suffix \(suffix)")
    }
    if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
        let (kibibytes, overflow) = value.multipliedReportingOverflow(by: 1024)
        require(parseSize(text + "K") == (overflow ? nil : kibibytes), "'\(text)K' is not \(text) KiB")
    }
}

private func checkKey(_ text: String) {
    let key = parseLockKey(text)
    require(!(key != nil && lockKeyRefusal(text) != nil), "'\(text)' is refused by design and accepted")
    guard let key else { return }
    require(key < 0x20 || key == 0x7F, "'\(text)' gives \(key), not a control byte")
    require(key != 0x1B, "ESC accepted as the lock key")
    require(key != 0x0D && key != 0x0A, "Enter's byte accepted as the lock key")
    guard let caret = caretNotation(of: key) else {
        fatalError("property violated: no caret notation for accepted key \(key)")
    }
    require(parseLockKey(caret) == key, "'\(text)' → \(key) does not survive \(caret)")
    require(parseLockKey(String(UnicodeScalar(key))) == key, "\(key) as the byte itself differs")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let which = input.choice(3)
    let text = String(decoding: input.rest(), as: UTF8.self)
    switch which {
    case 0: checkDuration(text)
    case 1: checkSize(text)
    default: checkKey(text)
    }
    return 0
}

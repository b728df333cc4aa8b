/// Parses a SIZE (`--hold-limit`): a whole number of bytes with an optional
/// `K`, `M` or `G` suffix in either case, powers of 1024 (`64k` = 65536).
/// Returns nil for anything else (sign, fraction, space, other suffix such as `KB` or `T`)
/// and for a value past `Int.max`.
func parseSize(_ text: String) -> Int? {
    var digits = Substring(text)
    var multiplier = 1
    switch text.last {
    case "k", "K": multiplier = 1 << 10
    case "m", "M": multiplier = 1 << 20
    case "g", "G": multiplier = 1 << 30
    default: break
    }
    if multiplier != 1 { digits = digits.dropLast() }
    guard !digits.isEmpty else { return nil }
    var value = 0
    for byte in digits.utf8 {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        let (tens, overflowTens) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflowSum) = tens.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
        guard !overflowTens, !overflowSum else { return nil }
        value = sum
    }
    let (size, overflow) = value.multipliedReportingOverflow(by: multiplier)
    return overflow ? nil : size
}

/// A SIZE as `parseSize` reads it back: `8M`, `64K`, `1000`.
func formatSize(_ size: Int) -> String {
    for (unit, name) in [(1 << 30, "G"), (1 << 20, "M"), (1 << 10, "K")] where size >= unit && size % unit == 0 {
        return "\(size / unit)\(name)"
    }
    return String(size)
}

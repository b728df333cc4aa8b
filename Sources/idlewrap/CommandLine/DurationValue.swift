/// Parses a DURATION (`--timeout`, `--kill-after`).
///
/// Accepted: `off`; a bare decimal number of seconds (`90`, `1.5`, `.5`); or one or more
/// NUMBER+UNIT terms with units `h`, `m`, `s`, `ms`, largest first and each at most once
/// (`1h30m`, `1.5s`, `250ms`, `2m.5s`). A NUMBER is decimal digits with an optional
/// fraction (`1.5`) or a fraction alone (`.5`); no sign, no exponent, no spaces, and units
/// are lower case. The ordering rule turns likely typos (`1m30m` for `1h30m`) into errors
/// instead of a surprising timeout.
///
/// Any zero value (`0`, `0s`, `0.0m`) and `off` give zero, which callers read as "off".
/// A part finer than a nanosecond rounds up, so a non-zero DURATION never becomes off.
/// Returns nil for anything else, and for a value past `Int64.max` nanoseconds (about 292
/// years), the longest the monotonic clock can count (`scanDuration` tells the two apart).
func parseDuration(_ text: String) -> Duration? {
    try? scanDuration(text).get()
}

/// Why a text is no DURATION.
enum DurationProblem: Error {
    case malformed
    /// Well formed, but past `Int64.max` nanoseconds.
    case tooLong
}

/// The longest DURATION, in whole hours: what a message says.
let longestDurationHours = Int64.max / 3_600_000_000_000

/// `parseDuration`, saying why not.
func scanDuration(_ text: String) -> Result<Duration, DurationProblem> {
    if text == "off" { return .success(.zero) }
    let bytes = Array(text.utf8)
    var position = 0
    var total: Int128 = 0
    var previousUnit: DurationUnit?
    var tooLong = false
    repeat {
        guard let number = DecimalNumber.scan(bytes, at: &position) else { return .failure(.malformed) }
        let unit: DurationUnit
        if position == bytes.count && previousUnit == nil {
            unit = .second  // the whole text is a bare number
        } else {
            guard let scanned = DurationUnit.scan(bytes, at: &position) else { return .failure(.malformed) }
            unit = scanned
        }
        if let previousUnit, unit.rawValue <= previousUnit.rawValue { return .failure(.malformed) }
        previousUnit = unit
        // Read on to the end: a mistake later on is the one to report.
        if let nanoseconds = number.nanoseconds(per: unit.nanoseconds), !tooLong {
            total += nanoseconds
            tooLong = total > Int128(Int64.max)
        } else {
            tooLong = true
        }
    } while position < bytes.count
    return tooLong ? .failure(.tooLong) : .success(.nanoseconds(Int64(total)))
}

/// A unit of a DURATION term; terms must come in the order of the cases.
private enum DurationUnit: Int {
    case hour, minute, second, millisecond

    var nanoseconds: Int128 {
        switch self {
        case .hour: 3_600_000_000_000
        case .minute: 60_000_000_000
        case .second: 1_000_000_000
        case .millisecond: 1_000_000
        }
    }

    static func scan(_ bytes: [UInt8], at position: inout Int) -> DurationUnit? {
        func byte(_ offset: Int) -> UInt8? {
            position + offset < bytes.count ? bytes[position + offset] : nil
        }
        let unit: DurationUnit
        let length: Int
        switch (byte(0), byte(1)) {
        case (UInt8(ascii: "m"), UInt8(ascii: "s")): (unit, length) = (.millisecond, 2)
        case (UInt8(ascii: "h"), _): (unit, length) = (.hour, 1)
        case (UInt8(ascii: "m"), _): (unit, length) = (.minute, 1)
        case (UInt8(ascii: "s"), _): (unit, length) = (.second, 1)
        default: return nil
        }
        position += length
        return unit
    }
}

/// The digits of an unsigned decimal number, kept exact (no floating point).
private struct DecimalNumber {
    var whole: Int128
    var fraction: ArraySlice<UInt8>  // ASCII digits after the point

    /// Digits, optionally followed by `.` and digits; or `.` and digits.
    static func scan(_ bytes: [UInt8], at position: inout Int) -> DecimalNumber? {
        var number = DecimalNumber(whole: 0, fraction: [])
        var wholeDigits = 0
        while position < bytes.count, let digit = digitValue(bytes[position]) {
            number.whole = number.whole * 10 + Int128(digit)
            // Past this, any unit overflows; stopping here keeps the arithmetic in range.
            guard number.whole <= Int128(Int64.max) else { return nil }
            position += 1
            wholeDigits += 1
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            let start = position
            while position < bytes.count, digitValue(bytes[position]) != nil { position += 1 }
            number.fraction = bytes[start..<position]
            guard !number.fraction.isEmpty else { return nil }
        } else if wholeDigits == 0 {
            return nil
        }
        return number
    }

    /// This number times `unit`, the fraction rounded up to a whole nanosecond;
    /// nil past `Int64.max`.
    func nanoseconds(per unit: Int128) -> Int128? {
        let (wholePart, overflow) = whole.multipliedReportingOverflow(by: unit)
        guard !overflow, wholePart <= Int128(Int64.max) else { return nil }
        // 18 digits hold every nanosecond of an hour's fraction; later digits only matter
        // for rounding up, and keep the product well inside Int128.
        let kept = fraction.prefix(18)
        var numerator: Int128 = 0
        var denominator: Int128 = 1
        for digit in kept {
            numerator = numerator * 10 + Int128(digit - UInt8(ascii: "0"))
            denominator *= 10
        }
        let product = numerator * unit
        var fractionPart = product / denominator
        let droppedNonZero = fraction.dropFirst(18).contains { $0 != UInt8(ascii: "0") }
        if product % denominator != 0 || droppedNonZero { fractionPart += 1 }
        return wholePart + fractionPart
    }
}

private func digitValue(_ byte: UInt8) -> Int? {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
}

/// A DURATION as `parseDuration` reads it back exactly: `off`, `15m`, `1h30m`, `250ms`,
/// `1.5s`.
func formatDuration(_ duration: Duration) -> String {
    guard duration > .zero else { return "off" }
    let second: Int64 = 1_000_000_000
    let millisecond: Int64 = 1_000_000
    var text = ""
    var rest = duration.wholeNanoseconds
    for (unit, name) in [(3600 * second, "h"), (60 * second, "m")] where rest >= unit {
        text += "\(rest / unit)\(name)"
        rest %= unit
    }
    if rest == 0 { return text }
    if rest % second == 0 { return text + "\(rest / second)s" }
    if rest < second && rest % millisecond == 0 { return text + "\(rest / millisecond)ms" }
    var fraction = String(rest % second)
    fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
    while fraction.last == "0" { fraction.removeLast() }
    return text + "\(rest / second).\(fraction)s"
}

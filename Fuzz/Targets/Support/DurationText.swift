/// DURATION texts for a number of nanoseconds, written two ways; each must
/// parse back to exactly that number (idlewrap has no renderer of its own).

/// Seconds with a nine-digit fraction: `90.000000000s`, or `0` for off.
func secondsText(_ nanoseconds: Int64) -> String {
    guard nanoseconds != 0 else { return "0" }
    let fraction = String(nanoseconds % 1_000_000_000)
    let padded = String(repeating: "0", count: 9 - fraction.count) + fraction
    return "\(nanoseconds / 1_000_000_000).\(padded)s"
}

/// Every unit once, largest first: `1h2m3s4.000005ms`, `off` for off.
func unitsText(_ nanoseconds: Int64) -> String {
    guard nanoseconds != 0 else { return "off" }
    var left = nanoseconds
    var text = ""
    for (unit, size) in [("h", Int64(3_600_000_000_000)), ("m", 60_000_000_000), ("s", 1_000_000_000)] {
        text += "\(left / size)\(unit)"
        left %= size
    }
    let fraction = String(left % 1_000_000)
    return text + "\(left / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count) + fraction)ms"
}

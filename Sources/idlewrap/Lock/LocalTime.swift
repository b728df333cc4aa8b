import Glibc

/// Wall-clock times as the user reads them, in the local time zone.
enum LocalTime {
    /// `time` formatted by strftime(3) `format` in local time.
    static func text(_ time: time_t, format: String) -> String {
        var clock = time
        var parts = tm()
        localtime_r(&clock, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `HH:MM`, for the lock screen's notes.
    static func hourAndMinute(_ time: time_t) -> String {
        text(time, format: "%H:%M")
    }
}

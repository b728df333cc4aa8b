import Glibc

/// What the lock screen says about the command's output read while locked: how many
/// lines and when the last one came, never a byte of what it says. Only output idlewrap
/// read counts: past `--hold-limit` the command waits to write, so nothing more arrives.
struct OutputArrival: Equatable {
    private var newlines = 0
    /// The last output did not end its line; that line counts too.
    private var lineIsOpen = false
    private(set) var lastAt: time_t?

    /// Lines begun, a last line without its newline included.
    var lines: Int { newlines + (lineIsOpen ? 1 : 0) }

    mutating func note(_ bytes: UnsafeRawBufferPointer, at time: time_t) {
        guard let last = bytes.last else { return }
        var count = 0
        for byte in bytes where byte == 0x0A { count += 1 }
        newlines += count
        lineIsOpen = last != 0x0A
        lastAt = time
    }

    /// `New output: 3 lines, last at 14:05`, or nil if nothing arrived.
    var text: String? {
        guard let lastAt else { return nil }
        let count = lines == 1 ? "1 line" : "\(lines) lines"
        return "New output: \(count), last at \(LocalTime.hourAndMinute(lastAt))"
    }
}

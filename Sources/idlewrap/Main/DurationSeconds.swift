import PTYKit

extension Duration {
    /// Whole seconds, the rest dropped; 0 for a negative duration: an idle time.
    var wholeSeconds: Int {
        Int(max(0, wholeNanoseconds) / 1_000_000_000)
    }

    /// Whole seconds, a part of one counting as one; 0 for a negative duration: a
    /// time left.
    var secondsRoundedUp: Int {
        Int((max(0, wholeNanoseconds) + 999_999_999) / 1_000_000_000)
    }
}

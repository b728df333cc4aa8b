extension OutputParser {
    /// The parameters, private marker and intermediates of the escape or control sequence
    /// being parsed, in fixed inline storage (no allocation).
    struct CollectedSequence: Sendable {
        /// Williams' minimum; later parameters are dropped and the sequence still dispatches.
        static let maximumParameterCount = 16  // the size of `finished`
        /// Values saturate here: large enough for every mode number in use, small enough
        /// that `value * 10 + 9` cannot overflow.
        static let maximumParameterValue: UInt32 = 65_535
        private static let absent = UInt32.max

        /// `<`, `=`, `>` or `?` right after CSI, or 0.
        private(set) var marker: UInt8 = 0
        /// The first intermediate byte (0x20-0x2F), or 0.
        private(set) var intermediate: UInt8 = 0
        /// More than one intermediate: no sequence idlewrap tracks has that.
        private(set) var hasExtraIntermediates = false
        /// Parameters seen so far, at most `maximumParameterCount`; 0 when there were no
        /// parameter bytes at all.
        private(set) var parameterCount = 0
        private var droppingParameters = false
        /// The last parameter, still being read; kept out of `finished` until its `;` so
        /// that each digit updates a scalar.
        private var current = absent
        /// Parameters before the last one; slots at and above `parameterCount - 1` are stale.
        private var finished = InlineArray<16, UInt32>(repeating: 0)

        mutating func clear() {
            marker = 0
            intermediate = 0
            hasExtraIntermediates = false
            parameterCount = 0
            droppingParameters = false
            current = Self.absent
        }

        mutating func collect(_ byte: UInt8) {
            if (0x3C...0x3F).contains(byte) {
                marker = byte
            } else if intermediate == 0 {
                intermediate = byte
            } else {
                hasExtraIntermediates = true
            }
        }

        mutating func param(_ byte: UInt8) {
            if parameterCount == 0 {
                parameterCount = 1
            }
            guard !droppingParameters else { return }
            if byte == UInt8(ascii: ";") {
                if parameterCount < Self.maximumParameterCount {
                    finished[parameterCount - 1] = current
                    parameterCount += 1
                    current = Self.absent
                } else {
                    droppingParameters = true
                }
                return
            }
            let previous = current == Self.absent ? 0 : current
            current = min(previous &* 10 &+ UInt32(byte &- UInt8(ascii: "0")), Self.maximumParameterValue)
        }

        /// Parameter `index`, or `defaultValue` if it is missing or empty.
        func parameter(_ index: Int, default defaultValue: UInt32) -> UInt32 {
            guard index < parameterCount else { return defaultValue }
            let value = index == parameterCount - 1 ? current : finished[index]
            return value == Self.absent ? defaultValue : value
        }
    }

    /// The command number at the start of an OSC string (`0` in `ESC ] 0 ; title BEL`).
    struct OSCCommand: Sendable {
        private enum Phase: Sendable {
            case number, afterSeparator, malformed
        }

        private var phase = Phase.number
        private var number: UInt32 = 0

        /// While true, the string's bytes still matter; afterwards they can be skipped.
        var isReadingNumber: Bool { phase == .number }

        /// OSC 0 (icon name and title) and OSC 2 (title) set the window title.
        var setsWindowTitle: Bool { phase == .afterSeparator && number <= 2 }

        mutating func put(_ byte: UInt8) {
            guard phase == .number else { return }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                number = min(number * 10 + UInt32(byte - UInt8(ascii: "0")), CollectedSequence.maximumParameterValue)
            case UInt8(ascii: ";"):
                phase = .afterSeparator
            default:
                phase = .malformed
            }
        }
    }
}

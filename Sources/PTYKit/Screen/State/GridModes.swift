/// The modes the grid's state keeps (their rows' owner: .screen, ModeTable.swift), but for
/// DECLRMM (Margins) and the cursor's blinking (Cursor): where text goes and how the
/// screen shows.
struct GridModes {
    /// DECOM (mode 6): cursor positions are relative to the margins.
    var origin = false
    /// DECAWM (mode 7).
    var autowrap = true
    /// IRM (mode 4).
    var insert = false
    /// LNM (mode 20): a line feed also returns the carriage.
    var newline = false
    /// DECSCNM (mode 5).
    var reverseVideo = false

    /// The modes on, one bit each, at its TerminalMode's raw value.
    var bits: UInt64 {
        @inline(__always) get {
            Self.bit(.origin, origin) | Self.bit(.autowrap, autowrap) | Self.bit(.insert, insert)
                | Self.bit(.lineFeedNewLine, newline) | Self.bit(.reverseVideo, reverseVideo)
        }
    }

    /// The modes kept here, numbered as in `bits`.
    static let kept = GridModes(origin: true, autowrap: true, insert: true, newline: true, reverseVideo: true).bits

    @inline(__always)
    private static func bit(_ mode: TerminalMode, _ on: Bool) -> UInt64 {
        on ? 1 &<< UInt64(mode.rawValue) : 0
    }
}

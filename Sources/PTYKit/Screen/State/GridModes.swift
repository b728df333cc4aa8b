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
}

/// A terminal mode the model follows or idlewrap writes, by name. Its number, kind (DEC
/// private or ANSI), usual state and owner are its row in `ModeTable.swift`.
public enum TerminalMode: UInt8, CaseIterable, Sendable {
    // ANSI modes (SM / RM).
    case keyboardAction, insert, sendReceive, lineFeedNewLine
    // DEC private modes (DECSET / DECRST).
    case applicationCursorKeys, columns132, reverseVideo, origin, autowrap, x10Mouse, cursorBlink, cursorVisible
    case alternateScreen47, numericKeypad, leftRightMargins
    case normalMouse, highlightMouse, buttonEventMouse, anyEventMouse, focusEvents
    case utf8Mouse, sgrMouse, urxvtMouse, sgrPixelMouse, bracketedPaste
    case alternateScreen1047, saveCursor1048, alternateScreen1049
    case termcapKeys, sunKeys, hpKeys, scoKeys, legacyKeyboard, vt220Keyboard
    case synchronizedOutput, colourSchemeReports, inBandResize, win32Input

    /// Its row.
    var row: ModeRow { ModeRow.rows[Int(rawValue)] }

    /// The number SM, RM, DECSET and DECRST give it.
    public var number: Int { Int(row.number) }

    /// A DEC private mode (DECSET / DECRST), else an ANSI one (SM / RM).
    public var isPrivate: Bool { row.isPrivate }

    /// The DEC private mode `number`, if it has a row.
    public init?(privateNumber number: Int) {
        guard let mode = ModeRow.lookUp(number, isPrivate: true) else { return nil }
        self = mode
    }

    /// The ANSI mode `number`, if it has a row.
    public init?(ansiNumber number: Int) {
        guard let mode = ModeRow.lookUp(number, isPrivate: false) else { return nil }
        self = mode
    }
}

// Every terminal mode the model follows or idlewrap writes, one row each, as Ghostty's
// modes.zig entries: the mode, its number, DEC private or ANSI, its usual state (after RIS)
// and its owner, the one place that decides what switching it does. Rows are in the order
// of TerminalMode's cases (ModeTableTests checks it); the input modes' rows are in the
// order the lock writes them.
//
// To add a mode: a case, a row here (one line, the form Tools/generate-control-functions.py
// reads), its handling by its owner; rerun the script when the owner is the alternate
// screen's (the redraw skip keeps DECSET and DECRST lists naming those).

/// Who keeps a mode, and so decides what switching it does.
enum ModeOwner: Sendable {
    /// The grid's state (ScreenState), which the repaint writes again.
    case screen
    /// The alternate screen (AlternateScreen.swift): switching screens, the cursor saved
    /// with them. The redraw skip keeps a DECSET or DECRST naming one of these.
    case alternateScreen
    /// ScreenModes: a mode that makes the terminal send input by itself or encode keys
    /// differently, switched off while locked and at exit (ScreenModesOutput.swift).
    case input
    /// ScreenModes' application keypad, which DECKPAM and DECKPNM switch too, and by
    /// which the lock writes it.
    case keypad
    /// ScreenModes: the cursor's visibility, which the repaint and the lock screen set.
    case cursor
    /// Not followed: written by the repaint alone.
    case repaint
}

/// Modes of which xterm keeps one on at a time (ScreenModes.set).
enum ModeGroup: Sendable {
    /// Setting one replaces another; resetting any leaves none.
    case mouseTracking, keyboardType
    /// Setting one replaces another; only its own number resets one.
    case mouseEncoding
    /// Setting one replaces another; leaving by any number leaves.
    case screen
}

/// One row of the table.
struct ModeRow: Sendable {
    let mode: TerminalMode
    let number: UInt16
    let isPrivate: Bool
    /// Its mnemonic or what it is, for the reader.
    let name: StaticString
    /// Its state after RIS.
    let usuallySet: Bool
    let owner: ModeOwner
    let group: ModeGroup?
    /// Forced to its usual state at every lock, whatever the model believes: left on, it
    /// would lock a password out or show it (ScreenModes.appendLockOutModesOff).
    let isLockOut: Bool
    /// The state the scroll-ahead's walk of plain text assumes the mode in, nil where it
    /// walks either way (ScreenStateScrollAhead.isWalkable): text goes to the last column,
    /// wraps, and inserts nothing.
    let walksWhen: Bool?

    init(
        _ mode: TerminalMode, ansi: UInt16? = nil, dec: UInt16? = nil, _ name: StaticString, usually: Bool = false,
        owner: ModeOwner, group: ModeGroup? = nil, lockOut: Bool = false, walksWhen: Bool? = nil
    ) {
        self.mode = mode
        self.number = ansi ?? dec!
        self.isPrivate = dec != nil
        self.name = name
        self.usuallySet = usually
        self.owner = owner
        self.group = group
        self.isLockOut = lockOut
        self.walksWhen = walksWhen
    }
}

extension ModeRow {
    /// The script reads these rows: one to a line.
    static let rows: [ModeRow] = [
        ModeRow(.keyboardAction, ansi: 2, "KAM", owner: .input, lockOut: true),
        ModeRow(.insert, ansi: 4, "IRM", owner: .screen, walksWhen: false),
        ModeRow(.sendReceive, ansi: 12, "SRM", usually: true, owner: .input, lockOut: true),
        ModeRow(.lineFeedNewLine, ansi: 20, "LNM", owner: .screen),
        ModeRow(.applicationCursorKeys, dec: 1, "DECCKM", owner: .input),
        ModeRow(.columns132, dec: 3, "DECCOLM", owner: .screen),
        ModeRow(.reverseVideo, dec: 5, "DECSCNM", owner: .screen),
        ModeRow(.origin, dec: 6, "DECOM", owner: .screen),
        ModeRow(.autowrap, dec: 7, "DECAWM", usually: true, owner: .screen, walksWhen: true),
        ModeRow(.x10Mouse, dec: 9, "X10 mouse", owner: .input, group: .mouseTracking),
        ModeRow(.cursorBlink, dec: 12, "blinking cursor", owner: .screen),
        ModeRow(.cursorVisible, dec: 25, "DECTCEM", usually: true, owner: .cursor),
        ModeRow(.alternateScreen47, dec: 47, "alternate screen", owner: .alternateScreen, group: .screen),
        ModeRow(.numericKeypad, dec: 66, "DECNKM", owner: .keypad),
        ModeRow(.leftRightMargins, dec: 69, "DECLRMM", owner: .screen),
        ModeRow(.normalMouse, dec: 1000, "normal mouse", owner: .input, group: .mouseTracking),
        ModeRow(.highlightMouse, dec: 1001, "highlight mouse", owner: .input, group: .mouseTracking),
        ModeRow(.buttonEventMouse, dec: 1002, "button-event mouse", owner: .input, group: .mouseTracking),
        ModeRow(.anyEventMouse, dec: 1003, "any-event mouse", owner: .input, group: .mouseTracking),
        ModeRow(.focusEvents, dec: 1004, "focus events", owner: .input),
        ModeRow(.utf8Mouse, dec: 1005, "UTF-8 mouse", owner: .input, group: .mouseEncoding),
        ModeRow(.sgrMouse, dec: 1006, "SGR mouse", owner: .input, group: .mouseEncoding),
        ModeRow(.urxvtMouse, dec: 1015, "urxvt mouse", owner: .input, group: .mouseEncoding),
        ModeRow(.sgrPixelMouse, dec: 1016, "SGR-pixels mouse", owner: .input, group: .mouseEncoding),
        ModeRow(.bracketedPaste, dec: 2004, "bracketed paste", owner: .input),
        ModeRow(.alternateScreen1047, dec: 1047, "alternate screen", owner: .alternateScreen, group: .screen),
        ModeRow(.saveCursor1048, dec: 1048, "save cursor", owner: .alternateScreen),
        ModeRow(.alternateScreen1049, dec: 1049, "alt screen, DECSC", owner: .alternateScreen, group: .screen),
        ModeRow(.termcapKeys, dec: 1050, "termcap keys", owner: .input, group: .keyboardType),
        ModeRow(.sunKeys, dec: 1051, "Sun keys", owner: .input, group: .keyboardType),
        ModeRow(.hpKeys, dec: 1052, "HP keys", owner: .input, group: .keyboardType),
        ModeRow(.scoKeys, dec: 1053, "SCO keys", owner: .input, group: .keyboardType),
        ModeRow(.legacyKeyboard, dec: 1060, "legacy keyboard", owner: .input, group: .keyboardType),
        ModeRow(.vt220Keyboard, dec: 1061, "VT220 keyboard", owner: .input, group: .keyboardType),
        ModeRow(.synchronizedOutput, dec: 2026, "synchronized output", owner: .repaint),
        ModeRow(.colourSchemeReports, dec: 2031, "colour-scheme reports", owner: .input),
        ModeRow(.inBandResize, dec: 2048, "in-band resize", owner: .input),
        ModeRow(.win32Input, dec: 9001, "win32-input-mode", owner: .input, lockOut: true),
    ]

    // MARK: - Looking a mode up

    /// The modes numbered below `directCount`, by number (the case's raw value + 1, 0 for
    /// none): the common ones are found without a search.
    private static let directCount = 128
    private static let directPrivate = direct(isPrivate: true)
    private static let directANSI = direct(isPrivate: false)
    /// The private modes numbered from `directCount` on: searched.
    private static let highPrivate = ContiguousArray(rows.filter { $0.isPrivate && $0.number >= directCount })

    private static func direct(isPrivate: Bool) -> ContiguousArray<UInt8> {
        var table = ContiguousArray<UInt8>(repeating: 0, count: directCount)
        for row in rows where row.isPrivate == isPrivate && row.number < directCount {
            table[Int(row.number)] = row.mode.rawValue &+ 1
        }
        return table
    }

    static func lookUp(_ number: Int, isPrivate: Bool) -> TerminalMode? {
        if number >= 0 && number < directCount {
            let entry = (isPrivate ? directPrivate : directANSI)[number]
            return entry == 0 ? nil : TerminalMode(rawValue: entry &- 1)
        }
        guard isPrivate else { return nil }
        for row in highPrivate where Int(row.number) == number { return row.mode }
        return nil
    }
}

/// The terminal modes a program turned on through its output that the lock and the exit
/// restore care about: those that make the terminal send input by itself or encode keys
/// differently, the cursor's visibility, the alternate screen, and whether a title or
/// window name was set.
///
/// When terminals disagree about a sequence, the model leans towards "off" for modes the lock
/// would restore: a mode wrongly believed off only lets a few escape sequences into the
/// lock prompt (which ignores them), whereas a mode wrongly believed on would be switched on
/// at unlock behind the back of a program that had turned it off.
public struct ScreenModes: Equatable, Sendable {
    private var privateModes: PrivateModes = .cursorVisible
    public private(set) var applicationKeypad = false
    public private(set) var titleWasSet = false
    /// tmux's window name, set by `ESC k name ST`.
    public private(set) var windowNameWasSet = false
    public private(set) var modifyOtherKeys = 0
    /// KAM (`CSI 2 h`): the terminal ignores every key (xterm).
    public private(set) var keyboardLocked = false
    /// SRM reset (`CSI 12 l`): the terminal echoes every key itself (xterm), a typed
    /// password included. Set, SRM's usual state, it does not.
    public private(set) var localEcho = false
    // The kitty protocol keeps one stack per screen.
    private(set) var mainScreenKeyboard = KittyKeyboardStack()
    private(set) var alternateScreenKeyboard = KittyKeyboardStack()

    private init() {}

    /// A terminal after reset: cursor visible, every other mode off.
    public static let initial = ScreenModes()

    /// True while any of DEC private modes 47, 1047, 1049 shows the alternate screen.
    public var alternateScreen: Bool { !privateModes.isDisjoint(with: .alternateScreen) }

    /// DEC private mode 25 (DECTCEM).
    public var cursorVisible: Bool { privateModes.contains(.cursorVisible) }

    /// Whether DEC private `mode` is on, for 1, 9, 25, 47, 1000-1006, 1015, 1016, 1047, 1049,
    /// 1050-1053, 1060, 1061, 2004, 2031, 2048 and 9001; false for every other mode.
    public func isSet(privateMode mode: Int) -> Bool {
        guard let flag = PrivateModes(mode: mode) else { return false }
        return privateModes.contains(flag)
    }

    /// The kitty keyboard protocol flags in force: the top of the current screen's stack.
    public var kittyKeyboardFlags: UInt32 { keyboard.current }

    /// The kitty keyboard flags each screen's stack has in force.
    public var kittyKeyboardFlagsByScreen: (main: UInt32, alternate: UInt32) {
        (mainScreenKeyboard.current, alternateScreenKeyboard.current)
    }

    /// How many kitty keyboard entries the stream pushed onto each screen's stack: what a
    /// program that leaves for good must pop.
    public var kittyKeyboardDepth: (main: Int, alternate: Int) {
        (mainScreenKeyboard.depth, alternateScreenKeyboard.depth)
    }

    private var keyboard: KittyKeyboardStack {
        get { alternateScreen ? alternateScreenKeyboard : mainScreenKeyboard }
        set {
            if alternateScreen {
                alternateScreenKeyboard = newValue
            } else {
                mainScreenKeyboard = newValue
            }
        }
    }

    mutating func setPrivateMode(_ mode: Int, on: Bool) {
        guard let flag = PrivateModes(mode: mode) else {
            if mode == 66 {  // DECNKM: the same switch as DECKPAM/DECKPNM
                applicationKeypad = on
            }
            return
        }
        // xterm keeps one mouse tracking mode, one keyboard type, one coordinate encoding
        // and one screen: setting a tracking mode or keyboard type replaces the previous one
        // and resetting any of them goes back to none (the default keyboard); an encoding is
        // reset only by its own number; leaving the alternate screen by any of its numbers
        // leaves it.
        if PrivateModes.mouseTracking.contains(flag) {
            privateModes.subtract(.mouseTracking)
        } else if PrivateModes.keyboardType.contains(flag) {
            privateModes.subtract(.keyboardType)
        } else if PrivateModes.mouseEncoding.contains(flag), on {
            privateModes.subtract(.mouseEncoding)
        } else if PrivateModes.alternateScreen.contains(flag), !on {
            privateModes.subtract(.alternateScreen)
        }
        if on {
            privateModes.insert(flag)
        } else {
            privateModes.remove(flag)
        }
    }

    /// SM / RM of an ANSI mode; only KAM and SRM change what keys do.
    mutating func setANSIMode(_ mode: Int, on: Bool) {
        switch mode {
        case 2: keyboardLocked = on
        case 12: localEcho = !on
        default: break
        }
    }

    mutating func noteWindowTitleSet() {
        titleWasSet = true
    }

    mutating func noteWindowNameSet() {
        windowNameWasSet = true
    }

    /// DECSTR. xterm resets the cursor, cursor keys, keypad, modifyOtherKeys and KAM; newer
    /// tmux also mouse, focus and paste modes: all of those are reset here, and the other
    /// private modes too. No terminal leaves the alternate screen, and the kitty stacks stay
    /// (over-estimating them is harmless: the lock pushes and pops). SRM stays, as in xterm.
    /// (A terminal that keeps a key mode the model believes reset cannot lock the password
    /// out: the lock turns the modes that would off whatever the model believes.)
    mutating func softReset() {
        privateModes = privateModes.intersection(.alternateScreen).union(.cursorVisible)
        applicationKeypad = false
        modifyOtherKeys = 0
        keyboardLocked = false
    }

    /// RIS. The window title survives a reset in xterm and the window name in tmux, so
    /// `titleWasSet` and `windowNameWasSet` do too.
    mutating func fullReset() {
        let (titleWasSet, windowNameWasSet) = (titleWasSet, windowNameWasSet)
        self = .initial
        self.titleWasSet = titleWasSet
        self.windowNameWasSet = windowNameWasSet
    }

    /// The same modes, as if no title or window name had been set: what a screen shows.
    var withoutTitles: ScreenModes {
        var modes = self
        modes.titleWasSet = false
        modes.windowNameWasSet = false
        return modes
    }

    /// The same cursor visibility and alternate screen, every input mode off: what the
    /// repaint sets (the input modes are switched separately).
    var withoutInputModes: ScreenModes {
        var modes = ScreenModes.initial
        modes.privateModes = privateModes.intersection(PrivateModes.alternateScreen.union(.cursorVisible))
        return modes
    }

    // MARK: - Sequences

    mutating func applyEscapeSequence(_ function: ControlFunction) {
        switch function {
        case .deckpam: applicationKeypad = true
        case .deckpnm: applicationKeypad = false
        case .ris: fullReset()
        default: break
        }
    }

    /// Everything not listed is ignored, notably the queries `CSI ? u` (kitty flags) and
    /// DECRQM, and XTSAVE/XTRESTORE (`CSI ? Pm s` / `CSI ? Pm r`): a restore can turn a mode
    /// back on unseen, which errs on the harmless side. The caller ignores a sequence with
    /// sub-parameters: no mode is set with them.
    @inline(__always)
    mutating func applyControlSequence(_ function: ControlFunction, _ sequence: UnsafePointer<SequenceParameters>) {
        switch function {
        case .decset: setPrivateModes(sequence, on: true)
        case .decrst: setPrivateModes(sequence, on: false)
        case .decstr: softReset()
        case .kittyKeyboardPush: keyboard.push(sequence.pointee.parameter(0, default: 0))
        case .kittyKeyboardPop:  // an explicit 0 pops nothing
            keyboard.pop(count: Int(sequence.pointee.parameter(0, default: 1)))
        case .kittyKeyboardSet:
            keyboard.change(sequence.pointee.parameter(0, default: 0), mode: sequence.pointee.parameter(1, default: 1))
        case .xtmodkeys:
            // Without parameters every resource is reset; a missing value resets one.
            if sequence.pointee.parameterCount == 0 {
                modifyOtherKeys = 0
            } else if sequence.pointee.parameter(0, default: 0) == 4 {
                modifyOtherKeys = Int(sequence.pointee.parameter(1, default: 0))
            }
        case .xtmodkeysDisable:
            if sequence.pointee.parameter(0, default: 0) == 4 {
                modifyOtherKeys = 0
            }
        default:
            break
        }
    }

    private mutating func setPrivateModes(_ sequence: UnsafePointer<SequenceParameters>, on: Bool) {
        for index in 0..<sequence.pointee.parameterCount {
            setPrivateMode(Int(sequence.pointee.parameter(index, default: 0)), on: on)
        }
    }

    /// An OSC string: OSC 0, 1 and 2 set the window title (the icon title shows as a tab
    /// title), however the string ended and whatever its length.
    mutating func applyOperatingSystemCommand(_ payload: ControlString) {
        if let command = payload.oscCommand(), command.hasSeparator, command.number <= 2 {
            titleWasSet = true
        }
    }
}

extension ScreenModes {
    /// The tracked DEC private modes, one bit each.
    struct PrivateModes: OptionSet, Equatable, Sendable {
        let rawValue: UInt32

        static let applicationCursorKeys = PrivateModes(rawValue: 1 << 0)  // 1
        static let x10Mouse = PrivateModes(rawValue: 1 << 1)  // 9
        static let cursorVisible = PrivateModes(rawValue: 1 << 2)  // 25
        static let alternateScreen47 = PrivateModes(rawValue: 1 << 3)  // 47
        static let normalMouse = PrivateModes(rawValue: 1 << 4)  // 1000
        static let highlightMouse = PrivateModes(rawValue: 1 << 5)  // 1001
        static let buttonEventMouse = PrivateModes(rawValue: 1 << 6)  // 1002
        static let anyEventMouse = PrivateModes(rawValue: 1 << 7)  // 1003
        static let focusEvents = PrivateModes(rawValue: 1 << 8)  // 1004
        static let utf8Mouse = PrivateModes(rawValue: 1 << 9)  // 1005
        static let sgrMouse = PrivateModes(rawValue: 1 << 10)  // 1006
        static let urxvtMouse = PrivateModes(rawValue: 1 << 11)  // 1015
        static let sgrPixelMouse = PrivateModes(rawValue: 1 << 12)  // 1016
        static let alternateScreen1047 = PrivateModes(rawValue: 1 << 13)  // 1047
        static let alternateScreen1049 = PrivateModes(rawValue: 1 << 14)  // 1049
        static let bracketedPaste = PrivateModes(rawValue: 1 << 15)  // 2004
        static let termcapKeys = PrivateModes(rawValue: 1 << 16)  // 1050
        static let sunKeys = PrivateModes(rawValue: 1 << 17)  // 1051
        static let hpKeys = PrivateModes(rawValue: 1 << 18)  // 1052
        static let scoKeys = PrivateModes(rawValue: 1 << 19)  // 1053
        static let legacyKeyboard = PrivateModes(rawValue: 1 << 20)  // 1060
        static let vt220Keyboard = PrivateModes(rawValue: 1 << 21)  // 1061
        static let colourSchemeReports = PrivateModes(rawValue: 1 << 22)  // 2031
        static let inBandResize = PrivateModes(rawValue: 1 << 23)  // 2048
        static let win32Input = PrivateModes(rawValue: 1 << 24)  // 9001

        static let mouseTracking: PrivateModes = [
            x10Mouse, normalMouse, highlightMouse, buttonEventMouse, anyEventMouse,
        ]
        static let mouseEncoding: PrivateModes = [utf8Mouse, sgrMouse, urxvtMouse, sgrPixelMouse]
        static let keyboardType: PrivateModes = [
            termcapKeys, sunKeys, hpKeys, scoKeys, legacyKeyboard, vt220Keyboard,
        ]
        static let alternateScreen: PrivateModes = [alternateScreen47, alternateScreen1047, alternateScreen1049]

        init(rawValue: UInt32) {
            self.rawValue = rawValue
        }

        init?(mode: Int) {
            switch mode {
            case 1: self = .applicationCursorKeys
            case 9: self = .x10Mouse
            case 25: self = .cursorVisible
            case 47: self = .alternateScreen47
            case 1000: self = .normalMouse
            case 1001: self = .highlightMouse
            case 1002: self = .buttonEventMouse
            case 1003: self = .anyEventMouse
            case 1004: self = .focusEvents
            case 1005: self = .utf8Mouse
            case 1006: self = .sgrMouse
            case 1015: self = .urxvtMouse
            case 1016: self = .sgrPixelMouse
            case 1047: self = .alternateScreen1047
            case 1049: self = .alternateScreen1049
            case 2004: self = .bracketedPaste
            case 1050: self = .termcapKeys
            case 1051: self = .sunKeys
            case 1052: self = .hpKeys
            case 1053: self = .scoKeys
            case 1060: self = .legacyKeyboard
            case 1061: self = .vt220Keyboard
            case 2031: self = .colourSchemeReports
            case 2048: self = .inBandResize
            case 9001: self = .win32Input
            default: return nil
            }
        }
    }
}

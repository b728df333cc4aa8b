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
    private var modes: ModeSet = .initial
    public private(set) var applicationKeypad = false
    public private(set) var titleWasSet = false
    /// The window title itself was set (OSC 0 or 2), maybe to nothing; not only the icon
    /// name or tmux's pane title (APC).
    public private(set) var windowTitleWasSet = false
    /// tmux's window name, set by `ESC k name ST`.
    public private(set) var windowNameWasSet = false
    public private(set) var modifyOtherKeys = 0
    // The kitty protocol keeps one stack per screen.
    private(set) var mainScreenKeyboard = KittyKeyboardStack()
    private(set) var alternateScreenKeyboard = KittyKeyboardStack()

    private init() {}

    /// A terminal after reset: cursor visible, every other mode off.
    public static let initial = ScreenModes()

    /// True while any of DEC private modes 47, 1047, 1049 shows the alternate screen.
    public var alternateScreen: Bool { !modes.isDisjoint(with: ModeSet.screens) }

    /// DECTCEM.
    public var cursorVisible: Bool { modes.contains(.cursorVisible) }

    /// KAM set: the terminal ignores every key (xterm).
    public var keyboardLocked: Bool { modes.contains(.keyboardAction) }

    /// SRM reset: the terminal echoes every key itself (xterm), a typed password included.
    /// Set, SRM's usual state, it does not.
    public var localEcho: Bool { !modes.contains(.sendReceive) }

    /// Whether `mode` is on, for the modes whose owner is the input side, the cursor's
    /// visibility or a screen switch; false for every other mode (DECNKM is
    /// `applicationKeypad`, however set).
    public func isSet(_ mode: TerminalMode) -> Bool { modes.contains(mode) }

    /// `isSet` of the DEC private mode `number`; false for a number without a row.
    public func isSet(privateMode number: Int) -> Bool {
        TerminalMode(privateNumber: number).map(isSet) ?? false
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

    /// DECSET, DECRST, SM or RM of `mode`. xterm keeps one mouse tracking mode, one
    /// keyboard type, one coordinate encoding and one screen (the rows' groups).
    mutating func set(_ mode: TerminalMode, on: Bool) {
        let row = mode.row
        guard ModeSet.followed.contains(mode) else {
            if row.owner == .keypad { applicationKeypad = on }  // the same switch as DECKPAM/DECKPNM
            return
        }
        if let group = row.group {
            switch group {
            case .mouseTracking, .keyboardType: modes.subtract(ModeSet.members(of: group))
            case .mouseEncoding where on: modes.subtract(ModeSet.members(of: group))
            case .screen where !on: modes.subtract(ModeSet.members(of: group))
            case .mouseEncoding, .screen: break
            }
        }
        if on {
            modes.insert(mode)
        } else {
            modes.remove(mode)
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
        modes = modes.intersection(ModeSet.screens.union(ModeSet(.sendReceive))).union(ModeSet(.cursorVisible))
        applicationKeypad = false
        modifyOtherKeys = 0
    }

    /// RIS. The window title survives a reset in xterm and the window name in tmux, so
    /// `titleWasSet`, `windowTitleWasSet` and `windowNameWasSet` do too.
    mutating func fullReset() {
        let (titleWasSet, windowTitleWasSet, windowNameWasSet) = (titleWasSet, windowTitleWasSet, windowNameWasSet)
        self = .initial
        self.titleWasSet = titleWasSet
        self.windowTitleWasSet = windowTitleWasSet
        self.windowNameWasSet = windowNameWasSet
    }

    /// The same modes, as if no title or window name had been set: what a screen shows.
    var withoutTitles: ScreenModes {
        var modes = self
        modes.titleWasSet = false
        modes.windowTitleWasSet = false
        modes.windowNameWasSet = false
        return modes
    }

    /// The same cursor visibility and alternate screen, every input mode off: what the
    /// repaint sets (the input modes are switched separately).
    var withoutInputModes: ScreenModes {
        var shown = ScreenModes.initial
        let kept = ModeSet.screens.union(ModeSet(.cursorVisible))
        shown.modes = shown.modes.subtracting(kept).union(modes.intersection(kept))
        return shown
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

    /// An OSC string: OSC 0, 1 and 2 set the window title (the icon title shows as a tab
    /// title), however the string ended and whatever its length.
    mutating func applyOperatingSystemCommand(_ payload: ControlString) {
        if let command = payload.oscCommand(), command.hasSeparator, command.number <= 2 {
            titleWasSet = true
            if command.number != 1 { windowTitleWasSet = true }
        }
    }
}

extension ScreenModes {
    /// A set of modes, one bit each by case.
    struct ModeSet: OptionSet, Equatable, Sendable {
        let rawValue: UInt64

        init(rawValue: UInt64) {
            self.rawValue = rawValue
        }

        init(_ mode: TerminalMode) {
            rawValue = 1 &<< UInt64(mode.rawValue)
        }

        init(_ rows: some Sequence<ModeRow>) {
            rawValue = rows.reduce(0) { $0 | ModeSet($1.mode).rawValue }
        }

        /// The modes ScreenModes follows: the input side's, the cursor's visibility and the
        /// screen switches.
        static let followed = ModeSet(
            ModeRow.rows.filter { [.input, .cursor].contains($0.owner) || $0.group == .screen })

        /// The followed modes in their usual states.
        static let initial = followed.intersection(ModeSet(ModeRow.rows.filter(\.usuallySet)))

        private static let groups = [ModeGroup.mouseTracking, .keyboardType, .mouseEncoding, .screen].map { group in
            (group, ModeSet(ModeRow.rows.filter { $0.group == group }))
        }

        static func members(of group: ModeGroup) -> ModeSet {
            groups.first { $0.0 == group }!.1
        }

        static let screens = members(of: .screen)

        func contains(_ mode: TerminalMode) -> Bool { contains(ModeSet(mode)) }
        mutating func insert(_ mode: TerminalMode) { insert(ModeSet(mode)) }
        mutating func remove(_ mode: TerminalMode) { remove(ModeSet(mode)) }
    }
}

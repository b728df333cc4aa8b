/// A colour as the stream set it, kept in its own form so that a repaint sets it the same
/// way (`31`, `38;5;1` and `38;2;...` are different requests to a terminal): 0 is the
/// default; otherwise bits 24-25 say which form, bits 26-27 how the stream spelled it
/// (`Spelling`), and the low bytes hold the value.
struct Colour: Hashable, Sendable {
    var rawValue: UInt32

    static let `default` = Colour(rawValue: 0)
    private static let ansiKind: UInt32 = 1 << 24
    private static let indexedKind: UInt32 = 2 << 24
    private static let directKind: UInt32 = 3 << 24

    /// How the stream spelled a colour of 38, 48 or 58. Terminals read the spellings
    /// differently (one that takes no sub-parameters reads `38:2::R:G:B` as other SGRs,
    /// xterm reads `58;2;R;G;B` as attributes), so a repaint writes the one the stream
    /// wrote, and the terminal shows what it showed.
    enum Spelling: UInt32, Sendable {
        /// `38;5;N`, `38;2;R;G;B`.
        case semicolons
        /// `38:5:N`, `38:2::R:G:B` (with a colour space, empty or not).
        case colons
        /// `38:2:R:G:B`, without a colour space.
        case colonsWithoutColourSpace
    }

    /// One of the 16 colours of SGR 30-37 and 90-97 (40-47, 100-107): 0-7, and 8-15 for
    /// the bright ones.
    static func ansi(_ number: UInt32) -> Colour { Colour(rawValue: ansiKind | number) }
    /// `38;5;N`, or `38:5:N`.
    static func indexed(_ number: UInt32, _ spelling: Spelling = .semicolons) -> Colour {
        Colour(rawValue: indexedKind | spelling.rawValue << 26 | number & 0xFF)
    }
    /// `38;2;R;G;B`, or a colon form.
    static func direct(red: UInt32, green: UInt32, blue: UInt32, _ spelling: Spelling = .semicolons) -> Colour {
        Colour(
            rawValue: directKind | spelling.rawValue << 26 | (red & 0xFF) << 16 | (green & 0xFF) << 8 | blue & 0xFF)
    }

    enum Form: Equatable {
        case `default`
        case ansi(UInt8)
        case indexed(UInt8)
        case direct(UInt8, UInt8, UInt8)
    }

    var form: Form {
        let value = rawValue & 0xFF_FFFF
        switch rawValue >> 24 & 3 {
        case 1: return .ansi(UInt8(value))
        case 2: return .indexed(UInt8(value))
        case 3: return .direct(UInt8(value >> 16), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
        default: return .default
        }
    }

    var spelling: Spelling { Spelling(rawValue: rawValue >> 26 & 3) ?? .semicolons }
}

/// Character attributes other than colours, one bit each, and the underline style.
struct Attributes: OptionSet, Hashable, Sendable {
    let rawValue: UInt16

    static let bold = Attributes(rawValue: 1 << 0)
    static let dim = Attributes(rawValue: 1 << 1)
    static let italic = Attributes(rawValue: 1 << 2)
    static let blink = Attributes(rawValue: 1 << 3)
    static let inverse = Attributes(rawValue: 1 << 4)
    static let invisible = Attributes(rawValue: 1 << 5)
    static let strikethrough = Attributes(rawValue: 1 << 6)
    static let overline = Attributes(rawValue: 1 << 7)
    /// The underline style and whether it was spelled `4:N`.
    static let underlineMask = Attributes(rawValue: 0xF << 8)
    private static let underlineColonBit: UInt16 = 1 << 11

    /// 0 none, 1 single, 2 double, 3 curly, 4 dotted, 5 dashed (SGR 4:N). Setting it spells
    /// it `4` or `21` (`setUnderline(_:colon:)` for `4:N`).
    var underline: UInt16 {
        get { rawValue >> 8 & 7 }
        set { setUnderline(newValue, colon: false) }
    }

    /// Whether the underline was set as `4:N`: a terminal without sub-parameters reads
    /// `4:2` as SGR 4 and 2 (urxvt: 42), and xterm reads `21` as double underline but
    /// ignores `4:2`, so the repaint writes it as the stream did.
    var underlineSpelledWithColon: Bool { rawValue & Self.underlineColonBit != 0 }

    /// No underline is spelled one way only, so equal styles stay equal.
    mutating func setUnderline(_ style: UInt16, colon: Bool) {
        let spelling = colon && style != 0 ? Self.underlineColonBit : 0
        self = Attributes(rawValue: rawValue & ~Self.underlineMask.rawValue | (style & 7) << 8 | spelling)
    }

    /// The flags and their SGR numbers, in the order a repaint writes them.
    static let codes: [(Attributes, UInt8)] = [
        (.bold, 1), (.dim, 2), (.italic, 3), (.blink, 5), (.inverse, 7), (.invisible, 8),
        (.strikethrough, 9), (.overline, 53),
    ]
}

/// How a cell is drawn: the pen it was written with (or, for an erased cell, only the
/// background). Cells refer to one by a 16-bit id from StyleTable.
struct Style: Hashable, Sendable {
    /// The fields packed in two words, so that a pen is copied and compared (for every SGR
    /// and style look-up) in two moves and two comparisons: the foreground and background
    /// colours, then the underline colour, attributes and hyperlink.
    private var colours: UInt64
    private var rest: UInt64

    init(
        foreground: Colour = .default, background: Colour = .default, underlineColour: Colour = .default,
        attributes: Attributes = Attributes(), hyperlink: UInt16 = 0
    ) {
        colours = UInt64(foreground.rawValue) | UInt64(background.rawValue) &<< 32
        rest = UInt64(underlineColour.rawValue) | UInt64(attributes.rawValue) &<< 32 | UInt64(hyperlink) &<< 48
    }

    var foreground: Colour {
        @inline(__always) get { Colour(rawValue: colours[at: 0]) }
        @inline(__always) set { colours[at: 0] = newValue.rawValue }
    }

    var background: Colour {
        @inline(__always) get { Colour(rawValue: colours[at: 32]) }
        @inline(__always) set { colours[at: 32] = newValue.rawValue }
    }

    var underlineColour: Colour {
        @inline(__always) get { Colour(rawValue: rest[at: 0]) }
        @inline(__always) set { rest[at: 0] = newValue.rawValue }
    }

    var attributes: Attributes {
        @inline(__always) get { Attributes(rawValue: rest[at: 32]) }
        @inline(__always) set { rest[at: 32] = newValue.rawValue }
    }

    /// An OSC 8 hyperlink: its id in the model's HyperlinkTable, 0 for none.
    var hyperlink: UInt16 {
        @inline(__always) get { rest[at: 48] }
        @inline(__always) set { rest[at: 48] = newValue }
    }

    /// The two words, for hashing.
    var packed: (UInt64, UInt64) {
        @inline(__always) get { (colours, rest) }
    }

    static let plain = Style()

    /// What erasing with this pen leaves: its background only (xterm's and tmux's BCE).
    var erased: Style { Style(background: background) }

    /// Whether SGR `code` takes no parameters after it (38, 48 and 58 take a colour).
    @inline(__always)
    static func isSingleCode(_ code: UInt32) -> Bool {
        code != 38 && code != 48 && code != 58
    }

    /// Applies one SGR sequence.
    @inline(__always)
    mutating func apply(_ sequence: UnsafePointer<SequenceParameters>) {
        // Most SGRs set one thing (`0`, `1`, `31`): decided here, without the list's loop.
        let count = sequence.pointee.valueCount
        if count <= 1 {
            let code = count == 0 ? 0 : sequence.pointee.value(0) ?? 0
            if Self.isSingleCode(code) {
                apply(code)
                return
            }
        }
        applyList(sequence)
    }

    /// Applies the parameters of an SGR in turn, with their sub-parameters.
    private mutating func applyList(_ sequence: UnsafePointer<SequenceParameters>) {
        let count = sequence.pointee.valueCount
        let hasSubparameters = sequence.pointee.hasSubparameters
        var index = 0
        while index < count {
            // A parameter with sub-parameters: `4:3`, `38:2::R:G:B`, `38:5:N`.
            if hasSubparameters {
                var end = index &+ 1
                while end < count {
                    guard sequence.pointee.isSubparameter(end) else { break }
                    end &+= 1
                }
                if end > index &+ 1 {
                    applyWithSubparameters(sequence, from: index, to: end)
                    index = end
                    continue
                }
            }
            let code = sequence.pointee.value(index) ?? 0
            switch code {
            case 38, 48, 58:
                index = applyExtendedColour(code, sequence, after: index)
                continue
            default:
                apply(code)
            }
            index &+= 1
        }
    }

    private mutating func reset() {
        colours = 0
        rest &= 0xFFFF_0000_0000_0000  // SGR 0 does not end a hyperlink
    }

    /// Applies one SGR code other than 38, 48 and 58 (which take more parameters): the
    /// reset and the eight colours that most SGRs are inline, the rest in a call (inlined
    /// into the parser's loop, that switch would cost the loop the inlining of its small
    /// helpers).
    @inline(__always)
    mutating func apply(_ code: UInt32) {
        switch code {
        case 0: reset()
        case 30...37: foreground = .ansi(code &- 30)
        case 39: foreground = .default
        case 40...47: background = .ansi(code &- 40)
        case 49: background = .default
        default: applyOther(code)
        }
    }

    @inline(never)
    private mutating func applyOther(_ code: UInt32) {
        switch code {
        case 1: attributes.insert(.bold)
        case 2: attributes.insert(.dim)
        case 3: attributes.insert(.italic)
        case 4: attributes.underline = 1
        case 5, 6: attributes.insert(.blink)
        case 7: attributes.insert(.inverse)
        case 8: attributes.insert(.invisible)
        case 9: attributes.insert(.strikethrough)
        case 21: attributes.underline = 2
        case 22:
            attributes.remove(.bold)
            attributes.remove(.dim)
        case 23: attributes.remove(.italic)
        case 24: attributes.underline = 0
        case 25: attributes.remove(.blink)
        case 27: attributes.remove(.inverse)
        case 28: attributes.remove(.invisible)
        case 29: attributes.remove(.strikethrough)
        case 53: attributes.insert(.overline)
        case 55: attributes.remove(.overline)
        case 59: underlineColour = .default
        case 90...97: foreground = .ansi(code - 90 + 8)
        case 100...107: background = .ansi(code - 100 + 8)
        default: break
        }
    }

    private mutating func setColour(_ code: UInt32, _ colour: Colour) {
        switch code {
        case 38: foreground = colour
        case 48: background = colour
        default: underlineColour = colour
        }
    }

    /// `38;5;N` and `38;2;R;G;B` (48 and 58 alike); returns the index after them. A missing
    /// or bad form consumes what tmux consumes.
    private mutating func applyExtendedColour(
        _ code: UInt32, _ sequence: UnsafePointer<SequenceParameters>, after index: Int
    ) -> Int {
        switch sequence.pointee.value(index &+ 1) {
        case 5:
            guard let number = sequence.pointee.value(index &+ 2), number <= 255 else {
                if code != 58 { setColour(code, .default) }
                return index &+ 3
            }
            setColour(code, .indexed(number))
            return index &+ 3
        case 2:
            if let red = sequence.pointee.value(index &+ 2), let green = sequence.pointee.value(index &+ 3),
                let blue = sequence.pointee.value(index &+ 4), red <= 255, green <= 255, blue <= 255
            {
                setColour(code, .direct(red: red, green: green, blue: blue))
                return index &+ 5
            }
            return index &+ 2
        default:
            return index &+ 2
        }
    }

    /// The ISO 8613-6 forms with `:`: `4:N` (underline style), `38:5:N`, `38:2:[space]:R:G:B`.
    private mutating func applyWithSubparameters(
        _ sequence: UnsafePointer<SequenceParameters>, from start: Int, to end: Int
    ) {
        let count = end - start
        let code = sequence.pointee.value(start) ?? 0
        if code == 4 {
            guard count == 2 else { return }
            let style = sequence.pointee.value(start + 1) ?? 0
            if style <= 5 { attributes.setUnderline(UInt16(style), colon: true) }
            return
        }
        guard count >= 2, code == 38 || code == 48 || code == 58 else { return }
        switch sequence.pointee.value(start + 1) {
        case 5:
            guard count >= 3 else { return }
            if let number = sequence.pointee.value(start + 2), number <= 255 {
                setColour(code, .indexed(number, .colons))
            } else if code != 58 {
                setColour(code, .default)
            }
        case 2:
            // With a colour-space id (`38:2:ID:R:G:B`, 6 values) or without (5 values).
            let first = count == 5 ? start + 2 : start + 3
            guard count >= 5, first + 2 < end else { return }
            guard let red = sequence.pointee.value(first), let green = sequence.pointee.value(first + 1),
                let blue = sequence.pointee.value(first + 2), red <= 255, green <= 255, blue <= 255
            else { return }
            let spelling: Colour.Spelling = count == 5 ? .colonsWithoutColourSpace : .colons
            setColour(code, .direct(red: red, green: green, blue: blue, spelling))
        default:
            return
        }
    }
}

extension UInt64 {
    /// The field as wide as `Field` from bit `shift` of a packed word (Style's).
    fileprivate subscript<Field: FixedWidthInteger & UnsignedInteger>(at shift: UInt64) -> Field {
        @inline(__always) get { Field(truncatingIfNeeded: self &>> shift) }
        @inline(__always) set {
            let mask = UInt64(truncatingIfNeeded: Field.max) &<< shift
            self = self & ~mask | UInt64(newValue) &<< shift
        }
    }
}

/// Styles interned lately and their ids, two slots per hash of the style (a two-way
/// set-associative cache, as a CPU's): a lookup is a hash and at most two comparisons,
/// before the table's dictionary. Two ways, because a few styles in turn (syntax colours)
/// may share a hash. Its memory is allocated once and owned by the model (`deallocate`).
struct StyleCache {
    private static let setBits = 6
    private static let slotCount = 2 << setBits
    private let styles: UnsafeMutablePointer<Style>
    private let ids: UnsafeMutablePointer<UInt16>

    init() {
        styles = .allocate(capacity: Self.slotCount)
        ids = .allocate(capacity: Self.slotCount)
        clear()
    }

    func deallocate() {
        styles.deallocate()
        ids.deallocate()
    }

    /// Forgets every style (their ids changed).
    func clear() {
        styles.initialize(repeating: .plain, count: Self.slotCount)
        ids.initialize(repeating: 0, count: Self.slotCount)
    }

    /// The first of the style's two slots.
    @inline(__always)
    private static func set(_ style: Style) -> Int {
        let (colours, rest) = style.packed
        // Fibonacci hashing last: styles that differ in a colour's low bits (SGR 31 to 37)
        // land in different sets.
        let mixed = (colours ^ rest &* 0xFF51_AFD7_ED55_8CCD) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed &>> UInt64(64 - setBits)) &<< 1
    }

    @inline(__always)
    func id(for style: Style) -> UInt16? {
        let slot = Self.set(style)
        if styles[slot] == style { return ids[slot] }
        if styles[slot &+ 1] == style { return ids[slot &+ 1] }
        return nil
    }

    /// The first entry `isWrong` says is wrong (for the model's validation).
    func first(where isWrong: (Style, UInt16) -> Bool) -> (Style, UInt16)? {
        (0..<Self.slotCount).lazy.map { (styles[$0], ids[$0]) }.first(where: isWrong)
    }

    /// The style goes into the set's first slot; the one there moves to the second.
    func remember(_ style: Style, _ id: UInt16) {
        let slot = Self.set(style)
        styles[slot &+ 1] = styles[slot]
        ids[slot &+ 1] = ids[slot]
        styles[slot] = style
        ids[slot] = id
    }
}

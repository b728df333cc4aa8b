// Follows what the wrapped command writes to the terminal, without changing a byte, to know
// (1) the terminal modes it turned on (TerminalModes) and (2) whether the stream is at a
// boundary, where idlewrap may insert its own output: not inside an escape sequence, a
// control string or a UTF-8 character.
//
// The state machine is Paul Williams' parser for DEC/ANSI terminals,
// https://vt100.net/emu/dec_ansi_parser, as a table (OutputParserTable.swift). Departures:
//
// - No C1 controls. Bytes 0x80-0x9F never start or end a sequence, neither raw nor as
//   UTF-8-encoded U+0080-U+009F. In a UTF-8 stream they are continuation bytes (0x9B is
//   part of "⛄", E2 9B 84), and taking them for CSI/DCS/OSC/ST would wreck the boundary
//   tracking; tmux's input.c has no C1 rows either. A program that writes 8-bit C1
//   controls to a UTF-8 terminal is not followed (few terminals would obey it).
// - Bytes 0x80-0xFF are not folded onto 0x00-0x7F (Williams treats GR like GL). In ground
//   they are UTF-8; in escape and control-sequence states they are ignored, as tmux does;
//   in OSC, DCS and SOS/PM/APC strings they are payload.
// - UTF-8 is tracked in ground (Williams has no notion of it). C2-DF, E0-EF and F0-F4
//   start characters of 2, 3 and 4 bytes; other bytes >= 0x80 stand alone (terminals show
//   U+FFFD). Continuation bytes are counted without checking the second byte's narrower
//   ranges (as tmux's utf8_open/utf8_append): a strict decoder could end a malformed
//   character up to three bytes earlier, never later. Any other byte ends a partial
//   character and is then processed normally, so ESC or CAN always gets through.
// - Strings end where the terminal that stays in them longest, tmux, ends them, so that a
//   boundary here is a boundary on every terminal. A DCS string ends only at ST (`ESC \`):
//   to tmux, CAN, SUB and `ESC x` are part of it, so `ESC P q ESC x` is still a DCS (and
//   `ESC [?1049h` inside it sets nothing, though xterm would end the DCS there). OSC,
//   SOS, PM and APC strings end at CAN, SUB or ESC as in Williams; an OSC also at BEL, as
//   in xterm. `ESC k` starts a string, tmux's window name, where xterm ignores it.
// - osc_end runs however the OSC string ends, CAN and SUB included: tmux applies it then,
//   where xterm abandons it. The ends of APC and `ESC k` strings count as setting a title,
//   as they do in tmux. Williams' other entry/exit actions (clear, osc_start, hook,
//   unhook) run on entering/leaving a state as in the diagram, or are no-ops here.
// - Limits: 16 parameters (more are dropped; the sequence still dispatches with the first
//   16), values saturating at 65535, one intermediate byte (a sequence with two or more is
//   parsed but not interpreted). `:` sub-parameters send a control sequence to csiIgnore
//   as in Williams; nothing idlewrap tracks uses them. String payloads are not stored, so
//   no input can make the parser allocate or grow.
//
// Speed: text in ground and DCS payload up to the next ESC, and other string payloads of
// 0x20-0xFF, are skipped eight bytes at a time; whole control sequences without a private
// marker or intermediate, and the parameter bytes of any control sequence without a
// private marker, one at a time; only the remaining bytes go through the table.

/// Tracks the terminal state set by a byte stream written to a terminal.
public struct OutputParser: Sendable {
    /// The modes the stream has set so far.
    public private(set) var modes = TerminalModes.initial
    /// How many times the stream has set the window title (wrapping): a change says a
    /// title was set since, where `modes.titleWasSet` says only whether one ever was.
    public private(set) var titleSets: UInt = 0
    private var state = State.ground
    /// Continuation bytes still expected by the UTF-8 character begun in ground.
    private var utf8Remaining: UInt8 = 0
    private var sequence = CollectedSequence()
    private var oscCommand = OSCCommand()

    public init() {}

    /// True when nothing is half-parsed: in ground, with no incomplete UTF-8 character.
    public var isAtBoundary: Bool {
        state == .ground && utf8Remaining == 0
    }

    /// Tracks state across `bytes`; the fast path.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let end = bytes.count
        Self.transitions.withUnsafeBufferPointer { table in
            var offset = 0
            while offset < end {
                offset = skipInertBytes(base, from: offset, to: end)
                guard offset < end else { return }
                step(base.load(fromByteOffset: offset, as: UInt8.self), table)
                offset += 1
            }
        }
    }

    /// Feeds bytes only until the stream reaches a boundary and returns how many it consumed:
    /// 0 if it is already at a boundary, bytes.count if it never reaches one within `bytes`.
    public mutating func feedUntilBoundary(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let end = bytes.count
        return Self.transitions.withUnsafeBufferPointer { table in
            var offset = 0
            while offset < end && !isAtBoundary {
                // Skipped bytes cannot reach a boundary: they are payload of a string.
                offset = skipInertBytes(base, from: offset, to: end)
                guard offset < end else { break }
                step(base.load(fromByteOffset: offset, as: UInt8.self), table)
                offset += 1
            }
            return offset
        }
    }

    /// Bytes that end whatever sequence, string or character the stream is in, on every
    /// terminal, and change nothing else: for cutting output that never reaches a boundary.
    /// CAN ends everything but a DCS string in tmux, which takes it as payload and ends at
    /// the ST after it; to a terminal already in ground, CAN and a lone ST do nothing.
    /// Feeding them brings the parser to a boundary from any state.
    public static let cut: [UInt8] = [0x18, 0x1B, 0x5C]

    /// Where in `bytes`, fed from this state, the stream was last at a boundary: the offset
    /// of the first byte after it (0 for the start), or nil if it never was. A character
    /// cut short counts as ended before the byte that cuts it, as a terminal shows it. For
    /// the rare chunk that ends away from a boundary, to find where the open sequence began.
    public func lastBoundary(in bytes: UnsafeRawBufferPointer) -> Int? {
        var parser = self
        var last: Int? = nil
        guard let base = bytes.baseAddress else { return isAtBoundary ? 0 : nil }
        let end = bytes.count
        Self.transitions.withUnsafeBufferPointer { table in
            var offset = 0
            while offset < end {
                if parser.isAtBoundary || parser.cutsCharacter(base.load(fromByteOffset: offset, as: UInt8.self)) {
                    last = offset
                }
                let skipped = parser.skipInertBytes(base, from: offset, to: end)
                if skipped > offset {
                    // Skipped text in ground is a boundary throughout, up to a character
                    // left open at its end; skipped string payload holds none.
                    if parser.state == .ground {
                        last = parser.utf8Remaining == 0 ? skipped : Self.openCharacterStart(base, before: skipped)
                    }
                    offset = skipped
                    continue
                }
                parser.step(base.load(fromByteOffset: offset, as: UInt8.self), table)
                offset += 1
            }
        }
        return parser.isAtBoundary ? end : last
    }

    /// Whether `byte` ends a character still open in ground short.
    private func cutsCharacter(_ byte: UInt8) -> Bool {
        state == .ground && utf8Remaining != 0 && byte & 0xC0 != 0x80
    }

    /// The lead byte of the character open at `end`: after it come only continuation bytes.
    private static func openCharacterStart(_ base: UnsafeRawPointer, before end: Int) -> Int {
        var index = end &- 1
        while base.load(fromByteOffset: index, as: UInt8.self) & 0xC0 == 0x80 {
            index &-= 1
        }
        return index
    }

    private mutating func step(_ byte: UInt8, _ table: UnsafeBufferPointer<Transition>) {
        if utf8Remaining != 0 {
            if byte & 0xC0 == 0x80 {
                utf8Remaining &-= 1
                return
            }
            utf8Remaining = 0
        }
        let transition = table[Int(state.rawValue) &<< 8 | Int(byte)]
        perform(transition.action, byte)
        if let next = transition.next {
            state = next
            enter(next)
        }
    }

    private mutating func perform(_ action: Action, _ byte: UInt8) {
        switch action {
        case .none:
            break
        case .printNonASCII:
            utf8Remaining = Self.continuationByteCount(lead: byte)
        case .collect:
            sequence.collect(byte)
        case .param:
            sequence.param(byte)
        case .escDispatch:
            modes.applyEscapeSequence(final: byte, sequence)
        case .csiDispatch:
            modes.applyControlSequence(final: byte, sequence)
        case .oscPut:
            oscCommand.put(byte)
        case .oscEnd:
            if oscCommand.setsWindowTitle {
                modes.noteWindowTitleSet()
                titleSets &+= 1
            }
        case .apcEnd:
            modes.noteWindowTitleSet()
            titleSets &+= 1
        case .renameEnd:
            modes.noteWindowNameSet()
        }
    }

    /// Williams' entry actions: clear (escape, csi entry) and osc_start. DCS entry's clear
    /// and hook are no-ops here because no DCS is interpreted.
    private mutating func enter(_ state: State) {
        switch state {
        case .escape, .csiEntry:
            sequence.clear()
        case .oscString:
            oscCommand = OSCCommand()
        default:
            break
        }
    }

    private static func continuationByteCount(lead: UInt8) -> UInt8 {
        switch lead {
        case 0xC2...0xDF: 1
        case 0xE0...0xEF: 2
        case 0xF0...0xF4: 3
        default: 0  // a stray continuation byte or a byte that never starts a character
        }
    }

    /// Where the next byte that can change something is, from `start`; text in ground may end
    /// with a UTF-8 character still open, which `utf8Remaining` then holds.
    @inline(__always)
    private mutating func skipInertBytes(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
        guard utf8Remaining == 0 else { return start }
        switch state {
        case .ground:
            return skipText(base, from: start, to: end)
        case .dcsPassthrough:
            return Self.skipToEscape(base, from: start, to: end)
        case .dcsIgnore, .sosPmString, .apcString, .renameString:
            return Self.skipStringPayload(base, from: start, to: end)
        case .oscString where !oscCommand.isReadingNumber:
            return Self.skipStringPayload(base, from: start, to: end)
        case .csiParam where sequence.marker == 0:
            // No control sequence without a private marker that TerminalModes interprets
            // takes parameters, so theirs (SGR colours, cursor positions) are not collected.
            return Self.skipParameterBytes(base, from: start, to: end)
        default:
            return start
        }
    }

    private static let lowBits: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Skips ground bytes up to the next ESC, and whole control sequences that TerminalModes
    /// ignores. Nothing else changes anything in ground: printable characters and C0 controls
    /// (CAN and SUB included) leave it as it is, and a UTF-8 character is ended by any byte
    /// that does not continue it, ESC included. So only the character still open at the end
    /// of the buffer needs working out, from its last three bytes at most.
    @inline(__always)
    private mutating func skipText(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
        var offset = start
        var textStart = start  // after the last control sequence skipped: a boundary
        while true {
            offset = Self.skipToEscape(base, from: offset, to: end)
            guard offset < end else { break }
            guard let after = Self.skipUnmarkedControlSequence(base, at: offset, to: end) else { return offset }
            offset = after
            textStart = after
        }
        utf8Remaining = Self.continuationBytesOwed(base, from: textStart, to: end)
        return end
    }

    /// How many continuation bytes the last character of ground text in `start..<end` still
    /// lacks. Bytes before `start` do not count: the text starts at a boundary.
    @inline(__always)
    private static func continuationBytesOwed(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> UInt8 {
        var seen: UInt8 = 0
        var index = end &- 1
        while index >= start && seen < 3 {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            guard byte & 0xC0 == 0x80 else {
                let expected = continuationByteCount(lead: byte)
                return expected > seen ? expected &- seen : 0
            }
            seen &+= 1
            index &-= 1
        }
        return 0  // only continuation bytes: stray, or more than any lead takes
    }

    /// The end of the control sequence starting with the ESC at `start` if it lies whole
    /// within the buffer and has neither a private marker nor an intermediate (SGR, cursor
    /// moves, erases): TerminalModes interprets none of those, so in ground it changes
    /// nothing. Nil for anything else, which goes through the table.
    @inline(__always)
    private static func skipUnmarkedControlSequence(_ base: UnsafeRawPointer, at start: Int, to end: Int) -> Int? {
        let introducer = start &+ 1
        guard introducer < end, base.load(fromByteOffset: introducer, as: UInt8.self) == UInt8(ascii: "[") else {
            return nil
        }
        let final = skipParameterBytes(base, from: introducer &+ 1, to: end)
        guard final < end, base.load(fromByteOffset: final, as: UInt8.self) &- 0x40 <= 0x7E - 0x40 else { return nil }
        return final &+ 1
    }

    /// The offset of the next ESC from `start`, or `end`.
    @inline(__always)
    private static func skipToEscape(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
        var offset = start
        while end &- offset >= 8 {
            let escapes = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ (lowBits &* 0x1B)
            // The lowest set bit marks the first ESC (the zero-byte test can only be wrong
            // above the first zero byte).
            let found = (escapes &- lowBits) & ~escapes & highBits
            if found != 0 {
                return offset &+ found.trailingZeroBitCount &>> 3
            }
            offset &+= 8
        }
        while offset < end && base.load(fromByteOffset: offset, as: UInt8.self) != 0x1B {
            offset &+= 1
        }
        return offset
    }

    /// Skips the digits and `;` of a control sequence's parameters.
    @inline(__always)
    private static func skipParameterBytes(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
        var offset = start
        while offset < end {
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            guard byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: ";") else { break }
            offset &+= 1
        }
        return offset
    }

    /// Skips string payload bytes 0x20-0xFF; only C0 controls (BEL, CAN, SUB, ESC) can end
    /// an OSC, SOS, PM, APC or `ESC k` string.
    @inline(__always)
    private static func skipStringPayload(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
        var offset = start
        while end - offset >= 8 {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let hasByteBelowSpace = (word &- lowBits &* 0x20) & ~word & highBits
            if hasByteBelowSpace != 0 { break }
            offset += 8
        }
        while offset < end && base.load(fromByteOffset: offset, as: UInt8.self) >= 0x20 {
            offset += 1
        }
        return offset
    }
}

import CScreenKernels
import Glibc

// Turns what a program writes to its terminal into events (libvterm's parser layer): text,
// controls, escape and control sequences, control strings. ScreenModel's state consumes
// them; tests consume them with a recorder.
//
// The states, where each byte leads and the departures from Williams' parser are in
// ScreenParserTable.swift: in short, no C1 controls; bytes 0x80-0xFF are UTF-8 in ground,
// ignored inside sequences, payload in strings; UTF-8 is tracked in ground with
// continuation bytes counted as tmux counts them; strings end where tmux ends them (a DCS
// only at `ESC \`; OSC, SOS, PM, APC and `ESC k` at CAN, SUB or ESC, an OSC also at BEL);
// the `cut` bytes bring the parser to a boundary from any state; nothing makes it grow.
//
// A UTF-8 character is decoded when complete (malformed ones, overlong forms and
// surrogates included, are dropped, as tmux drops them; so are bytes that stand alone and
// characters cut short); string payloads are kept for the OSC, DCS and `ESC k` strings the
// model interprets.
//
// Speed: runs of printable ASCII reach the consumer whole, found eight bytes at a time;
// complete control sequences are parsed in one tight loop; UTF-8 characters complete in the
// buffer are decoded inline, and those cut short by another byte dropped there, as are the
// bytes that start none (a binary file printed by mistake is half such bytes), the text
// among those gathered into one run; string payloads are copied in runs. Only the rest
// goes through the table.

/// The events of the parser, each sequence delivered whole.
protocol ScreenParserConsumer {
    /// Printable ASCII (0x20-0x7E) in ground, as many bytes as came in a row.
    mutating func printASCII(_ bytes: UnsafePointer<UInt8>, count: Int)
    /// Characters of one column gathered from among bytes that do nothing (binary bytes):
    /// printable ASCII and two-byte characters (U+00A0-U+07FF), each a cell's content; the
    /// same as `printASCII` of each ASCII one and `printScalar` of each other one.
    mutating func printText(_ text: UnsafePointer<UInt16>, count: Int)
    /// A complete, valid non-ASCII UTF-8 character.
    mutating func printScalar(_ scalar: UInt32)
    /// A C0 control other than CAN, SUB and ESC, in ground or inside a sequence.
    mutating func execute(_ control: UInt8)
    mutating func escapeDispatch(_ final: UInt8, _ sequence: UnsafePointer<SequenceParameters>)
    mutating func controlSequenceDispatch(_ final: UInt8, _ sequence: UnsafePointer<SequenceParameters>)
    /// An SGR with one parameter or none (`ESC [ m`, `ESC [ 3 2 m`; 0 for none), other than
    /// 38, 48 and 58: the same as `controlSequenceDispatch` of it.
    mutating func selectGraphicRendition(_ code: UInt32)
    /// An SGR with two such parameters (`ESC [ 0 1 ; 3 4 m`; 0 for an empty second).
    mutating func selectGraphicRendition(_ first: UInt32, _ second: UInt32)
    /// A CUP with two parameters or fewer (0 for a missing or empty one): the same as
    /// `controlSequenceDispatch` of it.
    mutating func cursorPosition(_ row: UInt32, _ column: UInt32)
    /// A DCS string ended by ST; `final` and `sequence` are its header.
    mutating func deviceControlDispatch(
        _ final: UInt8, _ sequence: UnsafePointer<SequenceParameters>, _ payload: ControlString)
    /// An OSC string, however it ended (tmux applies one cut by CAN or SUB).
    mutating func operatingSystemCommandDispatch(_ payload: ControlString)
    /// The end of an APC string (tmux: a pane title; kitty: graphics).
    mutating func applicationProgramCommandEnd()
    /// The end of an `ESC k` string: tmux's window name.
    mutating func windowNameDispatch(_ payload: ControlString)
}

struct ScreenParser {
    private(set) var state = State.ground
    /// Continuation bytes still expected by the UTF-8 character begun in ground.
    private var utf8Remaining: UInt8 = 0
    /// Its bits so far, and its length in bytes.
    private var utf8Scalar: UInt32 = 0
    private var utf8Length: UInt8 = 0
    private(set) var sequence = SequenceParameters()
    private(set) var string: ControlString

    /// `storage` holds `storageCapacity` bytes: a control string's, then the text gathered
    /// from binary bytes, the controls passed among it and the gathering's table of two-byte
    /// characters; the caller owns it.
    /// `vectors`: the forms of the C loops the parser calls (long runs of text are searched
    /// with AVX2 when the CPU has it).
    init(storage: UnsafeMutablePointer<UInt8>, vectors: CellVectors) {
        string = ControlString(storage: storage)
        gathered = UnsafeMutableRawPointer(storage + ControlString.capacity)
            .bindMemory(to: UInt16.self, capacity: Self.gatheredRoom)
        let breaksStart = storage + ControlString.capacity + Self.gatheredRoom &* 2
        UnsafeMutableRawPointer(breaksStart).bindMemory(to: UInt32.self, capacity: Self.breakCapacity)
        let widths = breaksStart + Self.breakCapacity &* 4
        Self.twoByteWidthTable.withUnsafeBufferPointer { widths.update(from: $0.baseAddress!, count: $0.count) }
        twoByteWidths = widths
        scansWithAVX2 = vectors.searchesWithAVX2
        gather = vectors.gatherText
    }

    static let storageCapacity =
        ControlString.capacity + gatheredRoom &* 2 + breakCapacity &* 4 + twoByteWidthTable.count

    /// True when nothing is half-parsed: in ground, with no incomplete UTF-8 character.
    var isAtBoundary: Bool {
        state == .ground && utf8Remaining == 0
    }

    /// Bytes that end whatever sequence, string or character the stream is in, on every
    /// terminal, and change nothing else. CAN ends everything but a DCS string in tmux,
    /// which takes it as payload and ends at the ST after it; to a terminal already in
    /// ground, CAN and a lone ST do nothing.
    static let cut: [UInt8] = [0x18, 0x1B, 0x5C]

    // MARK: - Feeding

    /// Where in the bytes last fed the stream was last at a boundary, when it ended away
    /// from one: the start of the sequence or character left open; nil when that began in
    /// an earlier feed (or the stream ended at a boundary).
    private(set) var openSequenceStart: Int?

    /// Parses `count` bytes at `base`; the fast path.
    mutating func feed<Consumer: ScreenParserConsumer>(
        _ base: UnsafePointer<UInt8>, count end: Int, into consumer: inout Consumer
    ) {
        var mark: Int? = nil
        Self.transitions.withUnsafeBufferPointer { table in
            var offset = 0
            while offset < end {
                if state == .ground && utf8Remaining == 0 {
                    offset = ground(base, from: offset, to: end, &consumer)
                    guard offset < end else { return }
                    // The fast path stops at a boundary: whatever is open begins here.
                    mark = offset
                } else if let skipped = skipPayload(base, from: offset, to: end), skipped > offset {
                    offset = skipped
                    continue
                } else if utf8Remaining != 0 && base[offset] & 0xC0 != 0x80 {
                    // A character cut short ends before the byte that cuts it.
                    mark = offset
                }
                step(base[offset], table, &consumer)
                offset &+= 1
            }
        }
        openSequenceStart = mark
    }

    /// Parses bytes only until the stream reaches a boundary and returns how many it
    /// consumed: 0 if it is already at one, `count` if it never reaches one.
    mutating func feedUntilBoundary<Consumer: ScreenParserConsumer>(
        _ base: UnsafePointer<UInt8>, count end: Int, into consumer: inout Consumer
    ) -> Int {
        Self.transitions.withUnsafeBufferPointer { table in
            var offset = 0
            while offset < end && !isAtBoundary {
                if utf8Remaining != 0 && base[offset] & 0xC0 != 0x80 {
                    // A character cut short ends before the byte that cuts it, as `feed`
                    // and `lastBoundary` count it: dropped, the stream is at a boundary.
                    utf8Remaining = 0
                    break
                }
                // Skipped payload cannot reach a boundary.
                if let skipped = skipPayload(base, from: offset, to: end), skipped > offset {
                    offset = skipped
                    continue
                }
                step(base[offset], table, &consumer)
                offset &+= 1
            }
            openSequenceStart = nil
            return offset
        }
    }

    /// Where in `count` bytes at `base`, fed from this state, the stream was last at a
    /// boundary: the offset of the first byte after it (0 for the start), or nil if it
    /// never was. A character cut short counts as ended before the byte that cuts it, as
    /// a terminal shows it. Changes nothing.
    func lastBoundary(in base: UnsafePointer<UInt8>, count end: Int) -> Int? {
        var (state, remaining) = (self.state, utf8Remaining)
        var last: Int? = nil
        Self.transitions.withUnsafeBufferPointer { table in
            for offset in 0..<end {
                let byte = base[offset]
                if state == .ground && (remaining == 0 || byte & 0xC0 != 0x80) { last = offset }
                if remaining != 0 {
                    if byte & 0xC0 == 0x80 {
                        remaining &-= 1
                        continue
                    }
                    remaining = 0
                }
                let transition = table[Int(state.rawValue) &<< 8 | Int(byte)]
                if transition.action == .printNonASCII { remaining = Self.continuationByteCount(lead: byte) }
                if let next = transition.next { state = next }
            }
        }
        return state == .ground && remaining == 0 ? end : last
    }

    // MARK: - Ground

    private static let lowBits: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Handles ground bytes from `start` for as long as the fast paths apply; returns where
    /// the table must take over (or `end`). A function of its own, for the inlining budget
    /// (docs/screen-model.md, "Speed").
    @inline(never)
    private mutating func ground<Consumer: ScreenParserConsumer>(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, _ consumer: inout Consumer
    ) -> Int {
        var offset = start
        while offset < end {
            var byte = base[offset]
            // Looked at before the run is searched for: after a sequence or a control, the
            // next byte is as often another as it is text.
            if byte &- 0x20 < 0x5F {
                let runEnd = Self.printableRunEnd(base, from: offset &+ 1, to: end, withAVX2: scansWithAVX2)
                // A run ended by a byte above DEL, in ground: most likely binary bytes, where
                // the next run comes after a byte or two that do nothing.
                if runEnd < end && base[runEnd] >= 0x7F {
                    offset = gatherText(base, from: offset, to: end, &consumer)
                    continue
                }
                consumer.printASCII(base + offset, count: runEnd &- offset)
                offset = runEnd
                guard offset < end else { return end }
                byte = base[offset]
            }
            if byte == 0x1B {
                guard
                    let after = controlSequence(base, at: offset, to: end, &consumer)
                        ?? escape(base, at: offset, to: end, &consumer)
                else { return offset }
                offset = after
            } else if byte < 0x20 {
                // CAN and SUB in ground end nothing and do nothing.
                if byte != 0x18 && byte != 0x1A { consumer.execute(byte) }
                offset &+= 1
            } else if byte >= 0xC2 && byte <= 0xF4 {
                // A lead the next byte cuts short does nothing: in binary bytes, half the
                // leads; gathered with the bytes after it, as the gathering passes over it.
                if offset &+ 1 < end && base[offset &+ 1] & 0xC0 != 0x80 {
                    offset = gatherText(base, from: offset, to: end, &consumer)
                    continue
                }
                guard let after = character(base, at: offset, to: end, &consumer) else { return offset }
                offset = after
            } else {
                // DEL, and the bytes >= 0x80 that start no character (raw C1 controls and
                // other stray continuation bytes, the overlong leads 0xC0 and 0xC1,
                // 0xF5-0xFF): nothing, as in the table; the text after them gathered.
                offset = gatherText(base, from: offset, to: end, &consumer)
            }
        }
        return end
    }

    /// Binary bytes from `start` (a printable byte or one that does nothing): the characters
    /// of one column among those that do nothing, gathered (CScreenKernels'
    /// ccell_gather_text) and printed as runs, which is what printing each does, with the
    /// controls that move the cursor or shift the set (BS, HT, LF, VT, FF, CR, SO, SI)
    /// passed among them executed between the runs; then the control or the character
    /// without a cell (U+0080-U+009F) that only ends REP's character, if one came after
    /// them. Returns where the gathering stopped, after `start`. A call, for the inlining
    /// budget; the text is gathered into the parser's storage, not a temporary allocation,
    /// whose closure was a second call in every gathering. Mutating, so that the parser is
    /// passed by reference, not copied.
    @inline(never)
    private mutating func gatherText<Consumer: ScreenParserConsumer>(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, _ consumer: inout Consumer
    ) -> Int {
        var count = 0
        var breakCount = 0
        var control: Int32 = -1
        let stop = gather(
            base, start, end, gathered, Self.gatheredCapacity, twoByteWidths, breaks, Self.breakCapacity,
            &breakCount, &count, &control)
        // The run before each control passed, then the control; the run after the last.
        var printed = 0
        for index in 0..<breakCount {
            let runEnd = Int(breaks[index] &>> 8)
            if runEnd > printed { consumer.printText(gathered + printed, count: runEnd &- printed) }
            consumer.execute(UInt8(truncatingIfNeeded: breaks[index]))
            printed = runEnd
        }
        if count > printed { consumer.printText(gathered + printed, count: count &- printed) }
        if control >= 0x80 {
            consumer.printScalar(UInt32(control))
        } else if control >= 0 {
            consumer.execute(UInt8(truncatingIfNeeded: control))
        }
        return stop
    }

    /// Cells gathered at most at a time, and bytes looked at: in binary bytes a gathering
    /// stops every 100 bytes or so, and at 256 one in ten stopped there instead (random
    /// bytes 0.7 % more instructions).
    private static let gatheredCapacity = 1024

    /// Room for them and the 16 the gathering may write past the last.
    private static let gatheredRoom = gatheredCapacity + 16

    /// Gathers text: `CellVectors.gatherText` of the model's vectors.
    private let gather: CellVectors.GatherText

    /// Where they are gathered: `gatheredRoom` contents after the control string.
    private let gathered: UnsafeMutablePointer<UInt16>

    /// Controls a gathering passes at most: in binary bytes one comes every 32 bytes or so,
    /// and a gathering stops every 100 (64 changed nothing).
    private static let breakCapacity = 32

    /// Where it notes them (the cells before each and the control): after the cells. Not a
    /// stored pointer: the parser is copied whole where a redraw is kept (FeedPlanner), and
    /// one more word there made that copy a call to memcpy.
    private var breaks: UnsafeMutablePointer<UInt32> {
        UnsafeMutableRawPointer(gathered + Self.gatheredRoom).assumingMemoryBound(to: UInt32.self)
    }

    /// CharacterWidth's values (their width bits) of U+0080-U+07FF, made from its table
    /// once: the gathering takes the characters of one column among them as cells and
    /// passes over those that take none (C1 controls). Random bytes then stop it half as
    /// often: 14.9 k gatherings a MiB, not 27.7 k.
    private static let twoByteWidthTable: [UInt8] = (0x80..<0x800).map { CharacterWidth.value($0) & 3 }

    /// Where the parser's copy of that table is: after the controls passed.
    private let twoByteWidths: UnsafeMutablePointer<UInt8>

    /// Whether long runs are searched with AVX2 (CScreenKernels).
    private let scansWithAVX2: Bool

    /// The end of the run of printable ASCII from `start`: 16 bytes a step with SSE2
    /// (CScreenKernels' inline mask), and past the first 16 (most runs between sequences
    /// end in them, and a call would cost them more than it saves) 32 a step with AVX2
    /// where the CPU has it.
    @inline(__always)
    static func printableRunEnd(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, withAVX2: Bool) -> Int {
        var offset = start
        while end &- offset >= 16 {
            let stops = ccell_unprintable_mask16(base + offset)
            if stops != 0 { return offset &+ stops.trailingZeroBitCount }
            offset &+= 16
            if offset &- start >= 16 && end &- offset >= 32 && withAVX2 {
                return ccell_printable_run_end_avx2(base, offset, end)
            }
        }
        while offset < end && base[offset] &- 0x20 < 0x5F { offset &+= 1 }
        return offset
    }

    /// A control sequence lying whole in the buffer from the ESC at `start`, parsed and
    /// dispatched; its end, or nil when it is anything else (the table then parses it).
    @inline(__always)
    private mutating func controlSequence<Consumer: ScreenParserConsumer>(
        _ base: UnsafePointer<UInt8>, at start: Int, to end: Int, _ consumer: inout Consumer
    ) -> Int? {
        var offset = start &+ 2
        guard offset < end, base[start &+ 1] == UInt8(ascii: "[") else { return nil }
        var byte = base[offset]
        // Nearly half of what full-screen programs write is an SGR of one or two plain codes
        // or none (`ESC [ m`, `ESC [ 3 2 m`, `ESC [ 0 1 ; 3 4 m`), and much of the rest a
        // cursor position (`ESC [ H`, `ESC [ 2 4 ; 1 H`): dispatched before a parameter
        // list is begun. Anything else found on the way begins the list with what was read.
        if byte == UInt8(ascii: "m") {
            consumer.selectGraphicRendition(0)
            return offset &+ 1
        }
        if byte == UInt8(ascii: "H") {
            consumer.cursorPosition(0, 0)
            return offset &+ 1
        }
        if byte &- UInt8(ascii: "0") < 10 {
            let first = Self.number(base, at: &offset, to: end, first: byte)
            guard offset < end else { return nil }
            byte = base[offset]
            if byte == UInt8(ascii: "m") && Style.isSingleCode(first) {
                consumer.selectGraphicRendition(first)
                return offset &+ 1
            }
            if byte == UInt8(ascii: "H") {
                consumer.cursorPosition(first, 0)
                return offset &+ 1
            }
            sequence.clear()
            sequence.number(first)
            if byte == UInt8(ascii: ";") {
                offset &+= 1
                guard offset < end else { return nil }
                byte = base[offset]
                // An empty second parameter is 0, as in the list.
                var second: UInt32 = 0
                let hasSecond = byte &- UInt8(ascii: "0") < 10
                if hasSecond {
                    second = Self.number(base, at: &offset, to: end, first: byte)
                    guard offset < end else { return nil }
                    byte = base[offset]
                }
                if byte == UInt8(ascii: "m") && Style.isSingleCode(first) && Style.isSingleCode(second) {
                    consumer.selectGraphicRendition(first, second)
                    return offset &+ 1
                }
                if byte == UInt8(ascii: "H") {
                    consumer.cursorPosition(first, second)
                    return offset &+ 1
                }
                sequence.param(UInt8(ascii: ";"))
                if hasSecond { sequence.number(second) }
            }
        } else {
            sequence.clear()
            if byte &- 0x3C < 4 {
                sequence.collect(byte)
                offset &+= 1
                guard offset < end else { return nil }
                byte = base[offset]
            }
        }
        while true {
            if byte &- UInt8(ascii: "0") < 10 {
                let value = Self.number(base, at: &offset, to: end, first: byte)
                guard offset < end else { return nil }
                byte = base[offset]
                sequence.number(value)
            }
            if byte == UInt8(ascii: ";") {
                sequence.param(byte)
            } else if byte == UInt8(ascii: ":") {
                sequence.subparam()
            } else {
                break
            }
            offset &+= 1
            guard offset < end else { return nil }
            byte = base[offset]
        }
        if byte &- 0x20 < 0x10 {
            sequence.collect(byte)
            offset &+= 1
            guard offset < end else { return nil }
            byte = base[offset]
        }
        guard byte &- 0x40 < 0x3F else { return nil }
        withUnsafePointer(to: &sequence) { consumer.controlSequenceDispatch(byte, $0) }
        return offset &+ 1
    }

    /// An escape sequence from the ESC at `start` (`ESC 7`, `ESC M`, `ESC ( B`: in binary
    /// bytes nearly every ESC is one, controls or bytes above `~` often among its bytes),
    /// dispatched, the controls among its bytes executed and those above `~` passed over, as
    /// the escape states do; also an ESC that CAN or SUB ends (nothing) or another ESC begins
    /// again. Its end (that ESC's offset), or nil, having done nothing, when the ESC begins a
    /// control sequence or a string, or the buffer ends first: the table then parses it. A
    /// call: binary bytes meet one in 256 bytes, a terminal program seldom.
    @inline(never)
    private mutating func escape<Consumer: ScreenParserConsumer>(
        _ base: UnsafePointer<UInt8>, at start: Int, to end: Int, _ consumer: inout Consumer
    ) -> Int? {
        var offset = start &+ 1
        var hasIntermediate = false
        var passesBytes = false
        while offset < end {
            let byte = base[offset]
            if byte < 0x20 {
                if byte == 0x18 || byte == 0x1A || byte == 0x1B { break }
                passesBytes = true
            } else if byte < 0x30 {
                hasIntermediate = true
                passesBytes = true
            } else if byte < 0x7F {
                break
            }
            offset &+= 1
        }
        guard offset < end else { return nil }
        let final = base[offset]
        let endsInGround = final == 0x18 || final == 0x1A
        // After an intermediate every byte from 0x30 to `~` is a final (escapeIntermediate).
        guard endsInGround || final == 0x1B || hasIntermediate || Self.isEscapeFinal(final) else { return nil }
        sequence.clear()
        if passesBytes {
            for index in (start &+ 1)..<offset {
                let byte = base[index]
                if byte < 0x20 {
                    consumer.execute(byte)
                } else if byte < 0x30 {
                    sequence.collect(byte)
                }
            }
        }
        if endsInGround { return offset &+ 1 }
        if final == 0x1B { return offset }
        withUnsafePointer(to: &sequence) { consumer.escapeDispatch(final, $0) }
        return offset &+ 1
    }

    /// Whether `byte` ends an escape sequence with no intermediate (the table's escDispatch
    /// from the escape state): 0x30-0x7E but `P`, `X`, `[`, `]`, `^`, `_` and
    /// `k`, which begin strings and control sequences.
    @inline(__always)
    static func isEscapeFinal(_ byte: UInt8) -> Bool {
        let bit = byte &- 0x30
        guard bit < 0x4F else { return false }
        return (bit < 64 ? escapeFinalsLow &>> bit : escapeFinalsHigh &>> (bit &- 64)) & 1 != 0
    }

    /// The finals' bits from 0x30 (low) and 0x70 (high); ScreenParserTableTests pins them
    /// against the table.
    private static let escapeFinalsLow: UInt64 =
        ~(1 << (0x50 - 0x30) | 1 << (0x58 - 0x30) | 1 << (0x5B - 0x30) | 1 << (0x5D - 0x30) | 1 << (0x5E - 0x30)
        | 1 << (0x5F - 0x30) | 1 << (0x6B - 0x30))
    private static let escapeFinalsHigh: UInt64 = 0x7FFF

    /// The number whose first digit, `first`, is at `offset`, read whole (saturating as
    /// `SequenceParameters` does); `offset` ends at the byte after it, `end` if none.
    @inline(__always)
    private static func number(
        _ base: UnsafePointer<UInt8>, at offset: inout Int, to end: Int, first: UInt8
    ) -> UInt32 {
        var value = UInt32(first &- UInt8(ascii: "0"))
        offset &+= 1
        while offset < end {
            let byte = base[offset]
            guard byte &- UInt8(ascii: "0") < 10 else { break }
            value = SequenceParameters.appending(digit: byte, to: value)
            offset &+= 1
        }
        return value
    }

    /// A UTF-8 character from the lead byte at `start`, decoded and printed (or dropped when
    /// malformed); its end. Cut short by another byte, it is dropped and ends before that
    /// byte, as the table drops it; nil when the end of the buffer cuts it (the table then
    /// keeps it open for the next feed).
    @inline(__always)
    private mutating func character<Consumer: ScreenParserConsumer>(
        _ base: UnsafePointer<UInt8>, at start: Int, to end: Int, _ consumer: inout Consumer
    ) -> Int? {
        let lead = base[start]
        let length = Int(Self.continuationByteCount(lead: lead)) &+ 1
        var scalar = UInt32(lead) & (0x7F &>> UInt32(length))
        for index in 1..<length {
            guard start &+ index < end else { return nil }
            let byte = base[start &+ index]
            guard byte & 0xC0 == 0x80 else { return start &+ index }
            scalar = scalar &<< 6 | UInt32(byte & 0x3F)
        }
        if Self.isValid(scalar, length: length) { consumer.printScalar(scalar) }
        return start &+ length
    }

    @inline(__always)
    private static func isValid(_ scalar: UInt32, length: Int) -> Bool {
        switch length {
        case 2: return scalar >= 0x80
        case 3: return scalar >= 0x800 && (scalar < 0xD800 || scalar > 0xDFFF)
        default: return scalar >= 0x1_0000 && scalar <= 0x10_FFFF
        }
    }

    static func continuationByteCount(lead: UInt8) -> UInt8 {
        switch lead {
        case 0xC2...0xDF: 1
        case 0xE0...0xEF: 2
        case 0xF0...0xF4: 3
        default: 0  // a stray continuation byte or a byte that never starts a character
        }
    }

    // MARK: - Strings

    /// Copies a run of string payload from `start` (bytes that cannot end the string) and
    /// returns its end; nil outside strings.
    @inline(__always)
    private mutating func skipPayload(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        switch state {
        case .oscString, .renameString:
            let runEnd = Self.payloadRunEnd(base, from: start, to: end)
            string.put(base + start, count: runEnd &- start)
            return runEnd
        case .dcsPassthrough:
            // Only ST ends it: in a binary file printed by mistake, tens of kilobytes with an
            // ESC every 256 bytes, which with the byte after it, when that is not `\`, is
            // payload too (the table's dcsEscape): passed over here, not stepped through.
            var offset = start
            while let escape = memchr(base + offset, 0x1B, end &- offset) {
                let at = UnsafePointer(escape.assumingMemoryBound(to: UInt8.self)) - base
                guard at &+ 1 < end && base[at &+ 1] != UInt8(ascii: "\\") else {
                    string.put(base + start, count: at &- start)
                    return at
                }
                offset = at &+ 2
            }
            string.put(base + start, count: end &- start)
            return end
        case .dcsIgnore, .sosPmString, .apcString:
            // Only CAN, SUB and ESC end these; the other controls do nothing in them either.
            var offset = Self.payloadRunEnd(base, from: start, to: end)
            while offset < end && Self.passesInIgnoredString(base[offset]) {
                offset = Self.payloadRunEnd(base, from: offset &+ 1, to: end)
            }
            return offset
        default:
            return nil
        }
    }

    /// Whether `byte`, a C0 control, does nothing in a DCS ignored, SOS, PM or APC string: all
    /// but CAN, SUB and ESC.
    @inline(__always)
    static func passesInIgnoredString(_ byte: UInt8) -> Bool {
        byte != 0x18 && byte != 0x1A && byte != 0x1B
    }

    /// The end of the run of bytes 0x20-0xFF from `start`: only C0 controls end a string.
    @inline(__always)
    private static func payloadRunEnd(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var offset = start
        let raw = UnsafeRawPointer(base)
        while end &- offset >= 8 {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if (word &- lowBits &* 0x20) & ~word & highBits != 0 { break }
            offset &+= 8
        }
        while offset < end && base[offset] >= 0x20 { offset &+= 1 }
        return offset
    }

    // MARK: - The table

    // A call: the table parses only what the fast paths leave (sequences cut by the end of
    // a read, strings, malformed input); see the inlining budget in docs/screen-model.md.
    @inline(never)
    private mutating func step<Consumer: ScreenParserConsumer>(
        _ byte: UInt8, _ table: UnsafeBufferPointer<Transition>, _ consumer: inout Consumer
    ) {
        if utf8Remaining != 0 {
            if byte & 0xC0 == 0x80 {
                utf8Scalar = utf8Scalar &<< 6 | UInt32(byte & 0x3F)
                utf8Remaining &-= 1
                if utf8Remaining == 0 && Self.isValid(utf8Scalar, length: Int(utf8Length)) {
                    consumer.printScalar(utf8Scalar)
                }
                return
            }
            utf8Remaining = 0  // cut short: dropped
        }
        let transition = table[Int(state.rawValue) &<< 8 | Int(byte)]
        perform(transition.action, byte, &consumer)
        if let next = transition.next {
            state = next
            enter(next)
        }
    }

    private mutating func perform<Consumer: ScreenParserConsumer>(
        _ action: Action, _ byte: UInt8, _ consumer: inout Consumer
    ) {
        switch action {
        case .none:
            break
        case .print:
            withUnsafePointer(to: byte) { consumer.printASCII($0, count: 1) }
        case .printNonASCII:
            utf8Remaining = Self.continuationByteCount(lead: byte)
            utf8Length = utf8Remaining &+ 1
            utf8Scalar = UInt32(byte) & (0x7F &>> UInt32(utf8Length))
        case .execute:
            consumer.execute(byte)
        case .collect:
            sequence.collect(byte)
        case .param:
            sequence.param(byte)
        case .subparam:
            sequence.subparam()
        case .escDispatch:
            withUnsafePointer(to: &sequence) { consumer.escapeDispatch(byte, $0) }
        case .csiDispatch:
            withUnsafePointer(to: &sequence) { consumer.controlSequenceDispatch(byte, $0) }
        case .dcsHook:
            string.start(.dcs)
            // Only DECRQSS (`DCS $ q`) and XTGETTCAP (`DCS + q`) are interpreted.
            string.isKept =
                byte == UInt8(ascii: "q") && sequence.marker == 0 && !sequence.hasExtraIntermediates
                && (sequence.intermediate == UInt8(ascii: "$") || sequence.intermediate == UInt8(ascii: "+"))
            dcsFinal = byte
        case .dcsPut:
            string.put(byte)
        case .dcsPutEscaped:
            string.put(0x1B)
            string.put(byte)
        case .dcsEnd:
            withUnsafePointer(to: &sequence) { consumer.deviceControlDispatch(dcsFinal, $0, string) }
        case .stringPut:
            string.put(byte)
        case .oscEnd:
            consumer.operatingSystemCommandDispatch(string)
        case .apcEnd:
            consumer.applicationProgramCommandEnd()
        case .renameEnd:
            consumer.windowNameDispatch(string)
        }
    }

    /// The final byte of the DCS being parsed.
    private var dcsFinal: UInt8 = 0

    /// Williams' entry actions: clear (escape, CSI and DCS entry) and the start of strings.
    private mutating func enter(_ state: State) {
        switch state {
        case .escape, .csiEntry, .dcsEntry:
            sequence.clear()
        case .oscString:
            string.start(.osc)
        case .renameString:
            string.start(.rename)
        default:
            break
        }
    }
}

// The transition table of ScreenParser, as data: Paul Williams' parser for DEC/ANSI
// terminals, https://vt100.net/emu/dec_ansi_parser, state by state, with tmux's string
// states (its input.c) where tmux stays in a string longer. A row's `next` is nil when the
// byte leaves the state unchanged (no exit or entry action runs). Departures from Williams:
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
//   start characters of 2, 3 and 4 bytes; other bytes >= 0x80 stand alone. Continuation
//   bytes are counted without checking the second byte's narrower ranges (as tmux's
//   utf8_open/utf8_append), so a malformed character ends where tmux ends it. Any other
//   byte ends a partial character and is then processed normally, so ESC or CAN always
//   gets through.
// - Strings end where the terminal that stays in them longest, tmux, ends them, so that a
//   boundary here is a boundary on every terminal. A DCS string ends only at ST (`ESC \`):
//   to tmux, CAN, SUB and `ESC x` are part of it, so `ESC P q ESC x` is still a DCS (and
//   `ESC [?1049h` inside it sets nothing, though xterm would end the DCS there). OSC,
//   SOS, PM and APC strings end at CAN, SUB or ESC as in Williams; an OSC also at BEL, as
//   in xterm. `ESC k` starts a string, tmux's window name, where xterm ignores it.
// - An OSC string is dispatched however it ends, CAN and SUB included: tmux applies it
//   then, where xterm abandons it; so are APC and `ESC k` strings, which tmux takes for a
//   pane title and a window name. Williams' other entry/exit actions (clear, hook,
//   unhook) run on entering/leaving a state as in the diagram, or are no-ops here.
// - `:` sub-parameters are collected, where Williams sends the sequence to csiIgnore.
// - Limits: 16 parameters (more are dropped; the sequence still dispatches with the first
//   16), values saturating at 65535, one intermediate byte (a sequence with two or more is
//   parsed but not interpreted), strings kept up to ControlString.capacity: no input can
//   make the parser grow.

extension ScreenParser {
    /// The states of Williams' diagram, plus tmux's.
    enum State: UInt8, CaseIterable, Sendable {
        case ground
        case escape
        case escapeIntermediate
        case csiEntry
        case csiParam
        case csiIntermediate
        case csiIgnore
        case dcsEntry
        case dcsParam
        case dcsIntermediate
        case dcsPassthrough
        /// tmux's dcs_escape: an ESC inside a DCS string, which ends it only if `\` follows.
        case dcsEscape
        case dcsIgnore
        case oscString
        case sosPmString
        /// tmux takes an APC string for a pane title.
        case apcString
        /// tmux's (and GNU screen's) `ESC k name ST`, which names the window.
        case renameString
    }

    /// What a byte does besides moving the machine.
    enum Action: UInt8, Sendable {
        case none
        /// Printable ASCII (0x20-0x7E) in ground.
        case print
        /// A byte >= 0x80 in ground: starts a UTF-8 character, or stands alone (dropped).
        case printNonASCII
        /// A C0 control: BS, HT, LF, CR, SO, SI, BEL...
        case execute
        /// A private marker (`<` `=` `>` `?`) or an intermediate byte.
        case collect
        /// A digit or `;`.
        case param
        /// `:` between sub-parameters (SGR `38:2::1:2:3`, `4:3`).
        case subparam
        case escDispatch
        case csiDispatch
        /// The final byte of a DCS header.
        case dcsHook
        case dcsPut
        /// An ESC inside a DCS string that does not end it: the ESC and this byte are payload.
        case dcsPutEscaped
        /// ST after a DCS string.
        case dcsEnd
        /// Payload of an OSC or `ESC k` string.
        case stringPut
        /// Williams' osc_end exit action, attached to every byte that ends an OSC string:
        /// BEL, ESC, and CAN and SUB too, because tmux applies an OSC however it ends.
        case oscEnd
        /// The end of an APC string (CAN, SUB or ESC), which tmux applies as a pane title.
        case apcEnd
        /// The end of an `ESC k` string (CAN, SUB or ESC), which tmux applies as a window name.
        case renameEnd
    }

    struct Transition: Sendable {
        let action: Action
        let next: State?
    }

    struct Row: Sendable {
        let bytes: ClosedRange<UInt8>
        let transition: Transition

        init(_ bytes: ClosedRange<UInt8>, _ action: Action, _ next: State? = nil) {
            self.bytes = bytes
            self.transition = Transition(action: action, next: next)
        }

        init(_ byte: UInt8, _ action: Action, _ next: State? = nil) {
            self.init(byte...byte, action, next)
        }
    }

    /// Rows that apply in every state (Williams' "anywhere"), without the C1 rows.
    static let anywhereRows: [Row] = [
        Row(0x18, .none, .ground),  // CAN
        Row(0x1A, .none, .ground),  // SUB
        Row(0x1B, .none, .escape),  // ESC
    ]

    /// The C0 controls other than CAN, SUB and ESC, which the anywhere rows own.
    private static func c0Rows(_ action: Action) -> [Row] {
        [Row(0x00...0x17, action), Row(0x19, action), Row(0x1C...0x1F, action)]
    }

    /// The rows of one state; together with `anywhereRows` they cover all 256 bytes.
    static func rows(for state: State) -> [Row] {
        switch state {
        case .ground:
            c0Rows(.execute) + [
                Row(0x20...0x7E, .print),
                Row(0x7F, .none),
                Row(0x80...0xFF, .printNonASCII),
            ]
        case .escape:
            c0Rows(.execute) + [
                Row(0x20...0x2F, .collect, .escapeIntermediate),
                Row(0x30...0x4F, .escDispatch, .ground),
                Row(0x50, .none, .dcsEntry),  // P
                Row(0x51...0x57, .escDispatch, .ground),
                Row(0x58, .none, .sosPmString),  // X
                Row(0x59...0x5A, .escDispatch, .ground),
                Row(0x5B, .none, .csiEntry),  // [
                Row(0x5C, .escDispatch, .ground),  // \ (ST)
                Row(0x5D, .none, .oscString),  // ]
                Row(0x5E, .none, .sosPmString),  // ^
                Row(0x5F, .none, .apcString),  // _
                Row(0x60...0x6A, .escDispatch, .ground),
                Row(0x6B, .none, .renameString),  // k, as in tmux (xterm ignores it)
                Row(0x6C...0x7E, .escDispatch, .ground),
                Row(0x7F...0xFF, .none),
            ]
        case .escapeIntermediate:
            c0Rows(.execute) + [
                Row(0x20...0x2F, .collect),
                Row(0x30...0x7E, .escDispatch, .ground),
                Row(0x7F...0xFF, .none),
            ]
        case .csiEntry:
            c0Rows(.execute) + [
                Row(0x20...0x2F, .collect, .csiIntermediate),
                Row(0x30...0x39, .param, .csiParam),
                Row(0x3A, .subparam, .csiParam),
                Row(0x3B, .param, .csiParam),
                Row(0x3C...0x3F, .collect, .csiParam),
                Row(0x40...0x7E, .csiDispatch, .ground),
                Row(0x7F...0xFF, .none),
            ]
        case .csiParam:
            c0Rows(.execute) + [
                Row(0x20...0x2F, .collect, .csiIntermediate),
                Row(0x30...0x39, .param),
                Row(0x3A, .subparam),
                Row(0x3B, .param),
                Row(0x3C...0x3F, .none, .csiIgnore),
                Row(0x40...0x7E, .csiDispatch, .ground),
                Row(0x7F...0xFF, .none),
            ]
        case .csiIntermediate:
            c0Rows(.execute) + [
                Row(0x20...0x2F, .collect),
                Row(0x30...0x3F, .none, .csiIgnore),
                Row(0x40...0x7E, .csiDispatch, .ground),
                Row(0x7F...0xFF, .none),
            ]
        case .csiIgnore:
            c0Rows(.execute) + [
                Row(0x20...0x3F, .none),
                Row(0x40...0x7E, .none, .ground),
                Row(0x7F...0xFF, .none),
            ]
        case .dcsEntry:
            c0Rows(.none) + [
                Row(0x20...0x2F, .collect, .dcsIntermediate),
                Row(0x30...0x39, .param, .dcsParam),
                Row(0x3A, .none, .dcsIgnore),
                Row(0x3B, .param, .dcsParam),
                Row(0x3C...0x3F, .collect, .dcsParam),
                Row(0x40...0x7E, .dcsHook, .dcsPassthrough),
                Row(0x7F...0xFF, .none),
            ]
        case .dcsParam:
            c0Rows(.none) + [
                Row(0x20...0x2F, .collect, .dcsIntermediate),
                Row(0x30...0x39, .param),
                Row(0x3A, .none, .dcsIgnore),
                Row(0x3B, .param),
                Row(0x3C...0x3F, .none, .dcsIgnore),
                Row(0x40...0x7E, .dcsHook, .dcsPassthrough),
                Row(0x7F...0xFF, .none),
            ]
        case .dcsIntermediate:
            c0Rows(.none) + [
                Row(0x20...0x2F, .collect),
                Row(0x30...0x3F, .none, .dcsIgnore),
                Row(0x40...0x7E, .dcsHook, .dcsPassthrough),
                Row(0x7F...0xFF, .none),
            ]
        // tmux ends a DCS string only at ST: CAN, SUB and an ESC followed by anything but
        // `\` are payload to it, where Williams and xterm end the string.
        case .dcsPassthrough:
            [Row(0x00...0x1A, .dcsPut), Row(0x1B, .none, .dcsEscape), Row(0x1C...0xFF, .dcsPut)]
        case .dcsEscape:
            [
                Row(0x00...0x5B, .dcsPutEscaped, .dcsPassthrough), Row(0x5C, .dcsEnd, .ground),
                Row(0x5D...0xFF, .dcsPutEscaped, .dcsPassthrough),
            ]
        case .dcsIgnore, .sosPmString:
            c0Rows(.none) + [Row(0x20...0xFF, .none)]
        case .oscString:
            [
                Row(0x00...0x06, .none),
                Row(0x07, .oscEnd, .ground),  // BEL ends an OSC, as in xterm
                Row(0x08...0x17, .none),
                Row(0x19, .none),
                Row(0x1C...0x1F, .none),
                Row(0x20...0xFF, .stringPut),
            ] + stringEndRows(.oscEnd)
        case .apcString:
            c0Rows(.none) + stringEndRows(.apcEnd) + [Row(0x20...0xFF, .none)]
        case .renameString:
            c0Rows(.none) + stringEndRows(.renameEnd) + [Row(0x20...0xFF, .stringPut)]
        }
    }

    /// The anywhere rows with `action` run on leaving the string, as tmux's exit handlers do.
    private static func stringEndRows(_ action: Action) -> [Row] {
        [Row(0x18, action, .ground), Row(0x1A, action, .ground), Row(0x1B, action, .escape)]
    }

    /// `anywhereRows` and `rows(for:)` flattened to one entry per (state, byte), indexed by
    /// `state.rawValue << 8 | byte`. Built once; later rows override earlier ones.
    static let transitions: ContiguousArray<Transition> = {
        let unset = Transition(action: .none, next: nil)
        var table = ContiguousArray(repeating: unset, count: State.allCases.count << 8)
        for state in State.allCases {
            for row in anywhereRows + rows(for: state) {
                for byte in row.bytes {
                    table[Int(state.rawValue) << 8 | Int(byte)] = row.transition
                }
            }
        }
        return table
    }()
}

// The transition table of ScreenParser, as data: Paul Williams' DEC/ANSI parser
// (https://vt100.net/emu/dec_ansi_parser) state by state, with tmux's string states (its
// input.c) where tmux stays in a string longer. The states and where each byte leads are
// exactly those of OutputParser (whose header lists the departures from Williams); the
// actions are richer, because the screen model interprets what OutputParser skips. A row's
// `next` is nil when the byte leaves the state unchanged (no exit or entry action runs).

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

// Every escape and control sequence the screen model knows, one row each, as tmux's
// input_esc_table[] and input_csi_table[]: (private marker, intermediate, final) → the
// function, with what the speed tricks need to know of it. The state switches on the
// function (ScreenStateSequences.swift); the C classifier that decides what of a read
// before its last full erase may be left out (ccellredraw.c) reads tables that
// Tools/generate-control-functions.py writes from these rows, and ControlFunctionTableTests
// checks that the two agree on every sequence.
//
// To add a sequence: a row here (one line, the form the script reads), its case, its
// handler in ScreenStateSequences.swift (a mode is a row of ModeTable.swift), then rerun
//     python3 Tools/generate-control-functions.py
// CONTRIBUTING.md shows it done for DECST8C.

/// A control function the model (the grid's state, or the mode tracker) interprets, or at
/// least knows enough of for the redraw skip.
enum ControlFunction: UInt8, Sendable {
    /// No row: ignored by the model.
    case unknown
    // Escape sequences.
    case decsc, decrc, ind, nel, hts, ri, ris, decaln, lineSize, designateG0, designateG1, deckpam, deckpnm
    /// Not interpreted, but known to change nothing the redraw skip cares for: ST alone,
    /// the locking shifts (the model has G0 and G1 only) and DECID.
    case stringTerminator, lockingShift, decid
    // Control sequences without a marker or intermediate.
    case ich, cuu, cud, cuf, cub, cnl, cpl, cha, cup, cht, ed, el, il, dl, dch, su, sd, ech, cbt, hpa, hpr, rep
    case da1, vpa, vpr, hvp, tbc, sm, rm, sgr, dsr, decstbm, scoscOrDecslrm, xtwinops, scorc
    /// ECMA-48's cursor moves backward (libvterm has them).
    case hpb, vpb
    // Control sequences with a marker or intermediate.
    /// DECSED is not interpreted (its erase is ED's, but for protected cells): only the
    /// rows above the start follow it (ScreenStartPosition).
    case decsed
    case decset, decrst, decstr, decscusr, decrqm, da2, da3, xtversion, kittyKeyboardQuery
    case kittyKeyboardPush, kittyKeyboardPop, kittyKeyboardSet, xtmodkeys, xtmodkeysDisable, decxcpr, xtqmodkeys
}

/// What a sequence before a read's last full erase (ED 2) is to the redraw skip
/// (ccell_find_redraw): the raw values are ccellredraw.c's item_kind.
enum BeforeFullRedraw: UInt8, Sendable {
    /// Reads the cursor or pen, or switches screens (the erase would blank another one):
    /// nothing before the erase may be left out.
    case kept = 0
    /// Its effect on the grid and cursor is undone by the erase and the CUP after it.
    case undone = 1
    /// An SGR: its pen is set again by the reset that begins the redraw.
    case pen = 2
    /// A CUP: the cursor is set again by the redraw's own.
    case cursor = 3
    /// Changes state the erase does not undo, and reads neither grid, cursor nor pen:
    /// fed alone, in order.
    case fedAlone = 4
}

/// One row of the table.
struct ControlFunctionRow: Sendable {
    let function: ControlFunction
    /// `<`, `=`, `>` or `?`, or 0.
    let marker: UInt8
    /// 0x20-0x2F, or 0.
    let intermediate: UInt8
    /// The final byte; 0 in an escape row stands for every final (the character sets).
    let final: UInt8
    let beforeFullRedraw: BeforeFullRedraw
    /// A question to the terminal, kept by QueryHold while the screen is hidden.
    let isQuery: Bool

    init(
        _ function: ControlFunction, marker: Unicode.Scalar? = nil, intermediate: Unicode.Scalar? = nil,
        final: Unicode.Scalar?, redraw: BeforeFullRedraw, query: Bool = false
    ) {
        self.function = function
        self.marker = marker.map { UInt8(ascii: $0) } ?? 0
        self.intermediate = intermediate.map { UInt8(ascii: $0) } ?? 0
        self.final = final.map { UInt8(ascii: $0) } ?? 0
        self.beforeFullRedraw = redraw
        self.isQuery = query
    }
}

extension ControlFunction {
    /// `ESC intermediate final`. The script reads these rows: one to a line.
    static let escapeRows: [ControlFunctionRow] = [
        ControlFunctionRow(.decsc, final: "7", redraw: .kept),
        ControlFunctionRow(.decrc, final: "8", redraw: .kept),
        ControlFunctionRow(.deckpam, final: "=", redraw: .fedAlone),
        ControlFunctionRow(.deckpnm, final: ">", redraw: .fedAlone),
        ControlFunctionRow(.ind, final: "D", redraw: .undone),
        ControlFunctionRow(.nel, final: "E", redraw: .undone),
        ControlFunctionRow(.hts, final: "H", redraw: .kept),
        ControlFunctionRow(.ri, final: "M", redraw: .undone),
        ControlFunctionRow(.decid, final: "Z", redraw: .fedAlone),
        ControlFunctionRow(.stringTerminator, final: "\\", redraw: .fedAlone),
        ControlFunctionRow(.ris, final: "c", redraw: .kept),
        ControlFunctionRow(.lockingShift, final: "n", redraw: .fedAlone),
        ControlFunctionRow(.lockingShift, final: "o", redraw: .fedAlone),
        ControlFunctionRow(.lockingShift, final: "|", redraw: .fedAlone),
        ControlFunctionRow(.lockingShift, final: "}", redraw: .fedAlone),
        ControlFunctionRow(.lockingShift, final: "~", redraw: .fedAlone),
        ControlFunctionRow(.lineSize, intermediate: "#", final: "3", redraw: .fedAlone),
        ControlFunctionRow(.lineSize, intermediate: "#", final: "4", redraw: .fedAlone),
        ControlFunctionRow(.lineSize, intermediate: "#", final: "5", redraw: .fedAlone),
        ControlFunctionRow(.lineSize, intermediate: "#", final: "6", redraw: .fedAlone),
        ControlFunctionRow(.decaln, intermediate: "#", final: "8", redraw: .fedAlone),
        ControlFunctionRow(.designateG0, intermediate: "(", final: nil, redraw: .fedAlone),
        ControlFunctionRow(.designateG1, intermediate: ")", final: nil, redraw: .fedAlone),
    ]

    /// `ESC [ marker parameters intermediate final`. The script reads these rows: one to a
    /// line.
    static let controlSequenceRows: [ControlFunctionRow] = [
        ControlFunctionRow(.ich, final: "@", redraw: .undone),
        ControlFunctionRow(.cuu, final: "A", redraw: .undone),
        ControlFunctionRow(.cud, final: "B", redraw: .undone),
        ControlFunctionRow(.cuf, final: "C", redraw: .undone),
        ControlFunctionRow(.cub, final: "D", redraw: .undone),
        ControlFunctionRow(.cnl, final: "E", redraw: .undone),
        ControlFunctionRow(.cpl, final: "F", redraw: .undone),
        ControlFunctionRow(.cha, final: "G", redraw: .undone),
        ControlFunctionRow(.cup, final: "H", redraw: .cursor),
        ControlFunctionRow(.cht, final: "I", redraw: .undone),
        ControlFunctionRow(.ed, final: "J", redraw: .undone),
        ControlFunctionRow(.el, final: "K", redraw: .undone),
        ControlFunctionRow(.il, final: "L", redraw: .undone),
        ControlFunctionRow(.dl, final: "M", redraw: .undone),
        ControlFunctionRow(.dch, final: "P", redraw: .undone),
        ControlFunctionRow(.su, final: "S", redraw: .undone),
        ControlFunctionRow(.sd, final: "T", redraw: .undone),
        ControlFunctionRow(.ech, final: "X", redraw: .undone),
        ControlFunctionRow(.cbt, final: "Z", redraw: .undone),
        ControlFunctionRow(.hpa, final: "`", redraw: .undone),
        ControlFunctionRow(.hpr, final: "a", redraw: .undone),
        ControlFunctionRow(.rep, final: "b", redraw: .undone),
        ControlFunctionRow(.da1, final: "c", redraw: .fedAlone, query: true),
        ControlFunctionRow(.vpa, final: "d", redraw: .undone),
        ControlFunctionRow(.vpr, final: "e", redraw: .undone),
        ControlFunctionRow(.hvp, final: "f", redraw: .cursor),
        ControlFunctionRow(.tbc, final: "g", redraw: .kept),
        ControlFunctionRow(.sm, final: "h", redraw: .fedAlone),
        ControlFunctionRow(.hpb, final: "j", redraw: .undone),
        ControlFunctionRow(.vpb, final: "k", redraw: .undone),
        ControlFunctionRow(.rm, final: "l", redraw: .fedAlone),
        ControlFunctionRow(.sgr, final: "m", redraw: .pen),
        ControlFunctionRow(.dsr, final: "n", redraw: .fedAlone, query: true),
        ControlFunctionRow(.decstbm, final: "r", redraw: .fedAlone),
        ControlFunctionRow(.scoscOrDecslrm, final: "s", redraw: .kept),
        ControlFunctionRow(.xtwinops, final: "t", redraw: .fedAlone, query: true),
        ControlFunctionRow(.scorc, final: "u", redraw: .kept),
        ControlFunctionRow(.decsed, marker: "?", final: "J", redraw: .fedAlone),
        ControlFunctionRow(.decset, marker: "?", final: "h", redraw: .fedAlone),
        ControlFunctionRow(.decrst, marker: "?", final: "l", redraw: .fedAlone),
        ControlFunctionRow(.decstr, intermediate: "!", final: "p", redraw: .fedAlone),
        ControlFunctionRow(.decscusr, intermediate: " ", final: "q", redraw: .fedAlone),
        ControlFunctionRow(.decrqm, intermediate: "$", final: "p", redraw: .fedAlone, query: true),
        ControlFunctionRow(.decrqm, marker: "?", intermediate: "$", final: "p", redraw: .fedAlone, query: true),
        ControlFunctionRow(.da2, marker: ">", final: "c", redraw: .fedAlone, query: true),
        ControlFunctionRow(.da3, marker: "=", final: "c", redraw: .fedAlone, query: true),
        ControlFunctionRow(.xtversion, marker: ">", final: "q", redraw: .fedAlone, query: true),
        ControlFunctionRow(.kittyKeyboardQuery, marker: "?", final: "u", redraw: .fedAlone, query: true),
        ControlFunctionRow(.kittyKeyboardPush, marker: ">", final: "u", redraw: .fedAlone),
        ControlFunctionRow(.kittyKeyboardPop, marker: "<", final: "u", redraw: .fedAlone),
        ControlFunctionRow(.kittyKeyboardSet, marker: "=", final: "u", redraw: .fedAlone),
        ControlFunctionRow(.xtmodkeys, marker: ">", final: "m", redraw: .fedAlone),
        ControlFunctionRow(.xtmodkeysDisable, marker: ">", final: "n", redraw: .fedAlone),
        ControlFunctionRow(.decxcpr, marker: "?", final: "n", redraw: .fedAlone, query: true),
        ControlFunctionRow(.xtqmodkeys, marker: "?", final: "m", redraw: .fedAlone, query: true),
    ]

    // MARK: - Looking a sequence up

    /// Where a control sequence's row is in `controlSequences`: markers 1-4, intermediates
    /// 1-16, finals 0x40-0x7E; nil for bytes no row can have.
    @inline(__always)
    static func controlSequenceIndex(marker: UInt8, intermediate: UInt8, final: UInt8) -> Int? {
        let markerIndex = marker == 0 ? 0 : Int(marker &- 0x3B)
        let intermediateIndex = intermediate == 0 ? 0 : Int(intermediate &- 0x1F)
        guard markerIndex < 5, intermediateIndex < 17, final &- 0x40 < 0x3F else { return nil }
        return (markerIndex &* 17 &+ intermediateIndex) &* 64 &+ Int(final &- 0x40)
    }

    /// Where an escape sequence's row is in `escapes`: intermediates 1-16, finals 0x30-0x7E.
    static func escapeIndex(intermediate: UInt8, final: UInt8) -> Int? {
        let intermediateIndex = intermediate == 0 ? 0 : Int(intermediate &- 0x1F)
        guard intermediateIndex < 17, final &- 0x30 < 0x4F else { return nil }
        return intermediateIndex &* 80 &+ Int(final &- 0x30)
    }

    /// The rows of the control sequences spread over every (marker, intermediate, final):
    /// the row's index + 1, 0 where there is none. Built once.
    static let controlSequences: ContiguousArray<UInt8> = {
        var table = ContiguousArray<UInt8>(repeating: 0, count: 5 * 17 * 64)
        for (index, row) in controlSequenceRows.enumerated() {
            table[controlSequenceIndex(marker: row.marker, intermediate: row.intermediate, final: row.final)!] =
                UInt8(index + 1)
        }
        return table
    }()

    /// The same for the escape sequences; a row for every final is spread first, so that a
    /// row for one final wins over it.
    static let escapes: ContiguousArray<UInt8> = {
        var table = ContiguousArray<UInt8>(repeating: 0, count: 17 * 80)
        for (index, row) in escapeRows.enumerated() where row.final == 0 {
            for final in UInt8(0x30)...0x7E {
                table[escapeIndex(intermediate: row.intermediate, final: final)!] = UInt8(index + 1)
            }
        }
        for (index, row) in escapeRows.enumerated() where row.final != 0 {
            table[escapeIndex(intermediate: row.intermediate, final: row.final)!] = UInt8(index + 1)
        }
        return table
    }()

    /// The row of a control sequence, or nil.
    @inline(__always)
    static func controlSequenceRow(marker: UInt8, intermediate: UInt8, final: UInt8) -> ControlFunctionRow? {
        guard let index = controlSequenceIndex(marker: marker, intermediate: intermediate, final: final) else {
            return nil
        }
        let row = controlSequences[index]
        return row == 0 ? nil : controlSequenceRows[Int(row &- 1)]
    }

    /// The function of a control sequence.
    @inline(__always)
    static func controlSequence(marker: UInt8, intermediate: UInt8, final: UInt8) -> ControlFunction {
        controlSequenceRow(marker: marker, intermediate: intermediate, final: final)?.function ?? .unknown
    }

    static func escapeRow(intermediate: UInt8, final: UInt8) -> ControlFunctionRow? {
        guard let index = escapeIndex(intermediate: intermediate, final: final) else { return nil }
        let row = escapes[index]
        return row == 0 ? nil : escapeRows[Int(row &- 1)]
    }

    static func escape(intermediate: UInt8, final: UInt8) -> ControlFunction {
        escapeRow(intermediate: intermediate, final: final)?.function ?? .unknown
    }

    // MARK: - Sequences without a row

    /// What a control sequence without a row is before a full erase: those with a `#` and
    /// no marker (XTPUSHSGR and its kin, which read the pen) are kept; the model ignores
    /// the rest.
    static func controlSequenceBeforeFullRedraw(marker: UInt8, intermediate: UInt8, final: UInt8) -> BeforeFullRedraw {
        if let row = controlSequenceRow(marker: marker, intermediate: intermediate, final: final) {
            return row.beforeFullRedraw
        }
        return marker == 0 && intermediate == UInt8(ascii: "#") ? .kept : .fedAlone
    }

    /// The same for an escape sequence (the strings aside): one with intermediates is
    /// fed alone; one without, not known, is kept.
    static func escapeBeforeFullRedraw(intermediate: UInt8, final: UInt8) -> BeforeFullRedraw {
        if let row = escapeRow(intermediate: intermediate, final: final) { return row.beforeFullRedraw }
        return intermediate == 0 ? .kept : .fedAlone
    }
}

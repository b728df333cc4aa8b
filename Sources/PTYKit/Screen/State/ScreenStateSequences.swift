// Which escape sequence, control sequence and control string does what. The mode tracker
// (ScreenModes) sees every sequence first, then the grid's state.

extension ScreenState: ScreenParserConsumer {
    mutating func escapeDispatch(_ final: UInt8, _ sequence: UnsafePointer<SequenceParameters>) {
        lastPrinted = nil
        let function =
            sequence.pointee.hasExtraIntermediates
            ? .unknown : ControlFunction.escape(intermediate: sequence.pointee.intermediate, final: final)
        modes.applyEscapeSequence(function)
        switch function {
        case .decsc: saveCursor()
        case .decrc: restoreCursor()
        case .ind: lineFeed()
        case .nel:
            carriageReturn()
            lineFeed()
        case .hts: tabStops[cursor.x] = true
        case .ri: reverseIndex()
        case .ris: fullReset()  // modes already reset
        case .decaln: screenAlignment()
        case .lineSize: LineSize(final: final).map { setLineSize($0) }
        case .designateG0: charsets.g0 = Self.charset(final)
        case .designateG1: charsets.g1 = Self.charset(final)
        default: break
        }
        if history.rowsBeforeStart > 0 { followRowsBeforeStart(erasedAbove: false) }
    }

    private static func charset(_ final: UInt8) -> TerminalCharacterSet {
        switch final {
        case UInt8(ascii: "0"): .decGraphics
        case UInt8(ascii: "A"): .unitedKingdom
        default: .ascii
        }
    }

    @inline(__always)
    mutating func cursorPosition(_ row: UInt32, _ column: UInt32) {
        lastPrinted = nil
        moveTo(row: row == 0 ? 1 : Int(row), column: column == 0 ? 1 : Int(column))
        if history.rowsBeforeStart > 0 { followRowsBeforeStart(erasedAbove: false) }
    }

    // Kept out of the parser's loop: the SGRs that make up most sequences take the fast
    // path (selectGraphicRendition), and this much code inlined there costs the loop the
    // inlining of its small helpers.
    @inline(never)
    mutating func controlSequenceDispatch(_ final: UInt8, _ sequence: UnsafePointer<SequenceParameters>) {
        // A sequence with more than one intermediate has no row: the model ignores it.
        guard !sequence.pointee.hasExtraIntermediates else {
            lastPrinted = nil
            return
        }
        let row = ControlFunction.controlSequenceRow(
            marker: sequence.pointee.marker, intermediate: sequence.pointee.intermediate, final: final)
        let function = row?.function ?? .unknown
        lastPrinted = function == .rep ? lastPrinted : nil
        if function == .sgr {
            var style = pen.style
            style.apply(sequence)
            setPen(style)
            return
        }
        // Only SGR interprets sub-parameters.
        guard !sequence.pointee.hasSubparameters else {
            if sequence.pointee.marker | sequence.pointee.intermediate != 0 && history.rowsBeforeStart > 0 {
                followRowsBeforeStart(erasedAbove: false)
            }
            return
        }
        modes.applyControlSequence(function, sequence)
        if row?.isQuery == true && function != .xtwinops {
            queries.note(function, final: final, sequence)
        } else {
            controlSequence(function, sequence)
        }
        // SU, SD or a screen switch may bring a row of another size under the cursor.
        if sizedLinesSeen { dropWrapOffEdge() }
        if history.rowsBeforeStart > 0 {
            // ED 1 or 2 erase every row above the cursor (DECSED erases nothing here: the
            // model keeps no protected cells, and tmux ignores it).
            let erased = function == .ed && (1...2).contains(sequence.pointee.parameter(0, default: 0))
            followRowsBeforeStart(erasedAbove: erased)
        }
    }

    @inline(__always)
    mutating func selectGraphicRendition(_ code: UInt32) {
        lastPrinted = nil
        var style = pen.style
        style.apply(code)
        setPen(style)
    }

    @inline(__always)
    mutating func selectGraphicRendition(_ first: UInt32, _ second: UInt32) {
        lastPrinted = nil
        var style = pen.style
        style.apply(first)
        style.apply(second)
        setPen(style)
    }

    private mutating func controlSequence(_ function: ControlFunction, _ sequence: UnsafePointer<SequenceParameters>) {
        let count = sequence.pointee.count(0)
        switch function {
        case .ich: insertBlanks(count)
        case .cuu, .vpb: moveVertically(-count)
        case .cud: moveVertically(count)
        case .vpr: moveDownAsPosition(count)
        case .cuf: moveHorizontally(count)
        case .hpr: moveRightAsPosition(count)
        case .cub, .hpb: moveHorizontally(-count)
        case .cnl:
            moveVertically(count)
            carriageReturn()
        case .cpl:
            moveVertically(-count)
            carriageReturn()
        case .cha, .hpa: moveToColumn(count)
        case .cup, .hvp: moveTo(row: count, column: sequence.pointee.count(1))
        case .cht: tab(forward: count)
        case .ed: eraseInDisplay(sequence.pointee.parameter(0, default: 0))
        case .el: eraseInLine(sequence.pointee.parameter(0, default: 0))
        case .il: insertOrDeleteLines(count, insert: true)
        case .dl: insertOrDeleteLines(count, insert: false)
        case .dch: deleteCharacters(count)
        case .su: scrollUp(count)
        case .sd: scrollDown(count)
        case .ech: eraseCharacters(count)
        case .cbt: tab(forward: -count)
        case .rep: repeatLast(count)
        case .vpa: moveToRow(count)
        case .tbc:
            switch sequence.pointee.parameter(0, default: 0) {
            case 0: tabStops[cursor.x] = false
            case 3: tabStops.clearAll()
            default: break
            }
        case .sm, .rm, .decset, .decrst:
            let isPrivate = function == .decset || function == .decrst
            for index in 0..<sequence.pointee.parameterCount {
                let number = Int(sequence.pointee.parameter(index, default: 0))
                guard let mode = ModeRow.lookUp(number, isPrivate: isPrivate) else { continue }
                set(mode, on: function == .sm || function == .decset)
            }
        case .decstbm:
            guard let (top, bottom) = marginPair(sequence, limit: rows) else { return }
            (margins.top, margins.bottom) = (top, bottom)
            moveTo(row: 1, column: 1)
        case .scoscOrDecslrm:
            guard margins.leftRightMode else { return saveCursor() }  // SCOSC
            guard let (left, right) = marginPair(sequence, limit: columns) else { return }  // DECSLRM
            (margins.left, margins.right) = (left, right)
            moveTo(row: 1, column: 1)
        case .scorc: restoreCursor()
        case .xtwinops: windowOperation(sequence)
        case .decstr: softReset()  // modes already
        case .decscusr:
            let shape = sequence.pointee.parameter(0, default: 0)
            if shape <= 6 { cursor.shape = UInt8(shape) }
        default:
            break
        }
    }

    /// SM, RM, DECSET or DECRST of `mode`: ScreenModes follows it first, then its owner
    /// here.
    private mutating func set(_ mode: TerminalMode, on: Bool) {
        modes.set(mode, on: on)
        switch mode.row.owner {
        case .screen: setScreenMode(mode, on: on)
        case .alternateScreen: setAlternateScreenMode(mode, on: on)
        case .input, .keypad, .cursor, .repaint: break
        }
    }

    /// The modes the grid's state keeps.
    private mutating func setScreenMode(_ mode: TerminalMode, on: Bool) {
        switch mode {
        case .columns132:
            // DECCOLM: the window keeps its width, but the screen is cleared (with the
            // background) and the cursor homed, margins and origin mode kept, as tmux does
            // (xterm only where mode 40 allows 132 columns, and then it resets the margins).
            eraseInDisplay(2)
            moveTo(row: 1, column: 1)
            followRowsBeforeStart(erasedAbove: true)
        case .insert: gridModes.insert = on
        case .lineFeedNewLine: gridModes.newline = on
        case .reverseVideo: gridModes.reverseVideo = on
        case .origin:
            gridModes.origin = on
            moveTo(row: 1, column: 1)
        case .autowrap:
            gridModes.autowrap = on
            if !on { cursor.pendingWrap = false }
        case .cursorBlink: cursor.blinks = on
        case .leftRightMargins:
            margins.leftRightMode = on
            if on { dropLineSizes() }
            if !on {
                margins.left = 0
                margins.right = columns - 1
                dropMarginWraps()
            }
        default:
            break
        }
    }

    /// DECSTBM's or DECSLRM's two margins, 0-based: the parameters count from 1 and the
    /// second is `limit` at most and by default; nil when they leave no room between them.
    private func marginPair(_ sequence: UnsafePointer<SequenceParameters>, limit: Int) -> (Int, Int)? {
        let first = sequence.pointee.count(0) - 1
        let last = min(sequence.pointee.count(1, default: limit), limit) - 1
        return first < last ? (first, last) : nil
    }

    /// XTWINOPS: 22 and 23 push and pop the title; the reports (11, 13, 14, 16, 18, 19, 20,
    /// 21) are queries.
    private mutating func windowOperation(_ sequence: UnsafePointer<SequenceParameters>) {
        switch sequence.pointee.parameter(0, default: 0) {
        case 22:
            if sequence.pointee.parameter(1, default: 0) != 1 { titles.push() }
        case 23:
            if sequence.pointee.parameter(1, default: 0) != 1 { titles.pop() }
        case 11, 13, 14, 15, 16, 18, 19, 20, 21:
            queries.note(.xtwinops, final: UInt8(ascii: "t"), sequence)
        default:
            break
        }
    }

    // MARK: - Strings

    mutating func operatingSystemCommandDispatch(_ payload: ControlString) {
        lastPrinted = nil
        modes.applyOperatingSystemCommand(payload)
        guard let command = payload.oscCommand() else { return }
        let text = Array(UnsafeBufferPointer(rebasing: payload.bytes[command.rest...]))
        if command.hasSeparator && command.number <= 2 { titles.sets &+= 1 }
        switch command.number {
        case 0, 1, 2:
            guard command.hasSeparator else { return }
            if command.number != 1 { titles.title = text }
            if command.number != 2 { titles.iconName = text }
        case 7:
            titles.workingDirectory = text
        case 8:
            // `8;params;URI`: an empty URI ends the link. A payload cut at the limit ends
            // it too: its URI would be another one than the program's.
            guard let separator = text.firstIndex(of: UInt8(ascii: ";")) else { return }
            var style = pen.style
            if separator + 1 == text.count || payload.isTruncated {
                style.hyperlink = 0
            } else {
                style.hyperlink = idCollectingIfFull { $0.pen.hyperlinks.id(for: text) } ?? 0
            }
            setPen(style)
        case 4, 10, 11, 12, 52:
            if text.contains(UInt8(ascii: "?")) { queries.noteString(osc: payload) }
        default:
            break
        }
    }

    mutating func applicationProgramCommandEnd() {
        lastPrinted = nil
        modes.noteWindowTitleSet()
        titles.sets &+= 1
    }

    mutating func windowNameDispatch(_ payload: ControlString) {
        lastPrinted = nil
        modes.noteWindowNameSet()
        titles.windowName = Array(payload.bytes)
    }

    mutating func deviceControlDispatch(
        _ final: UInt8, _ sequence: UnsafePointer<SequenceParameters>, _ payload: ControlString
    ) {
        lastPrinted = nil
        guard payload.isKept else { return }
        queries.noteString(dcs: sequence.pointee.intermediate, payload: payload)
    }
}

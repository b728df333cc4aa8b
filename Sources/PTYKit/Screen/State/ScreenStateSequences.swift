// Which escape sequence, control sequence and control string does what. The mode tracker
// (ScreenModes) sees every sequence first, then the grid's state.

extension ScreenState: ScreenParserConsumer {
    mutating func escapeDispatch(_ final: UInt8, _ sequence: UnsafePointer<SequenceParameters>) {
        lastPrinted = nil
        modes.applyEscapeSequence(final: final, sequence)
        guard !sequence.pointee.hasExtraIntermediates else { return }
        switch (sequence.pointee.intermediate, final) {
        case (0, UInt8(ascii: "7")): saveCursor()  // DECSC
        case (0, UInt8(ascii: "8")): restoreCursor()  // DECRC
        case (0, UInt8(ascii: "D")): lineFeed()  // IND
        case (0, UInt8(ascii: "E")):  // NEL
            carriageReturn()
            lineFeed()
        case (0, UInt8(ascii: "H")): tabStops[x] = true  // HTS
        case (0, UInt8(ascii: "M")): reverseIndex()  // RI
        case (0, UInt8(ascii: "c")): fullReset()  // RIS (modes already reset)
        case (UInt8(ascii: "#"), UInt8(ascii: "8")): screenAlignment()  // DECALN
        case (UInt8(ascii: "("), _): g0 = Self.charset(final)
        case (UInt8(ascii: ")"), _): g1 = Self.charset(final)
        default: break
        }
        if rowsBeforeStart > 0 { followRowsBeforeStart(erasedAbove: false) }
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
        if rowsBeforeStart > 0 { followRowsBeforeStart(erasedAbove: false) }
    }

    // Kept out of the parser's loop: the SGRs that make up most sequences take the fast
    // path (selectGraphicRendition), and this much code inlined there costs the loop the
    // inlining of its small helpers.
    @inline(never)
    mutating func controlSequenceDispatch(_ final: UInt8, _ sequence: UnsafePointer<SequenceParameters>) {
        lastPrinted = final == UInt8(ascii: "b") ? lastPrinted : nil
        modes.applyControlSequence(final: final, sequence)
        guard !sequence.pointee.hasExtraIntermediates else { return }
        if sequence.pointee.marker | sequence.pointee.intermediate == 0 {
            if final == UInt8(ascii: "m") {
                var style = pen
                style.apply(sequence)
                setPen(style)
                return
            }
            guard !sequence.pointee.hasSubparameters else { return }
            unmarkedControlSequence(final, sequence)
        } else if !sequence.pointee.hasSubparameters {
            markedControlSequence(final, sequence)
        }
        if rowsBeforeStart > 0 {
            // ED or DECSED 1 or 2 erase every row above the cursor.
            let erased =
                final == UInt8(ascii: "J") && sequence.pointee.intermediate == 0
                && (1...2).contains(sequence.pointee.parameter(0, default: 0))
            followRowsBeforeStart(erasedAbove: erased)
        }
    }

    @inline(__always)
    mutating func selectGraphicRendition(_ code: UInt32) {
        lastPrinted = nil
        var style = pen
        style.apply(code)
        setPen(style)
    }

    @inline(__always)
    mutating func selectGraphicRendition(_ first: UInt32, _ second: UInt32) {
        lastPrinted = nil
        var style = pen
        style.apply(first)
        style.apply(second)
        setPen(style)
    }

    private mutating func unmarkedControlSequence(_ final: UInt8, _ sequence: UnsafePointer<SequenceParameters>) {
        let count = sequence.pointee.count(0)
        switch final {
        case UInt8(ascii: "@"): insertBlanks(count)  // ICH
        case UInt8(ascii: "A"): moveVertically(-count)  // CUU
        case UInt8(ascii: "B"), UInt8(ascii: "e"): moveVertically(count)  // CUD, VPR
        case UInt8(ascii: "C"), UInt8(ascii: "a"): moveHorizontally(count)  // CUF, HPR
        case UInt8(ascii: "D"): moveHorizontally(-count)  // CUB
        case UInt8(ascii: "E"):  // CNL
            moveVertically(count)
            carriageReturn()
        case UInt8(ascii: "F"):  // CPL
            moveVertically(-count)
            carriageReturn()
        case UInt8(ascii: "G"), UInt8(ascii: "`"): moveToColumn(count)  // CHA, HPA
        case UInt8(ascii: "H"), UInt8(ascii: "f"): moveTo(row: count, column: sequence.pointee.count(1))  // CUP, HVP
        case UInt8(ascii: "I"): tab(forward: count)  // CHT
        case UInt8(ascii: "J"): eraseInDisplay(sequence.pointee.parameter(0, default: 0))  // ED
        case UInt8(ascii: "K"): eraseInLine(sequence.pointee.parameter(0, default: 0))  // EL
        case UInt8(ascii: "L"): insertOrDeleteLines(count, insert: true)  // IL
        case UInt8(ascii: "M"): insertOrDeleteLines(count, insert: false)  // DL
        case UInt8(ascii: "P"): deleteCharacters(count)  // DCH
        case UInt8(ascii: "S"): scrollUp(count)  // SU
        case UInt8(ascii: "T"): scrollDown(count)  // SD
        case UInt8(ascii: "X"): eraseCharacters(count)  // ECH
        case UInt8(ascii: "Z"): tab(forward: -count)  // CBT
        case UInt8(ascii: "b"): repeatLast(count)  // REP
        case UInt8(ascii: "d"): moveToRow(count)  // VPA
        case UInt8(ascii: "g"):  // TBC
            switch sequence.pointee.parameter(0, default: 0) {
            case 0: tabStops[x] = false
            case 3: tabStops = [Bool](repeating: false, count: columns)
            default: break
            }
        case UInt8(ascii: "h"), UInt8(ascii: "l"):  // SM, RM
            for index in 0..<sequence.pointee.parameterCount {
                switch sequence.pointee.parameter(index, default: 0) {
                case 4: insertMode = final == UInt8(ascii: "h")
                case 20: newlineMode = final == UInt8(ascii: "h")
                case let mode: modes.setANSIMode(Int(mode), on: final == UInt8(ascii: "h"))
                }
            }
        case UInt8(ascii: "r"):  // DECSTBM
            let newTop = sequence.pointee.count(0) - 1
            let newBottom = min(sequence.pointee.count(1, default: rows), rows) - 1
            guard newTop < newBottom else { return }
            top = newTop
            bottom = newBottom
            moveTo(row: 1, column: 1)
        case UInt8(ascii: "s"):
            if leftRightMarginMode {  // DECSLRM
                let newLeft = sequence.pointee.count(0) - 1
                let newRight = min(sequence.pointee.count(1, default: columns), columns) - 1
                guard newLeft < newRight else { return }
                left = newLeft
                right = newRight
                moveTo(row: 1, column: 1)
            } else {
                saveCursor()  // SCOSC
            }
        case UInt8(ascii: "u"): restoreCursor()  // SCORC
        case UInt8(ascii: "t"): windowOperation(sequence)
        case UInt8(ascii: "c"), UInt8(ascii: "n"): queries.note(final: final, sequence)  // DA1, DSR
        default: break
        }
    }

    private mutating func markedControlSequence(_ final: UInt8, _ sequence: UnsafePointer<SequenceParameters>) {
        switch (sequence.pointee.marker, sequence.pointee.intermediate, final) {
        case (UInt8(ascii: "?"), 0, UInt8(ascii: "h")), (UInt8(ascii: "?"), 0, UInt8(ascii: "l")):
            for index in 0..<sequence.pointee.parameterCount {
                setPrivateMode(Int(sequence.pointee.parameter(index, default: 0)), on: final == UInt8(ascii: "h"))
            }
        case (0, UInt8(ascii: "!"), UInt8(ascii: "p")): softReset()  // DECSTR (modes already)
        case (0, UInt8(ascii: " "), UInt8(ascii: "q")):  // DECSCUSR
            let shape = sequence.pointee.parameter(0, default: 0)
            if shape <= 6 { cursorShape = UInt8(shape) }
        case (_, UInt8(ascii: "$"), UInt8(ascii: "p")),  // DECRQM
            (UInt8(ascii: ">"), 0, UInt8(ascii: "c")), (UInt8(ascii: "="), 0, UInt8(ascii: "c")),  // DA2, DA3
            (UInt8(ascii: ">"), 0, UInt8(ascii: "q")),  // XTVERSION
            (UInt8(ascii: "?"), 0, UInt8(ascii: "u")),  // kitty flags
            (UInt8(ascii: "?"), 0, UInt8(ascii: "n")),  // DECXCPR, DSR with ?
            (UInt8(ascii: "?"), 0, UInt8(ascii: "m")):  // XTQMODKEYS
            queries.note(final: final, sequence)
        default:
            break
        }
    }

    /// DECSET and DECRST for the modes the grid follows (ScreenModes follows the rest).
    private mutating func setPrivateMode(_ mode: Int, on: Bool) {
        switch mode {
        case 5: reverseVideo = on
        case 6:
            originMode = on
            moveTo(row: 1, column: 1)
        case 7:
            autowrap = on
            if !on { pendingWrap = false }
        case 12: cursorBlink = on
        case 69:
            leftRightMarginMode = on
            if !on {
                left = 0
                right = columns - 1
                dropMarginWraps()
            }
        case 47:
            switchScreen(toAlternate: on)
        case 1047:
            if !on && onAlternate {
                for row in 0..<rows { grid.clearRow(row, style: 0) }
            }
            switchScreen(toAlternate: on)
        case 1048:
            if on { saveCursor() } else { restoreCursor() }
        case 1049:
            if on {
                if !onAlternate {
                    saveCursor()
                    switchScreen(toAlternate: true)
                    let style = erasePenId()
                    for row in 0..<rows { grid.clearRow(row, style: style) }
                }
            } else {
                switchScreen(toAlternate: false)
                restoreCursor()
            }
        default:
            break
        }
    }

    /// XTWINOPS: 22 and 23 push and pop the title; the reports (11, 13, 14, 16, 18, 19, 20,
    /// 21) are queries.
    private mutating func windowOperation(_ sequence: UnsafePointer<SequenceParameters>) {
        switch sequence.pointee.parameter(0, default: 0) {
        case 22:
            if sequence.pointee.parameter(1, default: 0) != 1 {
                if titleStack.count == Self.titleStackLimit { titleStack.removeFirst() }
                titleStack.append(title)
            }
        case 23:
            if sequence.pointee.parameter(1, default: 0) != 1, let popped = titleStack.popLast() {
                title = popped
            }
        case 11, 13, 14, 15, 16, 18, 19, 20, 21:
            queries.note(final: UInt8(ascii: "t"), sequence)
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
        if command.hasSeparator && command.number <= 2 { titleSets &+= 1 }
        switch command.number {
        case 0, 2:
            if command.hasSeparator { title = text }
        case 7:
            workingDirectory = text
        case 8:
            // `8;params;URI`: an empty URI ends the link. A payload cut at the limit ends
            // it too: its URI would be another one than the program's.
            guard let separator = text.firstIndex(of: UInt8(ascii: ";")) else { return }
            var style = pen
            if separator + 1 == text.count || payload.isTruncated {
                style.hyperlink = 0
            } else {
                style.hyperlink = idCollectingIfFull { $0.hyperlinks.id(for: text) } ?? 0
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
        titleSets &+= 1
    }

    mutating func windowNameDispatch(_ payload: ControlString) {
        lastPrinted = nil
        modes.noteWindowNameSet()
        windowName = Array(payload.bytes)
    }

    mutating func deviceControlDispatch(
        _ final: UInt8, _ sequence: UnsafePointer<SequenceParameters>, _ payload: ControlString
    ) {
        lastPrinted = nil
        guard payload.isKept else { return }
        queries.noteString(dcs: sequence.pointee.intermediate, payload: payload)
    }
}

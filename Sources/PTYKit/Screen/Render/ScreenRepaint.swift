// The repaint: bytes that bring an xterm-compatible terminal, from any state, to the
// model's screen. tmux's redraw is the model (tty_draw_line's runs of one style, the
// whole redraw inside synchronized output); Ghostty's formatter lists what else a faithful
// copy restores (margins, tab stops, character sets, the pending wrap by reprinting the
// edge cell).

extension ScreenState {
    /// The state the lock screen draws from, whatever the program left: no margins, origin
    /// mode off, ASCII in G0 and G1 with G0 shown, insert mode off, the default pen and no
    /// hyperlink, autowrap as asked. Homes the cursor (DECSTBM does).
    ///
    /// `fullWidthMarginsOf`: instead of leaving left/right margin mode, keep it with margins
    /// the full width of that many columns (leaving it would drop a wrap pending in the
    /// cursor saved for the other screen).
    static func appendKnownState(autowrap: Bool, fullWidthMarginsOf columns: Int? = nil, to buffer: OutputBuffer) {
        buffer.append(.resetAttributes)
        buffer.append(.hyperlink([]))
        if let columns {
            buffer.append(.horizontalMargins(left: 1, right: columns))
        } else {
            buffer.append(.mode(.leftRightMargins, on: false))
        }
        buffer.append(.resetScrollRegion)
        buffer.append(.mode(.origin, on: false))
        buffer.append(.mode(.insert, on: false))
        buffer.append(.designateG0(.ascii))
        buffer.append(.designateG1(.ascii))
        buffer.append(.shiftIn)
        buffer.append(.mode(.autowrap, on: autowrap))
    }

    func repaint(into buffer: OutputBuffer) {
        buffer.append(.synchronizedOutput(true))
        repaintScreens(tabStopsKnown: false, into: buffer)
        buffer.append(.synchronizedOutput(false))
    }

    /// The repaint without the synchronized output around it. `tabStopsKnown`: the
    /// terminal got every byte up to when the scrollback began to be held, so its tab
    /// stops are the model's unless they changed since (`tabStopsChanged`).
    private func repaintScreens(tabStopsKnown: Bool, into buffer: OutputBuffer) {
        buffer.append(.mode(.cursorVisible, on: false))
        // Onto the main screen: where the alternate screen is left, the terminal is in
        // both xterm's and tmux's usual state to enter it again.
        buffer.append(.mode(.alternateScreen1049, on: false))
        Self.appendKnownState(autowrap: true, to: buffer)
        var renderer = RowRenderer(styles: pen.styles, clusters: pen.clusters, hyperlinks: pen.hyperlinks)
        // The cursor 1049 saved is set by entering the alternate screen from it: below, when
        // the program is there by 1049; else here, in and out again, for a later 1049 leaving
        // (xterm's DECSC slot it also sets is set again below).
        let savedFor1049 = onAlternate && modes.isSet(.alternateScreen1049) ? cursor.savedBy1049 : nil
        if let saved = cursor.savedBy1049, savedFor1049 == nil {
            appendCursorState(saved, of: mainGrid, renderer: &renderer, into: buffer)
            buffer.append(.mode(.alternateScreen1049, on: true))
            buffer.append(.mode(.alternateScreen1049, on: false))
        }
        // On the alternate screen the margins are set there, after 1049 saved the cursor
        // as it is now. DECSC's slot is set on the screen shown (xterm's slot there; on the
        // main one behind an alternate screen, the cursor 47 and 1047 leave DECRC to).
        paint(
            mainGrid, from: history.rowsBeforeStart, saving: savedFor1049 ?? cursor.saved,
            settingMargins: !onAlternate, renderer: &renderer, into: buffer)
        if onAlternate {
            appendAlternateScreenEntered(into: buffer)
            renderer.assumeReset()
            Self.appendKnownState(
                autowrap: true, fullWidthMarginsOf: margins.leftRightMode ? columns : nil, to: buffer)
            paint(grid, saving: cursor.saved, settingMargins: true, renderer: &renderer, into: buffer)
        }
        // Tab stops are set by column, which origin mode with margins would shift.
        renderer.setOriginMode(false, into: buffer)
        if !tabStopsKnown || tabStops.changed { appendTabStops(into: buffer) }
        if gridModes.reverseVideo { buffer.append(.mode(.reverseVideo, on: true)) }
        if cursor.blinks { buffer.append(.mode(.cursorBlink, on: true)) }
        if gridModes.newline { buffer.append(.mode(.lineFeedNewLine, on: true)) }
        appendCursorState(cursorToSave, of: grid, marginsSet: true, renderer: &renderer, into: buffer)
        if !gridModes.autowrap { buffer.append(.mode(.autowrap, on: false)) }
        if gridModes.insert { buffer.append(.mode(.insert, on: true)) }
        if cursor.shape != 0 { buffer.append(.cursorShape(Int(cursor.shape))) }
        if modes.cursorVisible { buffer.append(.mode(.cursorVisible, on: true)) }
    }

    /// The character REP repeats (the ASCII one printed last, nothing but REP after it)
    /// printed again in the cell it took, which leaves that cell and the cursor as they are
    /// and makes it the terminal's last printed character too; in insert mode the cell is
    /// deleted (DCH) first, so that inserting it puts the row back. Written last: any
    /// sequence after it makes tmux's REP repeat nothing, and xterm's repeat what the
    /// repaint printed last. Nothing when printing it again would not leave the state as
    /// it is (never, as printing leaves it, and a resize forgets the character: a check).
    func appendLastPrinted(into buffer: OutputBuffer) {
        guard let byte = lastPrinted, let column = lastPrintedColumn(byte) else { return }
        let rowOffset = gridModes.origin ? margins.top : 0
        let columnOffset = gridModes.origin && margins.leftRightMode ? margins.left : 0
        buffer.append(.cursorPosition(row: cursor.y - rowOffset + 1, column: column - columnOffset + 1))
        if gridModes.insert { buffer.append(.deleteCharacter) }
        buffer.appendByte(byte)
    }

    /// The column where `byte`, printed with the pen and character set in use, shows as it
    /// is now and leaves the cursor where it is: before the cursor, or at it when a wrap is
    /// pending there or autowrap held it at the edge.
    private func lastPrintedColumn(_ byte: UInt8) -> Int? {
        let content = translate(byte, charsets.current)
        let shape = Cell.contentMask | Cell.clusterFlag | Cell.wideFlag | Cell.spacerFlag | Cell.decGraphicsFlag
        for column in cursor.pendingWrap ? [cursor.x] : [cursor.x - 1, cursor.x] where column >= 0 && column < columns {
            let cell = grid.cell(column, cursor.y)
            guard cell & shape == content, pen.styles[Cell.style(cell)] == pen.style else { continue }
            let edge = rightEdge(from: column, row: cursor.y, of: grid)
            let leavesCursor =
                column < edge
                ? cursor.x == column + 1 && !cursor.pendingWrap
                : cursor.x == column && cursor.pendingWrap == gridModes.autowrap
            if leavesCursor { return column }
        }
        return nil
    }

    /// Paints `grid` and sets the terminal's DECSC slot to `saved`, and then
    /// (`settingMargins`) the margins. Rows are painted without margins; a saved cursor is
    /// set with them, as DECSC saw it (the pending wrap at a right margin needs the margin).
    /// A wrap saved pending at the last column of a double-size row's first half, on a row
    /// that is single now, is set before the rows are painted, on the row made double-width
    /// for the moment (appendSavedCursorOnRowMadeDoubleWidth).
    private func paint(
        _ grid: Grid, from first: Int = 0, saving saved: SavedCursor, settingMargins: Bool,
        renderer: inout RowRenderer, into buffer: OutputBuffer
    ) {
        // Without left and right margins a wrap pends only at a row's edge: the last column,
        // or the half of a double-size row.
        let savedOffEdge =
            !margins.leftRightMode && saved.pendingWrap && saved.x != rightEdge(from: saved.x, row: saved.y, of: grid)
        if savedOffEdge { appendSavedCursorOnRowMadeDoubleWidth(saved, renderer: &renderer, into: buffer) }
        paint(grid, from: first, renderer: &renderer, into: buffer)
        if !savedOffEdge {
            appendSavedCursor(saved, of: grid, settingMargins: settingMargins, renderer: &renderer, into: buffer)
        } else if settingMargins {
            appendMargins(into: buffer)
        }
    }

    /// Every row of `grid`, each from its first column: runs of one style, EL for a plain
    /// blank tail (never ED 2, which tmux's scroll-on-clear would push into its history).
    /// A row the line goes on from is left for the next row's first character to wrap, as
    /// tmux's redraw does, so that the terminal knows the rows for one line (for copying,
    /// `capture-pane -J`, reflow): the next row is written on without a cursor move. Not the
    /// last row: its wrap would scroll the screen (the paint has no scroll region, so no
    /// other row's does). `from`: the rows above are the terminal's
    /// (ScreenStartPosition.swift), left alone.
    ///
    /// A double-size row gets its size (`ESC # n`) before its text, and only its first half
    /// of cells; a line does not wrap into one (its size could not be set). Once the stream
    /// made a row double-size, every row is made single first, for the terminal's rows that
    /// still are (xterm's main screen keeps them behind the lock screen).
    private func paint(_ grid: Grid, from first: Int = 0, renderer: inout RowRenderer, into buffer: OutputBuffer) {
        func wraps(_ row: Int) -> Bool {
            grid.isWrapped(row) && row + 1 < grid.rows && grid.lineSize(row + 1) == .single
        }
        if sizedLinesSeen {
            for row in first..<grid.rows {
                buffer.append(.cursorPosition(row: row + 1, column: 1))
                buffer.append(.lineSize(.single))
            }
        }
        var continued = false
        for row in first..<grid.rows {
            if !continued {
                // The row a wrapped line ends in gets no EL of its own when it is full (it
                // follows a pending wrap): one first, for a wrap flag it had from before.
                var end = row
                while wraps(end) { end += 1 }
                if end > row
                    && RowRenderer.contentEnd(of: grid, row: end) == grid.lineSize(end).usableColumns(of: grid.columns)
                {
                    buffer.append(.cursorPosition(row: end + 1, column: 1))
                    renderer.setStyle(.plain, into: buffer)
                    buffer.append(.eraseToEndOfLine)
                }
                buffer.append(.cursorPosition(row: row + 1, column: 1))
                if grid.lineSize(row) != .single { buffer.append(.lineSize(grid.lineSize(row))) }
            }
            continued = renderer.row(of: grid, row: row, wrapping: wraps(row), continuing: continued, into: buffer)
        }
    }

    /// Puts the terminal's cursor, pen, character sets and origin mode where `cursor` says,
    /// the pending wrap included (by printing the edge cell again). The cursor's position is
    /// absolute; `marginsSet`: the model's margins are the terminal's already (else it has
    /// none, and origin mode moves nothing).
    private func appendCursorState(
        _ cursor: SavedCursor, of grid: Grid, marginsSet: Bool = false, renderer: inout RowRenderer,
        into buffer: OutputBuffer
    ) {
        renderer.setOriginMode(cursor.originMode, into: buffer)
        let rowOffset = cursor.originMode && marginsSet ? margins.top : 0
        let columnOffset = cursor.originMode && marginsSet && margins.leftRightMode ? margins.left : 0
        var column = cursor.x
        if cursor.pendingWrap {
            // The cell at the edge printed again leaves the terminal waiting to wrap.
            if column > 0 && Cell.isSpacer(grid.cell(column, cursor.y)) && Cell.isWide(grid.cell(column - 1, cursor.y))
            {
                column -= 1
            }
            buffer.append(.cursorPosition(row: cursor.y - rowOffset + 1, column: column - columnOffset + 1))
            // The character sets may be a cursor's set before (the saved one's): the cell is
            // printed from ASCII in G0, shifted in, as the renderer then knows them (fuzz).
            renderer.setGraphics(false, into: buffer)
            buffer.append(.designateG0(.ascii))
            buffer.append(.shiftIn)
            renderer.cells(of: grid, row: cursor.y, from: column, to: cursor.x + 1, into: buffer)
        } else {
            buffer.append(
                .cursorPosition(row: max(cursor.y - rowOffset, 0) + 1, column: max(column - columnOffset, 0) + 1))
        }
        appendPenAndCharacterSets(of: cursor, renderer: &renderer, into: buffer)
    }

    private func appendPenAndCharacterSets(
        of cursor: SavedCursor, renderer: inout RowRenderer, into buffer: OutputBuffer
    ) {
        renderer.setStyle(cursor.pen, into: buffer)
        renderer.setGraphics(false, into: buffer)
        buffer.append(.designateG0(cursor.g0))
        buffer.append(.designateG1(cursor.g1))
        buffer.append(cursor.shifted ? .shiftOut : .shiftIn)
    }

    /// Sets the terminal's DECSC slot to `saved`, waiting to wrap at the last column of a
    /// double-size row's first half on a row that is single now (DECSC saved it on the row
    /// double-size; DECRC would wait there only once it is again): the row made double-width
    /// for the moment, a blank printed at that column leaves the wrap pending, and the row is
    /// single again after DECSC. A right margin there for the moment would not do: turning
    /// left/right margin mode off again drops the saved wrap, as the model does, and turning
    /// it on makes every row single. Before the rows are painted and with no margins set (the
    /// position is absolute, origin mode or not): ESC # 6 erases the row's second half. The
    /// rows are then painted from ASCII in G0, shifted in, as the renderer knows them.
    private func appendSavedCursorOnRowMadeDoubleWidth(
        _ saved: SavedCursor, renderer: inout RowRenderer, into buffer: OutputBuffer
    ) {
        renderer.setOriginMode(saved.originMode, into: buffer)
        buffer.append(.cursorPosition(row: saved.y + 1, column: saved.x + 1))
        buffer.append(.lineSize(.doubleWidth))
        buffer.appendByte(UInt8(ascii: " "))
        appendPenAndCharacterSets(of: saved, renderer: &renderer, into: buffer)
        buffer.append(.saveCursor)
        buffer.append(.lineSize(.single))
        buffer.append(.designateG0(.ascii))
        buffer.append(.shiftIn)
    }

    /// Sets the terminal's DECSC slot to `saved`, and then (`settingMargins`) the margins.
    /// Most cursors are set after the margins, so that a wrap pending at the right margin
    /// is pending there. Some are set before them (DECSLRM and DECSTBM leave the slot as
    /// it is), or without them: one saved in origin mode outside the margins (it got there
    /// before they were set), one whose wrap is pending where the margins no longer end
    /// (they changed after DECSC saved it). A wrap pending short of the last column is then
    /// set with a right margin at the cursor for the moment. When the margins are not set,
    /// the terminal's cursor is the saved one (for 1049 to save again).
    private func appendSavedCursor(
        _ saved: SavedCursor, of grid: Grid, settingMargins: Bool, renderer: inout RowRenderer,
        into buffer: OutputBuffer
    ) {
        let outside =
            saved.y < margins.top || saved.y > margins.bottom
            || (margins.leftRightMode && (saved.x < margins.left || saved.x > margins.right))
        let edge = rightEdge(from: saved.x, row: saved.y, of: grid)
        guard settingMargins && !(saved.originMode && outside) && !(saved.pendingWrap && saved.x != edge) else {
            // Not at a double-size row's edge, where the cell printed again waits to wrap,
            // and where turning left/right margin mode on would make every row single.
            let marginForWrap = saved.pendingWrap && saved.x != grid.lastColumn(saved.y) && saved.x > 0
            if marginForWrap {
                buffer.append(.mode(.leftRightMargins, on: true))
                buffer.append(.horizontalMargins(left: 1, right: saved.x + 1))
            }
            appendCursorState(saved, of: grid, renderer: &renderer, into: buffer)
            buffer.append(.saveCursor)
            if settingMargins { appendMargins(replacing: marginForWrap, into: buffer) }
            return
        }
        appendMargins(into: buffer)
        appendCursorState(saved, of: grid, marginsSet: true, renderer: &renderer, into: buffer)
        buffer.append(.saveCursor)
    }

    /// DECLRMM and the margins, the scroll region: each only when set (the known state has
    /// none), the left and right margins also when `replacing` others set for the moment.
    private func appendMargins(replacing: Bool = false, into buffer: OutputBuffer) {
        if margins.leftRightMode {
            buffer.append(.mode(.leftRightMargins, on: true))
            if replacing || margins.left != 0 || margins.right != columns - 1 {
                buffer.append(.horizontalMargins(left: margins.left + 1, right: margins.right + 1))
            }
        }
        if margins.top != 0 || margins.bottom != rows - 1 {
            buffer.append(.scrollRegion(top: margins.top + 1, bottom: margins.bottom + 1))
        }
    }

    private func appendTabStops(into buffer: OutputBuffer) {
        buffer.append(.clearTabStops)
        for (column, isStop) in tabStops.stops.enumerated() where isStop {
            buffer.append(.cursorColumn(column + 1))
            buffer.append(.setTabStop)
        }
    }

    /// The held scrollback put into the terminal's history, then the repaint: from the top
    /// of the main screen with no margins, the held lines and then the main screen's rows,
    /// one per row; the first `rows` of them overwrite the screen and each further one
    /// pushes exactly one line into the history. The notice is a line of its own, put
    /// where it splits no line (`ScrollbackHold.write`); `drain` as there.
    func scrollbackAndRepaint(
        _ hold: ScrollbackHold, notice: [UInt8], drain: ((OutputBuffer) -> Void)?, into buffer: OutputBuffer
    ) {
        buffer.append(.synchronizedOutput(true))
        appendRowsBeforeStartScrolled(into: buffer)
        if hold.lineCount > 0 || !notice.isEmpty {
            buffer.append(.mode(.cursorVisible, on: false))
            buffer.append(.mode(.alternateScreen1049, on: false))
            Self.appendKnownState(autowrap: true, to: buffer)
            // Each row erased first (with EL: a terminal forgets that a row it erases had
            // wrapped), then the lines from the top.
            for row in 0..<rows {
                buffer.append(.cursorPosition(row: row + 1, column: 1))
                buffer.append(.eraseToEndOfLine)
            }
            buffer.append(.cursorPosition(row: 1, column: 1))
            hold.write(into: buffer, drain: drain) { buffer in
                guard !notice.isEmpty else { return }
                buffer.append(contentsOf: Array(notice.filter { $0 >= 0x20 }.prefix(columns)))
                buffer.append(.eraseToEndOfLine)
                buffer.append(contentsOf: [0x0D, 0x0A])
            }
            var renderer = RowRenderer(styles: pen.styles, clusters: pen.clusters, hyperlinks: pen.hyperlinks)
            let main = mainGrid
            for row in 0..<main.rows {
                ScrollbackHold.line(
                    row, of: main, renderer: &renderer, newline: row < main.rows - 1,
                    nextBeginsWide: row < main.rows - 1 && Cell.isWide(main.cell(0, row + 1)), into: buffer)
            }
        }
        repaintScreens(tabStopsKnown: true, into: buffer)
        buffer.append(.synchronizedOutput(false))
    }
}

// Line sizes (DECSWL, DECDWL, DECDHL), as xterm and libvterm keep them: a size per row,
// moving with its row when rows scroll, single again for a row that ED erases whole or
// scrolling brings in (Grid.clearRow), and on RIS and DECALN; EL and ECH keep it.

extension ScreenState {
    /// `ESC # 3` to `ESC # 6` on the cursor's row. Ignored in left/right margin mode, as
    /// xterm and libvterm do. A row made double-size loses the cells of its second half,
    /// as libvterm erases them (xterm keeps them hidden, and shows them again when the row
    /// is made single): the model keeps no hidden cells, so a row made single again gets
    /// blanks there. The cursor goes into the first half (xterm); a wrap pending at an edge
    /// that has moved is dropped.
    mutating func setLineSize(_ size: LineSize) {
        guard !margins.leftRightMode, size != grid.lineSize(cursor.y) else { return }
        let half = LineSize.doubleWidth.usableColumns(of: columns)
        grid.cutWideCharacter(before: half, row: cursor.y)
        grid.clear(cursor.y, from: half, to: columns, style: 0)
        grid.setLineSize(cursor.y, size)
        if size != .single { sizedLinesSeen = true }
        let last = grid.lastColumn(cursor.y)
        if cursor.x > last {
            cursor.x = last
            cursor.pendingWrap = false
        }
        dropWrapOffEdge()
    }

    /// DECLRMM set: every row of both screens single again (libvterm; xterm ignores the
    /// sizes while it is set), so no row has a size while margins may cut it.
    mutating func dropLineSizes() {
        for grid in [grid, otherGrid] where grid.sizedRows.pointee > 0 {
            for y in 0..<rows where grid.lineSize(y) != .single {
                grid.clear(y, from: LineSize.doubleWidth.usableColumns(of: columns), to: columns, style: 0)
                grid.setLineSize(y, .single)
            }
        }
    }

    /// After the row under the cursor changed size, or another row came under it (SU, SD, a
    /// screen switch): a wrap is pending only at the row's edge, as no repaint could leave
    /// a terminal's cursor waiting to wrap elsewhere.
    @inline(__always)
    mutating func dropWrapOffEdge() {
        if cursor.pendingWrap && cursor.x != rightEdge { cursor.pendingWrap = false }
    }
}

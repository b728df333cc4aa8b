// The collection of the style, cluster and hyperlink tables, and the check that every id
// the state holds names an entry (for the tests and the fuzz target, never on the relay's
// path).

extension ScreenState {
    /// Frees the styles, clusters and hyperlinks nothing refers to any more: no cell or row
    /// fill of either screen, not the pen's id, and no pen's or saved cursor's link. Ids in
    /// use keep their numbers (InternTable), so whatever a caller read before the
    /// collection (the pen's id, a cell it is editing) is still good after it.
    mutating func collectGarbage() {
        renderHeldRows()
        var liveStyles = [Bool](repeating: false, count: styles.count)
        var liveClusters = [Bool](repeating: false, count: clusters.count)
        if penIsCurrent { liveStyles[Int(penId)] = true }
        for grid in [grid, otherGrid] {
            for y in 0..<grid.rows {
                liveStyles[Int(grid.fillStyle(y))] = true
                let row = grid.row(y)
                for x in 0..<grid.writtenCount(y) {
                    let cell = row[x]
                    liveStyles[Int(Cell.style(cell))] = true
                    if cell & Cell.clusterFlag != 0 { liveClusters[Int(Cell.content(cell))] = true }
                }
            }
        }
        styles.free { liveStyles[Int($0)] }
        clusters.free { liveClusters[Int($0)] }
        var liveLinks = [Bool](repeating: false, count: hyperlinks.count)
        for id in 0..<styles.count where liveStyles[id] {
            liveLinks[Int(styles[UInt16(id)].hyperlink)] = true
        }
        for style in [pen, savedMain.pen, savedAlternate.pen] { liveLinks[Int(style.hyperlink)] = true }
        hyperlinks.free { liveLinks[Int($0)] }
        // The cache may name freed ids.
        styleCache.clear()
    }

    /// The id `lookUp` (a table's `id(for:)`) gives, looked up again after a collection
    /// when the table was full; nil if it still is.
    mutating func idCollectingIfFull<ID>(_ lookUp: (inout ScreenState) -> ID?) -> ID? {
        if let id = lookUp(&self) { return id }
        collectGarbage()
        return lookUp(&self)
    }

    /// The first id the state holds that names no entry of its table (freed, or past the
    /// end), described; nil when every one is good. Walks every cell: for tests and the
    /// fuzz target.
    func firstBrokenTableReference() -> String? {
        for (name, grid) in [("shown", grid), ("other", otherGrid)] {
            for y in 0..<grid.rows {
                if !styles.isInUse(grid.fillStyle(y)) { return "\(name) row \(y): fill style \(grid.fillStyle(y))" }
                let row = grid.row(y)
                for x in 0..<grid.writtenCount(y) {
                    let cell = row[x]
                    if !styles.isInUse(Cell.style(cell)) { return "\(name) cell \(x),\(y): style \(Cell.style(cell))" }
                    if cell & Cell.clusterFlag != 0 && !clusters.isInUse(Cell.content(cell)) {
                        return "\(name) cell \(x),\(y): cluster \(Cell.content(cell))"
                    }
                }
            }
        }
        for id in 0..<UInt16(styles.count) where styles.isInUse(id) && !hyperlinks.isInUse(styles[id].hyperlink) {
            return "style \(id): hyperlink \(styles[id].hyperlink)"
        }
        let pens = [("pen", pen), ("main saved pen", savedMain.pen), ("alternate saved pen", savedAlternate.pen)]
        for (name, style) in pens where !hyperlinks.isInUse(style.hyperlink) {
            return "\(name): hyperlink \(style.hyperlink)"
        }
        if penIsCurrent && (!styles.isInUse(penId) || styles[penId] != pen) { return "pen id \(penId)" }
        // A style the full table could not take is cached as 0 (drawn plain) until the next
        // collection.
        if let (style, id) = styleCache.first(where: { $1 != 0 && styles[$1] != $0 }) {
            return "cached \(style) as \(id)"
        }
        return nil
    }
}

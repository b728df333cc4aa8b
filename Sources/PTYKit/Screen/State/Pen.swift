/// The pen (the style text is drawn in now) and the tables the ids in cells name: styles,
/// character clusters and hyperlinks, interned as the pen draws. Ids in use are never
/// renumbered (InternTable). When a table fills, what nothing refers to is collected: the
/// cells and saved cursors are ScreenState's, which passes them in.
struct Pen {
    private(set) var style = Style.plain
    /// The id of `style` in `styles`, valid while `isCurrent`.
    private(set) var id: UInt16 = 0
    private(set) var isCurrent = true
    var styles = StyleTable()
    /// The styles used lately, so that switching between a few (coloured `ls`, syntax
    /// colours) costs no dictionary look-up.
    let cache = StyleCache()
    var clusters = ClusterTable()
    var hyperlinks = HyperlinkTable()

    func deallocate() {
        cache.deallocate()
    }

    /// The pen becomes `style`; its id is looked up again at the next print, only if it
    /// changed.
    @inline(__always)
    mutating func set(_ style: Style) {
        guard style != self.style else { return }
        self.style = style
        isCurrent = false
    }

    /// `id` is the current style's, interned.
    @inline(__always)
    mutating func note(id: UInt16) {
        self.id = id
        isCurrent = true
    }
}

// The collection of the tables, and the check that every id the state holds names an entry
// (for the tests and the fuzz target, never on the relay's path). Only ScreenState sees
// every cell and saved cursor: it passes them in.

extension Pen {
    /// Frees the styles, clusters and hyperlinks nothing refers to any more: no cell or row
    /// fill of `grids`, not the pen's id, and no link of the pen or of `savedPens`. Ids in
    /// use keep their numbers (InternTable), so whatever a caller read before the
    /// collection (the pen's id, a cell it is editing) is still good after it.
    mutating func collectGarbage(cellsOf grids: [Grid], savedPens: [Style]) {
        var liveStyles = [Bool](repeating: false, count: styles.count)
        var liveClusters = [Bool](repeating: false, count: clusters.count)
        if isCurrent { liveStyles[Int(id)] = true }
        for grid in grids {
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
        for linked in [style] + savedPens { liveLinks[Int(linked.hyperlink)] = true }
        hyperlinks.free { liveLinks[Int($0)] }
        // The cache may name freed ids.
        cache.clear()
    }

    /// The first id in `grids`, the pen and `savedPens` that names no entry of its table (freed, or past the
    /// end), described; nil when every one is good. Walks every cell: for tests and the
    /// fuzz target.
    func firstBrokenReference(cellsOf grids: [(String, Grid)], savedPens: [(String, Style)]) -> String? {
        for (name, grid) in grids {
            for y in 0..<grid.rows {
                if !styles.isInUse(grid.fillStyle(y)) { return "\(name) row \(y): fill style \(grid.fillStyle(y))" }
                let row = grid.row(y)
                for x in 0..<grid.writtenCount(y) {
                    let cell = row[x]
                    if !styles.isInUse(Cell.style(cell)) {
                        return "\(name) cell \(x),\(y): style \(Cell.style(cell))"
                    }
                    if cell & Cell.clusterFlag != 0 && !clusters.isInUse(Cell.content(cell)) {
                        return "\(name) cell \(x),\(y): cluster \(Cell.content(cell))"
                    }
                }
            }
        }
        for id in 0..<UInt16(styles.count)
        where styles.isInUse(id) && !hyperlinks.isInUse(styles[id].hyperlink) {
            return "style \(id): hyperlink \(styles[id].hyperlink)"
        }
        for (name, linked) in [("pen", style)] + savedPens where !hyperlinks.isInUse(linked.hyperlink) {
            return "\(name): hyperlink \(linked.hyperlink)"
        }
        if isCurrent && (!styles.isInUse(id) || styles[id] != style) {
            return "pen id \(id)"
        }
        // A style the full table could not take is cached as 0 (drawn plain) until the next
        // collection.
        if let (style, id) = cache.first(where: { $1 != 0 && styles[$1] != $0 }) {
            return "cached \(style) as \(id)"
        }
        return nil
    }
}

/// The tab stops, a column each, and whether anything changed them since the scrollback
/// began to be held: until then the terminal got every byte, and has the model's (the
/// unlock's repaint leaves them alone).
struct TabStops {
    private(set) var stops: [Bool]
    var changed = false

    /// Every eighth column, as a terminal starts.
    init(columns: Int) {
        stops = (0..<columns).map { $0 % 8 == 0 && $0 != 0 }
    }

    @inline(__always)
    subscript(column: Int) -> Bool {
        get { stops[column] }
        set {
            stops[column] = newValue
            changed = true
        }
    }

    /// TBC 3: none.
    mutating func clearAll() {
        stops = [Bool](repeating: false, count: stops.count)
        changed = true
    }

    /// RIS: every eighth column again.
    mutating func reset() {
        stops = Self(columns: stops.count).stops
        changed = true
    }

    /// The screen is `columns` wide now: the stops that fit kept, every eighth past them.
    mutating func resize(columns: Int) {
        var resized = Self(columns: columns).stops
        for column in 0..<min(stops.count, columns) { resized[column] = stops[column] }
        stops = resized
        changed = true
    }
}

/// The scroll region (DECSTBM) and the left and right margins (DECSLRM, which apply while
/// DECLRMM, mode 69, is set), as rows and columns counted from 0.
struct Margins {
    var top = 0
    var bottom: Int
    var left = 0
    var right: Int
    /// DECLRMM (mode 69): whether DECSLRM margins apply.
    var leftRightMode = false

    init(rows: Int, columns: Int) {
        bottom = rows - 1
        right = columns - 1
    }

    /// The whole screen, as after RIS, DECSTR and a resize; DECLRMM is left as it is.
    mutating func reset(rows: Int, columns: Int) {
        top = 0
        bottom = rows - 1
        left = 0
        right = columns - 1
    }

    /// The right edge text runs to from column `x`: the right margin when `x` is left of it
    /// (text that reaches the margins stops at it), else the last column.
    @inline(__always)
    func rightEdge(from x: Int, columns: Int) -> Int {
        leftRightMode && x <= right ? right : columns &- 1
    }

    @inline(__always)
    func leftEdge(from x: Int) -> Int {
        leftRightMode && x >= left ? left : 0
    }

    /// Whether column `x` is outside the left and right margins, where IND, LF and RI move
    /// the cursor without scrolling (xterm's xtermIndex and RevIndex).
    func excludes(column x: Int) -> Bool { leftRightMode && (x < left || x > right) }

    /// No left or right margin takes a column off a screen `columns` wide.
    func haveFullWidth(columns: Int) -> Bool { !leftRightMode || (left == 0 && right == columns - 1) }

    /// The scroll region is the whole of a screen `rows` high, and no left or right margin
    /// applies.
    @inline(__always)
    func areWholeScreen(rows: Int) -> Bool { top == 0 && bottom == rows &- 1 && !leftRightMode }
}

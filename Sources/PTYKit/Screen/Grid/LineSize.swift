/// A row's line size, DEC's line attributes set on the cursor's row by `ESC # 3` to `ESC # 6`
/// (xterm, libvterm): a double-size row shows its first half of the columns at twice the
/// width, the top or bottom half of each character twice as tall for DECDHL.
public enum LineSize: UInt8, Sendable {
    /// DECSWL, `ESC # 5`: every row until it is set.
    case single
    /// DECDWL, `ESC # 6`.
    case doubleWidth
    /// DECDHL, `ESC # 3` and `ESC # 4`.
    case doubleHeightTop
    case doubleHeightBottom

    /// The size `ESC # final` sets; nil for another final (DECALN's `8`).
    init?(final: UInt8) {
        switch final {
        case UInt8(ascii: "3"): self = .doubleHeightTop
        case UInt8(ascii: "4"): self = .doubleHeightBottom
        case UInt8(ascii: "5"): self = .single
        case UInt8(ascii: "6"): self = .doubleWidth
        default: return nil
        }
    }

    /// The final byte of the `ESC #` sequence that sets it.
    var final: UInt8 {
        switch self {
        case .single: UInt8(ascii: "5")
        case .doubleWidth: UInt8(ascii: "6")
        case .doubleHeightTop: UInt8(ascii: "3")
        case .doubleHeightBottom: UInt8(ascii: "4")
        }
    }

    /// The columns of a row `columns` wide that show: the first half on a double-size row.
    @inline(__always)
    func usableColumns(of columns: Int) -> Int { self == .single ? columns : max(columns / 2, 1) }
}

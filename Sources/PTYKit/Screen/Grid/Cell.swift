/// One cell of the grid as 64 bits, a plain value (no class, no reference count): what it
/// shows in bits 0-20 (a Unicode scalar; with `clusterFlag`, the id of a character with
/// combining marks in the ClusterTable; with `decGraphicsFlag`, the ASCII byte printed in
/// the DEC special graphics set), flags in bits 21-24, the style id in bits 32-47. Content 0
/// is a blank: never written, or erased.
enum Cell {
    static let contentMask: UInt64 = 0x1F_FFFF
    static let clusterFlag: UInt64 = 1 << 21
    /// The first column of a character two columns wide.
    static let wideFlag: UInt64 = 1 << 22
    /// The second column of a wide character: shows nothing of its own.
    static let spacerFlag: UInt64 = 1 << 23
    static let decGraphicsFlag: UInt64 = 1 << 24

    @inline(__always) static func blank(_ style: UInt16) -> UInt64 { UInt64(style) &<< 32 }
    @inline(__always) static func style(_ cell: UInt64) -> UInt16 { UInt16(truncatingIfNeeded: cell &>> 32) }
    @inline(__always) static func content(_ cell: UInt64) -> UInt32 { UInt32(cell & contentMask) }
    @inline(__always) static func isSpacer(_ cell: UInt64) -> Bool { cell & spacerFlag != 0 }
    @inline(__always) static func isWide(_ cell: UInt64) -> Bool { cell & wideFlag != 0 }
    @inline(__always) static func isBlank(_ cell: UInt64) -> Bool {
        cell & (contentMask | spacerFlag | clusterFlag) == 0
    }
    @inline(__always) static func withStyle(_ cell: UInt64, _ style: UInt16) -> UInt64 {
        cell & 0xFFFF_FFFF | UInt64(style) &<< 32
    }

    /// The ASCII byte a DEC special graphics cell shows as its Unicode character (as xterm
    /// and tmux show it: outside the VT100's range, the byte itself).
    static func decGraphicsScalar(_ byte: UInt32) -> UInt32 {
        guard byte >= 0x5F && byte <= 0x7E else { return byte }
        return UInt32(decGraphics[Int(byte - 0x5F)])
    }

    /// `_` to `~` in the DEC special graphics set (VT100), as xterm and tmux map them.
    private static let decGraphics: [UInt16] = [
        0x00A0, 0x25C6, 0x2592, 0x2409, 0x240C, 0x240D, 0x240A, 0x00B0, 0x00B1, 0x2424, 0x240B, 0x2518,
        0x2510, 0x250C, 0x2514, 0x253C, 0x23BA, 0x23BB, 0x2500, 0x23BC, 0x23BD, 0x251C, 0x2524, 0x2534,
        0x252C, 0x2502, 0x2264, 0x2265, 0x03C0, 0x2260, 0x00A3, 0x00B7,
    ]
}

/// How many columns a Unicode scalar takes on the screen, from a table generated from the
/// Unicode data (CharacterWidthTable.swift, by Tools/generate-character-widths.py), laid out
/// as glibc's wcwidth lays it out, which tmux uses.
enum CharacterWidth {
    /// The scalar takes no cell at all (controls, surrogates, line and paragraph separators).
    static let notPrintable: UInt8 = 3
    /// Set when terminals disagree on the width (East Asian Ambiguous, emoji and symbols,
    /// unassigned): the renderer places the cursor absolutely after such a character.
    static let uncertainFlag: UInt8 = 4

    /// The table's value for `scalar`: its width 0, 1 or 2 (or `notPrintable`), plus
    /// `uncertainFlag`. Scalars above U+10FFFF are not printable.
    @inline(__always)
    static func value(_ scalar: UInt32) -> UInt8 {
        if scalar &- 0x20 < 0x5F { return 1 }
        guard scalar < 0x11_0000 else { return notPrintable }
        let block = Int(scalar &>> UInt32(blockShift))
        let high = blockIndex.utf8Start[block &* 2]
        let low = blockIndex.utf8Start[block &* 2 &+ 1]
        let index = Int(hexDigit(high) &<< 4 | hexDigit(low))
        let offset = index &<< blockShift | Int(scalar) & (1 &<< blockShift &- 1)
        return blocks.utf8Start[offset] &- 0x30
    }

    /// The columns `scalar` takes, or nil when it is not printable.
    static func columns(_ scalar: UInt32) -> Int? {
        let width = value(scalar) & 3
        return width == notPrintable ? nil : Int(width)
    }

    static func isUncertain(_ scalar: UInt32) -> Bool {
        value(scalar) & uncertainFlag != 0
    }

    @inline(__always)
    private static func hexDigit(_ character: UInt8) -> UInt8 {
        (character & 0x0F) &+ (character &>> 6) &* 9
    }
}

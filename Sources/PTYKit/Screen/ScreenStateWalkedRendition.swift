import CCellStores
import Glibc

// Colour in a flood (`ls --color`, a compiler's warnings, `grep --color`) is SGRs between
// runs of text: they move no cursor, so the walk over text that may scroll away
// (ScreenStateScrollAhead.swift) goes over them too, and what is skipped gives the pen its
// changes alone. Rows scroll in blank in the background of the pen at the line feed (or
// the wrap), and the walk blanks them all in one: so it goes over a background only where
// it is gone again before the next row (`ls` colours a setuid file's name, not its line).

extension ScreenState {
    /// The most codes an SGR the walk goes over has: fewer than a sequence holds, so that
    /// every one is applied as the parser applies it.
    private static let codesWalked = 8

    /// Whether SGRs are walked over: only from a pen with the default background, which
    /// every row the walk enters then has.
    var walksGraphicRenditions: Bool { pen.background == .default }

    /// The length of the SGR at `start` (an ESC) if the walk goes over it: whole before
    /// `end`, no colour with more parameters in it; nil if not. `tinted` follows whether
    /// it leaves a background other than the default one.
    @inline(__always)
    static func walkedGraphicRenditionLength(
        _ base: UnsafePointer<UInt8>, at start: Int, end: Int, tinted: inout Bool
    ) -> Int? {
        graphicRendition(base, at: start, end: end) { code in
            switch code {
            case 38, 48, 58: return false
            case 0, 49: tinted = false
            case 40...47, 100...107: tinted = true
            default: break
            }
            return true
        }
    }

    /// Applies to the pen the SGRs in `count` bytes of walked text (text skipped or kept
    /// text dropped), as the parser would have: the only thing in it that text that cannot
    /// be seen any more still changes. Only those from the last that begins with a reset
    /// (`ls` ends every colour with one) are read: the pen before a reset is gone after it
    /// (but for a hyperlink, which no SGR sets).
    mutating func applyGraphicRenditions(_ base: UnsafePointer<UInt8>, count: Int) {
        var from = count
        while case let last = ccell_last_escape(base, from), last >= 0 {
            from = last
            if Self.beginsWithReset(base, at: from) { break }
        }
        guard from < count else { return }
        var offset = from
        var style = pen
        while offset < count, let found = memchr(base + offset, 0x1B, count &- offset) {
            let start = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
            let length = Self.graphicRendition(base, at: start, end: count) { code in
                style.apply(code)
                return true
            }
            // Only walked SGRs are there: anything else ended the walk before.
            offset = start &+ (length ?? 1)
        }
        setPen(style)
    }

    /// Whether the walked SGR at `start` begins with code 0 (`ESC [ m`, `ESC [ ; ...`,
    /// `ESC [ 0 m`, `ESC [ 0 0 ; ...`).
    private static func beginsWithReset(_ base: UnsafePointer<UInt8>, at start: Int) -> Bool {
        var offset = start &+ 2
        while base[offset] == UInt8(ascii: "0") { offset &+= 1 }
        return base[offset] == UInt8(ascii: "m") || base[offset] == UInt8(ascii: ";")
    }

    /// Reads `ESC [ code ; code ... m` at `start`, up to codesWalked codes of up to three
    /// digits (an empty one is 0), giving each to `take`: its length, or nil if it is not
    /// one such or `take` refuses a code.
    @inline(__always)
    private static func graphicRendition(
        _ base: UnsafePointer<UInt8>, at start: Int, end: Int, _ take: (UInt32) -> Bool
    ) -> Int? {
        var offset = start &+ 2
        guard offset < end && base[start &+ 1] == UInt8(ascii: "[") else { return nil }
        var code: UInt32 = 0
        var codes = 0
        while offset < end {
            let byte = base[offset]
            let digit = UInt32(byte &- UInt8(ascii: "0"))
            if digit < 10 {
                code = code &* 10 &+ digit
                guard code < 1000 else { return nil }
            } else if byte == UInt8(ascii: ";") || byte == UInt8(ascii: "m") {
                codes &+= 1
                guard codes <= codesWalked && take(code) else { return nil }
                if byte == UInt8(ascii: "m") { return offset &+ 1 &- start }
                code = 0
            } else {
                return nil
            }
            offset &+= 1
        }
        return nil
    }
}

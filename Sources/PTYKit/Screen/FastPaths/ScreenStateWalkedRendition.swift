import CScreenKernels

// Colour in a flood (`ls --color`, a compiler's warnings, `grep --color`) is SGRs between
// runs of text: they move no cursor, so the walk over text that may scroll away
// (ScreenStateScrollAhead.swift) goes over them too, and what is skipped gives the pen its
// changes alone (ScreenModel feeds those SGRs to its parser). Rows scroll in blank in the
// background of the pen at the line feed (or the wrap), and the walk blanks them all in
// one: so it goes over a background only where it is gone again before the next row (`ls`
// colours a setuid file's name, not its line).

extension ScreenState {
    /// The most codes an SGR the walk goes over has: fewer than a sequence holds.
    private static let codesWalked = 8

    /// Whether SGRs are walked over: only from a pen with the default background, which
    /// every row the walk enters then has, and not while the scrollback is held (the rows
    /// that leave are made from plain text then: HeldTextRows).
    var walksGraphicRenditions: Bool { pen.style.background == .default && !history.isHolding }

    /// The length of the SGR at `start` (an ESC) if the walk goes over it: `ESC [`, up to
    /// codesWalked codes of up to three digits separated by `;` (an empty one is 0), `m`,
    /// whole before `end`, and no colour with more parameters (38, 48, 58) in it; nil if
    /// not. `tinted` follows whether it leaves a background other than the default one.
    @inline(__always)
    static func walkedGraphicRenditionLength(
        _ base: UnsafePointer<UInt8>, at start: Int, end: Int, tinted: inout Bool
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
                guard codes <= codesWalked else { return nil }
                switch code {
                case 38, 48, 58: return nil
                case 0, 49: tinted = false
                case 40...47, 100...107: tinted = true
                default: break
                }
                if byte == UInt8(ascii: "m") { return offset &+ 1 &- start }
                code = 0
            } else {
                return nil
            }
            offset &+= 1
        }
        return nil
    }

    /// Where the SGRs in `count` bytes of walked text that still matter to the pen begin:
    /// at the last that begins with a reset (`ls` ends every colour with one), since the
    /// pen before a reset is gone after it (but for a hyperlink, which no SGR sets); at the
    /// start if none does; `count` if there are none. Every escape in walked text begins
    /// an SGR.
    static func lastPenReset(in base: UnsafePointer<UInt8>, count: Int) -> Int {
        switch ccell_last_pen_reset(base, count, .max) {
        case -1: count
        case -2: 0
        case let reset: reset
        }
    }
}

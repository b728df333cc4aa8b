// The screen model's test helpers both test tiers use: the unit tier (PTYKitTests) and the
// end-to-end tier, whose tests against tmux feed the model the bytes they send a pane.
// A test target (with no tests), so only test builds compile it; @testable, as the tests.

/// Bytes from libvterm-style test notation: `\e` ESC, `\a` BEL, `\b` `\t` `\n` `\r`,
/// `\xHH` any byte, `\\` a backslash; everything else is its UTF-8.
public func bytes(_ notation: String) -> [UInt8] {
    var result: [UInt8] = []
    var input = Array(notation.utf8)[...]
    while let byte = input.popFirst() {
        guard byte == UInt8(ascii: "\\"), let escaped = input.popFirst() else {
            result.append(byte)
            continue
        }
        switch escaped {
        case UInt8(ascii: "e"): result.append(0x1B)
        case UInt8(ascii: "a"): result.append(0x07)
        case UInt8(ascii: "b"): result.append(0x08)
        case UInt8(ascii: "t"): result.append(0x09)
        case UInt8(ascii: "n"): result.append(0x0A)
        case UInt8(ascii: "r"): result.append(0x0D)
        case UInt8(ascii: "\\"): result.append(escaped)
        case UInt8(ascii: "x"):
            let hex = String(decoding: input.prefix(2), as: UTF8.self)
            input = input.dropFirst(2)
            result.append(UInt8(hex, radix: 16)!)
        default:
            preconditionFailure("unknown escape \\\(Character(Unicode.Scalar(escaped))) in \(notation)")
        }
    }
    return result
}

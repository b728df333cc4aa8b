import PTYKit

// What the reply scanner decides must not depend on how the terminal's
// answers were cut into reads:
// - however input is cut into reads, it holds keys in some read exactly when
//   it holds keys as one read, and ends inside a reply or not alike;
// - replies put together are replies (two reads that are each only replies
//   are only replies when they arrive as one read);
// - a reply cut short is on its way, not a key: the reads so far hold no key;
// - a read of keys a person typed is never only replies, alone, next to
//   replies, or in the middle of one (a key no reply can go on with: a
//   control character other than ESC and BEL, or DEL).
//
// Input: one byte choosing the mode. Raw mode: chunk lengths, then bytes.
// Keys mode: key choices from a keyboard's vocabulary.

private func isOnlyReplies(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { TerminalReplies.consistsOnlyOfReplies($0) }
}

/// Whether `reads`, one after another, hold a key; and whether the last ends
/// inside a reply.
private func scan(_ reads: [ArraySlice<UInt8>], from start: TerminalReplyScanner = TerminalReplyScanner())
    -> (keys: Bool, inside: Bool)
{
    var scanner = start
    var keys = false
    for read in reads where read.withUnsafeBytes({ scanner.holdsKeys($0) }) { keys = true }
    return (keys, scanner.isInsideReply)
}

private let escape: [UInt8] = [0x1B]

/// What keys send (xterm, kitty, VT220). Left out on purpose: Alt with `[`,
/// `]`, `P` or `_`, and ESC followed by another key, which are byte for byte
/// the introducers of replies (Alt+[ then `I` is the focus-in report); and
/// modified F3, `CSI 1;m R`, which is a cursor position report (documented in
/// TerminalReplies). ESC alone is used only as the last key.
private func key(_ input: inout FuzzInput) -> [UInt8] {
    let csi: [UInt8] = escape + Array("[".utf8)
    let modifier = 2 + input.choice(7)
    switch input.choice(16) {
    case 0, 1, 2:
        return [0x20 + UInt8(input.choice(0x5F))]  // printable ASCII
    case 3:
        let control = UInt8(input.choice(0x21))  // C0 but ESC, or DEL
        return [control == 0x1B ? 0x7F : control == 0x20 ? 0x7F : control]
    case 4:
        return Array(["é", "€", "😀", "ß", "日"][input.choice(5)].utf8)
    case 5:
        let final = Array("ABCDHF".utf8)[input.choice(6)]
        return input.choice(2) == 0 ? csi + [final] : csi + Array("1;\(modifier)".utf8) + [final]
    case 6:
        return escape + Array("O".utf8) + [Array("ABCDHFPQRS".utf8)[input.choice(10)]]
    case 7:
        let number = [2, 3, 5, 6, 15, 17, 18, 19, 20, 21, 23, 24][input.choice(12)]
        return input.choice(2) == 0
            ? csi + Array("\(number)~".utf8) : csi + Array("\(number);\(modifier)~".utf8)
    case 8:
        return csi + Array("1;\(modifier)".utf8) + [Array("PQS".utf8)[input.choice(3)]]
    case 9:
        return csi + Array("Z".utf8)
    case 10:
        let button = input.choice(96)
        let column = 1 + input.choice(200)
        let row = 1 + input.choice(60)
        switch input.choice(3) {
        case 0: return csi + Array("<\(button);\(column);\(row)\(input.choice(2) == 0 ? "M" : "m")".utf8)
        case 1: return csi + Array("M".utf8) + [UInt8(32 + button), UInt8(32 + column), UInt8(32 + row)]
        default: return csi + Array("\(32 + button);\(column);\(row)M".utf8)
        }
    case 11:
        let pasted = [UInt8](repeating: 0x61 + UInt8(input.choice(26)), count: input.choice(8))
        return csi + Array("200~".utf8) + pasted + csi + Array("201~".utf8)
    case 12:
        let code = [9, 13, 27, 97, 127, 57_441][input.choice(6)]
        return input.choice(2) == 0 ? csi + Array("\(code)u".utf8) : csi + Array("\(code);\(modifier)u".utf8)
    case 13:
        return csi + Array("27;\(modifier);\(32 + input.choice(95))~".utf8)
    case 14:
        var letter = 0x20 + UInt8(input.choice(0x5F))
        if "[]P_".utf8.contains(letter) { letter = UInt8(ascii: "x") }
        return escape + [letter]  // Alt+key
    default:
        return escape + [UInt8(input.choice(0x1B))]  // Alt+control
    }
}

private let sampleReplies: [[UInt8]] = [
    "\u{1b}[12;40R", "\u{1b}[?1;2c", "\u{1b}[>41;380;0c", "\u{1b}[0n", "\u{1b}[?2004;1$y",
    "\u{1b}[I", "\u{1b}[?5u", "\u{1b}[8;24;80t", "\u{1b}]11;rgb:0000/0000/0000\u{1b}\\",
    "\u{1b}]4;1;rgb:cd/00/00\u{07}", "\u{1b}P>|XTerm(380)\u{1b}\\", "\u{1b}_Gi=1;OK\u{1b}\\",
    "\u{1b}]52;c;c2VjcmV0IGNsaXBib2FyZA==\u{1b}\\", "\u{1b}]lsome title\u{07}", "\u{1b}P1$r0m\u{1b}\\",
].map { Array($0.utf8) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    if input.choice(2) == 0 {
        let choices = input.take(1 + input.choice(4))
        let bytes = input.rest()
        let whole = scan([bytes[...]])
        var reads: [ArraySlice<UInt8>] = []
        var start = 0
        for length in chunkLengths(total: bytes.count, choices: choices) {
            reads.append(bytes[start..<(start + length)])
            start += length
        }
        let split = scan(reads)
        require(split.keys == whole.keys, "cut into reads, keys \(split.keys) instead of \(whole.keys)")
        require(
            split.inside == whole.inside, "cut into reads, inside a reply \(split.inside) instead of \(whole.inside)")
        if isOnlyReplies(bytes) {
            require(bytes.first == 0x1B, "a read of replies starts with ESC")
            let cut = scan([bytes.dropLast()])
            require(!cut.keys && cut.inside, "a reply cut short is taken for keys")
        }
        if reads.count == 2 && isOnlyReplies(Array(reads[0])) && isOnlyReplies(Array(reads[1])) {
            require(isOnlyReplies(bytes), "two reads of replies are not replies as one read")
        }
        return 0
    }
    var keys: [UInt8] = []
    for _ in 0..<(1 + input.choice(8)) {
        keys += key(&input)
    }
    if input.choice(4) == 0 { keys += escape }
    require(!isOnlyReplies(keys), "typed keys taken for terminal replies")
    let reply = sampleReplies[input.choice(sampleReplies.count)]
    require(isOnlyReplies(reply), "a sample reply is not recognised")
    require(!isOnlyReplies(reply + keys), "keys after a reply taken for replies")
    require(!isOnlyReplies(keys + reply), "keys before a reply taken for replies")
    let cut = 1 + input.choice(reply.count - 1)
    var control = UInt8(input.choice(0x21))
    if control == 0x1B || control == 0x07 || control == 0x20 { control = 0x7F }
    let middle = scan([reply[..<cut], ([control] + keys)[...], reply[cut...]])
    require(middle.keys, "a key typed in the middle of a reply taken for part of it")
    return 0
}

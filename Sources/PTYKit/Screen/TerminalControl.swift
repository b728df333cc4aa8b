/// The control functions idlewrap and the renderer write, one vocabulary for the repaint,
/// the lock screen and the restore at exit. Rows and columns are 1-based, as on the wire.
public enum TerminalControl: Equatable, Sendable {
    /// SGR 0: the default pen.
    case resetAttributes
    /// CUP.
    case cursorPosition(row: Int, column: Int)
    /// CHA.
    case cursorColumn(Int)
    /// EL 0: erase to the end of the line.
    case eraseToEndOfLine
    /// DCH 1: the character at the cursor goes, the rest of the row moving left.
    case deleteCharacter
    /// ED 2: erase the display.
    case eraseDisplay
    /// ED 3: erase the scrollback (xterm, Linux).
    case eraseScrollback
    /// DECSET / DECRST of a DEC private mode, SM / RM of an ANSI one.
    case mode(TerminalMode, on: Bool)
    /// DECKPAM (true) / DECKPNM.
    case applicationKeypad(Bool)
    /// DECSC / DECRC.
    case saveCursor
    case restoreCursor
    /// DECSTBM with the region's rows; nil resets it to the whole screen.
    case scrollRegion(top: Int, bottom: Int)
    case resetScrollRegion
    /// DECSLRM (needs DECLRMM).
    case horizontalMargins(left: Int, right: Int)
    /// SCS: the set G0 (`ESC ( F`) and G1 (`ESC ) F`) hold.
    case designateG0(TerminalCharacterSet)
    case designateG1(TerminalCharacterSet)
    /// SI (G0 into GL) / SO (G1).
    case shiftIn
    case shiftOut
    /// DECSCUSR.
    case cursorShape(Int)
    /// kitty keyboard protocol: push flags, pop entries.
    case pushKeyboardFlags(UInt32)
    case popKeyboardFlags(Int)
    /// XTMODKEYS modifyOtherKeys: level (`CSI > 4 ; n m`), or reset (`CSI > 4 m`).
    case modifyOtherKeys(Int)
    case resetModifyOtherKeys
    /// XTPUSHTITLE / XTPOPTITLE (icon and window title).
    case pushTitle
    case popTitle
    /// OSC 0: icon and window title.
    case setTitle([UInt8])
    /// OSC 2: the window title alone.
    case setWindowTitle([UInt8])
    /// OSC 1: the icon name alone.
    case setIconName([UInt8])
    /// tmux's window name (`ESC k name ST`); empty: back to its automatic name.
    case setWindowName([UInt8])
    /// OSC 7: the working directory (a `file://` URI); empty: none.
    case setWorkingDirectory([UInt8])
    /// OSC 8: a hyperlink (`params;URI`), or none (empty).
    case hyperlink([UInt8])
    /// HTS at the cursor / TBC 3 (all cleared).
    case setTabStop
    case clearTabStops
    /// Mode 2026: the terminal shows nothing between begin and end (terminals without it
    /// ignore it).
    case synchronizedOutput(Bool)
    case bell
    /// DECSWL, DECDWL, DECDHL: the cursor's row's size (`ESC # n`).
    case lineSize(LineSize)

    func write(to buffer: OutputBuffer) {
        switch self {
        case .resetAttributes: buffer.append("\u{1b}[0m")
        case .cursorPosition(let row, let column): buffer.appendCSI(row, column, final: "H")
        case .cursorColumn(let column): buffer.appendCSI(column, final: "G")
        case .eraseToEndOfLine: buffer.append("\u{1b}[K")
        case .deleteCharacter: buffer.append("\u{1b}[P")
        case .eraseDisplay: buffer.append("\u{1b}[2J")
        case .eraseScrollback: buffer.append("\u{1b}[3J")
        case .mode(let mode, let on):
            buffer.appendCSI()
            if mode.isPrivate { buffer.appendByte(UInt8(ascii: "?")) }
            buffer.appendNumber(mode.number)
            buffer.appendByte(on ? UInt8(ascii: "h") : UInt8(ascii: "l"))
        case .applicationKeypad(let on): buffer.append(on ? "\u{1b}=" : "\u{1b}>")
        case .saveCursor: buffer.append("\u{1b}7")
        case .restoreCursor: buffer.append("\u{1b}8")
        case .scrollRegion(let top, let bottom): buffer.appendCSI(top, bottom, final: "r")
        case .resetScrollRegion: buffer.append("\u{1b}[r")
        case .horizontalMargins(let left, let right): buffer.appendCSI(left, right, final: "s")
        case .designateG0(let set):
            buffer.append("\u{1b}(")
            buffer.appendByte(set.finalByte)
        case .designateG1(let set):
            buffer.append("\u{1b})")
            buffer.appendByte(set.finalByte)
        case .shiftIn: buffer.appendByte(0x0F)
        case .shiftOut: buffer.appendByte(0x0E)
        case .cursorShape(let shape):
            buffer.appendCSI()
            buffer.appendNumber(shape)
            buffer.append(" q")
        case .pushKeyboardFlags(let flags):
            buffer.append("\u{1b}[>")
            buffer.appendNumber(Int(flags))
            buffer.appendByte(UInt8(ascii: "u"))
        case .popKeyboardFlags(let count):
            buffer.append("\u{1b}[<")
            buffer.appendNumber(count)
            buffer.appendByte(UInt8(ascii: "u"))
        case .modifyOtherKeys(let level):
            buffer.append("\u{1b}[>4;")
            buffer.appendNumber(level)
            buffer.appendByte(UInt8(ascii: "m"))
        case .resetModifyOtherKeys: buffer.append("\u{1b}[>4m")
        case .pushTitle: buffer.append("\u{1b}[22;0t")
        case .popTitle: buffer.append("\u{1b}[23;0t")
        case .setTitle(let title): Self.appendString("\u{1b}]0;", title, to: buffer)
        case .setWindowTitle(let title): Self.appendString("\u{1b}]2;", title, to: buffer)
        case .setIconName(let name): Self.appendString("\u{1b}]1;", name, to: buffer)
        case .setWindowName(let name): Self.appendString("\u{1b}k", name, to: buffer)
        case .setWorkingDirectory(let uri): Self.appendString("\u{1b}]7;", uri, to: buffer)
        case .hyperlink(let link): Self.appendString("\u{1b}]8;", link.isEmpty ? [UInt8(ascii: ";")] : link, to: buffer)
        case .setTabStop: buffer.append("\u{1b}H")
        case .clearTabStops: buffer.append("\u{1b}[3g")
        case .synchronizedOutput(let begin): TerminalControl.mode(.synchronizedOutput, on: begin).write(to: buffer)
        case .bell: buffer.appendByte(0x07)
        case .lineSize(let size):
            buffer.append("\u{1b}#")
            buffer.appendByte(size.final)
        }
    }

    /// A control string (OSC or tmux's `ESC k`): its introducer, the text without control
    /// characters (which would end it early or inject another sequence), ST.
    private static func appendString(_ introducer: StaticString, _ text: [UInt8], to buffer: OutputBuffer) {
        buffer.append(introducer)
        buffer.append(contentsOf: text.filter { $0 >= 0x20 })
        buffer.append("\u{1b}\\")
    }
}

import Glibc
import Testing

@testable import PTYKit

/// The model against a real terminal: the same bytes fed to a tmux pane and to the model,
/// the pane's `capture-pane -p -e -N` and formats compared with the model's; and the
/// repaint: a pane messed up, then sent the model's repaint, must show what the pane fed
/// the original bytes shows, and stay so when both get more output.
@Suite("Screen against tmux", .serialized, TmuxPane.required)
struct ScreenTmuxTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let input: [UInt8]
        var rows = 8
        var columns = 20
        var testDescription: String { name }
    }

    /// Bytes on which xterm and tmux agree (so the model, which follows xterm, can be
    /// checked against tmux).
    static let cases: [Case] = [
        Case(name: "text and wrap", input: bytes(#"hello world, this wraps around\r\nsecond\tline\r\n"#)),
        Case(name: "pending wrap", input: bytes(#"01234567890123456789"#)),
        Case(name: "pending wrap, wide", input: bytes("012345678901234567漢")),
        Case(
            name: "colours",
            input: bytes(#"\e[1;31mred\e[0;42;97mgreen bg\e[38;5;208m256\e[38;2;10;20;30mrgb\e[48;5;17mx\e[m"#)),
        Case(
            name: "attributes",
            input: bytes(#"\e[1mB\e[2mD\e[3mI\e[5mK\e[7mR\e[8mH\e[9mS\e[53mO\e[22;23;25;27;28;29;55mN\e[m"#)),
        Case(
            name: "underlines", input: bytes(#"\e[4ma\e[4:2mb\e[4:3mc\e[4:4md\e[4:5me\e[24m\e[58;5;9;4mf\e[59mg\e[m"#)),
        Case(name: "colon colours", input: bytes(#"\e[38:2::1:2:3mA\e[48:5:99mB\e[m"#)),
        // On cells written before, within a row: tmux's capture leaves out cells past the last
        // one written, and rows erased whole.
        Case(
            name: "erase with background",
            input: bytes(#"\e#8\e[44m\e[1;5H\e[K\e[2;3H\e[1K\e[3;1H\e[5X\e[8;3H\e[J\e[m"#)),
        Case(
            name: "insert and delete",
            input: bytes(#"0123456789\e[1;3H\e[2@\e[2;1Habcdef\e[2;2H\e[3P\e[4h\e[1;1HXY\e[4l"#)),
        Case(name: "lines", input: bytes(#"1\r\n2\r\n3\r\n4\r\n5\e[2;1H\e[2L\e[5;1H\e[M\e[3S\e[T"#)),
        Case(
            name: "origin mode and region",
            input: bytes(#"1\r\n2\r\n3\r\n4\r\n5\r\n6\e[2;5r\e[?6h\e[1;1HA\e[9;1HB\n\nC\e[2;4H\eMD"#)),
        // (Not with a background: tmux's capture leaves out rows erased whole.)
        Case(name: "DECCOLM", input: bytes(#"abc\r\ndef\r\nghi\e[2;5r\e[?6h\e[3;3H\e[?3hX\e[?3lY"#)),
        Case(name: "region scrolls", input: bytes(#"\e[3;6r\e[6;1Ha\nb\nc\nd\e[3;1H\eM\eMe\e[r"#)),
        Case(name: "DEC graphics", input: bytes(#"\e(0lqqk\r\nx  x\r\nmqqj\e(B ok \e)0\x0Eaa\x0Fbb"#)),
        // (Not over the second half of a wide character: tmux 3.3 keeps both there.)
        Case(
            name: "wide and combining",
            input: bytes("漢字 e\u{301}t\u{308}e\u{20DD} 😀x\r\n012345678901234567890漢\u{1b}[1;1HZ")),
        Case(name: "tabs", input: bytes(#"a\tb\tc\r\n\e[3g\e[5G\eH\e[12G\eH\r\t1\t2\t3\e[2;15H\e[0g\r\n\t\tz"#)),
        Case(name: "cursor save", input: bytes(#"\e[3;5H\e[1;33m\e7\e[m\e[7;7HX\e8Y\e[s\e[1;1H\e[uZ"#)),
        Case(name: "alternate screen", input: bytes(#"main text\e[?1049h\e[Halt text\e[31m\e[5;5Hx"#)),
        Case(name: "alternate screen left", input: bytes(#"main text\e[?1049h\e[Halt text\e[?1049lback"#)),
        Case(name: "modes", input: bytes(#"\e[?1h\e=\e[?1002h\e[?1006h\e[?25l\e[?7lno wrap at all here, no\e[4h"#)),
        Case(name: "REP and DECALN", input: bytes(#"\e#8\e[3;3Ha\e[5b\e[K"#)),
        Case(name: "scrolled off", input: bytes((1...40).map { "line \($0)\r\n" }.joined() + "end")),
        Case(name: "cursor moves", input: bytes(#"\e[5;5H\e[2AU\e[3BD\e[4CR\e[2DL\e[EN\e[2FP\e[10GG\e[3dV\e[2`H"#)),
    ]

    /// Programs recorded with script(1) in an 80x24 tmux pane with TERM=xterm-256color
    /// (Tests/ScreenRecordings): vim with a message on its last line, less, top, a shell
    /// with a coloured `ls`.
    static let recordings = ["vim", "less", "top", "shell"]

    static func recording(_ name: String) -> [UInt8] {
        let path = String(#filePath.split(separator: "/").dropLast(5).joined(separator: "/"))
        guard let file = fopen("/" + path + "/Tests/ScreenRecordings/\(name).typescript", "rb") else { return [] }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        return bytes
    }

    @Test(arguments: recordings)
    func recordedProgramsShowTheSameAtEveryCheckpoint(_ name: String) throws {
        let input = Self.recording(name)
        try #require(input.count > 1000, "Tests/ScreenRecordings/\(name).typescript is missing")
        let pane = try TmuxPane(rows: 24, columns: 80)
        let model = ScreenModel(rows: 24, columns: 80)
        var offset = 0
        for checkpoint in 1...8 {
            var end = min(input.count * checkpoint / 8, input.count)
            // At a boundary, so that both have a whole screen to show.
            let probe = ScreenModel(rows: 24, columns: 80)
            probe.feed(input[..<end])
            while end < input.count && !probe.isAtBoundary {
                probe.feed(input[end...end])
                end += 1
            }
            let part = Array(input[offset..<end])
            try pane.send(part)
            model.feed(part)
            offset = end
            try expectSame(pane, model)
            let repainted = try TmuxPane(rows: 24, columns: 80)
            let modes = OutputBuffer()
            model.modes.appendInputModesOn(to: modes)
            try repainted.send(Self.mess)
            try repainted.send(model.repaint() + modes.bytes)
            try expectSamePanes(repainted, pane, "\(name) repainted at \(end)")
        }
    }

    @Test(arguments: cases)
    func theModelShowsWhatTmuxShows(_ testCase: Case) throws {
        let pane = try TmuxPane(rows: testCase.rows, columns: testCase.columns)
        let model = ScreenModel(rows: testCase.rows, columns: testCase.columns)
        try pane.send(testCase.input)
        model.feed(testCase.input)
        try expectSame(pane, model)
    }

    /// Junk that leaves a terminal in a state a repaint must undo.
    static let mess = bytes(
        #"\e[?1049h\e[2;3r\e[?6h\e[4h\e(0\e)0\x0E\e[1;5;7;41mjunk everywhere\e[?7l\e[3g\e[?25l\e[2J"#)

    @Test(arguments: cases)
    func theRepaintBringsAMessedUpPaneBack(_ testCase: Case) throws {
        let original = try TmuxPane(rows: testCase.rows, columns: testCase.columns)
        let repainted = try TmuxPane(rows: testCase.rows, columns: testCase.columns)
        let model = ScreenModel(rows: testCase.rows, columns: testCase.columns)
        try original.send(testCase.input)
        model.feed(testCase.input)
        try repainted.send(Self.mess)
        // The unlock: the repaint, then the input modes on again.
        let modes = OutputBuffer()
        model.modes.appendInputModesOn(to: modes)
        try repainted.send(model.repaint() + modes.bytes)
        try expectSamePanes(repainted, original, "after the repaint")
        // What a repaint cannot show but restores must act the same: the saved cursor, tab
        // stops, the region, the pending wrap, the pen and character sets.
        let more = bytes(#"XY\tT\r\nnext\e8S\e[3;1H\eM\eMR\e[20;1H\n\nQ"#)
        try original.send(more)
        try repainted.send(more)
        try expectSamePanes(repainted, original, "after more output")
    }

    private func expectSame(_ pane: TmuxPane, _ model: ScreenModel, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let shown = ScreenModel.reading(capture: try pane.capture(), rows: pane.rows, columns: pane.columns)
        let found = differences(shown.shownCells, model.shownCells)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))", sourceLocation: sourceLocation)
        let tmuxState = try ShownState(tmux: pane)
        #expect(tmuxState == ShownState(model), sourceLocation: sourceLocation)
    }

    private func expectSamePanes(
        _ pane: TmuxPane, _ expected: TmuxPane, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let shown = ScreenModel.reading(capture: try pane.capture(), rows: pane.rows, columns: pane.columns)
        let wanted = ScreenModel.reading(capture: try expected.capture(), rows: pane.rows, columns: pane.columns)
        let found = differences(shown.shownCells, wanted.shownCells)
        #expect(found.isEmpty, "\(what): \(found.joined(separator: "\n"))", sourceLocation: sourceLocation)
        #expect(try ShownState(tmux: pane) == ShownState(tmux: expected), "\(what)", sourceLocation: sourceLocation)
    }
}

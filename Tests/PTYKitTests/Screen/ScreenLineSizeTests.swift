import Testing

@testable import PTYKit

/// Line sizes (DECSWL, DECDWL, DECDHL; issue 29): each row keeps its size as xterm and
/// libvterm do, text uses the first half of a double-size row, and the repaint sets each
/// row's size again. Every input is fed whole, split at every byte and byte by byte, with
/// and without the fast paths, and its repaint fed to a messy model (screenEverySplit).
@Suite("Screen line sizes")
struct ScreenLineSizeTests {
    private func model(_ input: String, rows: Int = 5) -> ScreenModel {
        screenEverySplit(bytes(input), rows: rows, columns: 10)
    }

    private func sizes(_ model: ScreenModel) -> [LineSize] {
        (0..<model.rows).map { model.lineSize(row: $0) }
    }

    @Test func eachSizeIsSetOnTheCursorsRow() {
        let sized = model(#"\e#6w\r\n\e#3t\r\n\e#4t\r\n\e#6\e#5s"#)
        #expect(sizes(sized) == [.doubleWidth, .doubleHeightTop, .doubleHeightBottom, .single, .single])
    }

    /// The last column of a double-size row is the last of its first half: text wraps there,
    /// and the cursor moves no further right.
    @Test func textWrapsAtHalfTheWidth() {
        let wrapped = model(#"\e#6abcdefgh"#)
        #expect(wrapped.lines == ["abcde", "fgh", "", "", ""])
        #expect(wrapped.cursor == (row: 1, column: 3, pendingWrap: false))
        let held = model(#"\e#6abcde"#)
        #expect(held.cursor == (row: 0, column: 4, pendingWrap: true))
        #expect(model(#"\e#6\e[20C"#).cursor == (row: 0, column: 4, pendingWrap: false))
        #expect(model(#"\e#6\t\t"#).cursor == (row: 0, column: 4, pendingWrap: false))
        let wide = model(#"\e#6abcd中"#)
        #expect(wide.lines == ["abcd", "中", "", "", ""])
    }

    /// A row made double-size loses its second half (libvterm), which shows blank when the
    /// row is single again; the cursor goes into the first half, its pending wrap dropped.
    @Test func theSecondHalfIsErasedAndTheCursorKeptInTheFirst() {
        let made = model(#"0123456789\e#6"#)
        #expect(made.lines.first == "01234")
        #expect(made.cursor == (row: 0, column: 4, pendingWrap: false))
        #expect(model(#"0123456789\e#6\e#5"#).lines.first == "01234")
        // A wide character cut by the half goes whole.
        #expect(model(#"0123中789\e#6"#).lines.first == "0123")
    }

    /// Sizes move with their rows when they scroll (LF, RI, SU, SD, IL, DL); rows scrolled in
    /// and rows ED erases whole are single; EL and ECH keep the size.
    @Test func sizesMoveWithTheirRowsAndErasedRowsAreSingle() {
        #expect(
            sizes(model(#"\e#6a\r\n\e#3b\r\nc\r\nd\r\ne\r\nf"#)) == [
                .doubleHeightTop, .single, .single, .single, .single,
            ])
        #expect(sizes(model(#"\e#6a\eM"#)) == [.single, .doubleWidth, .single, .single, .single])
        #expect(sizes(model(#"\e#6a\e[2S"#)) == [.single, .single, .single, .single, .single])
        #expect(sizes(model(#"\e[2;1H\e#6a\e[S"#)) == [.doubleWidth, .single, .single, .single, .single])
        #expect(sizes(model(#"\e#6a\e[T"#)) == [.single, .doubleWidth, .single, .single, .single])
        #expect(sizes(model(#"\e#6a\e[L"#)) == [.single, .doubleWidth, .single, .single, .single])
        #expect(
            sizes(model(#"\e#6a\e[2;1H\e#3\e[1;1H\e[M"#)) == [.doubleHeightTop, .single, .single, .single, .single])
        #expect(sizes(model(#"\e#6a\e[2;1H\e#6\e[2J"#)) == [.single, .single, .single, .single, .single])
        #expect(
            sizes(model(#"\e#6a\e[2;1H\e#6\e[3;1H\e#6\e[2;1H\e[J"#)) == [
                .doubleWidth, .doubleWidth, .single, .single, .single,
            ])
        #expect(
            sizes(model(#"\e#6a\e[2;1H\e#6\e[3;1H\e#6\e[2;3H\e[1J"#)) == [
                .single, .doubleWidth, .doubleWidth, .single, .single,
            ])
        #expect(sizes(model(#"\e#6a\e[2K\e[X\e[K"#)) == [.doubleWidth, .single, .single, .single, .single])
    }

    /// DECALN and RIS make every row single; so does setting DECLRMM, and the sizes are
    /// ignored while it is set (libvterm). The alternate screen has sizes of its own.
    @Test func resetsAndScreens() {
        let single = [LineSize](repeating: .single, count: 5)
        #expect(sizes(model(#"\e#6a\e#8"#)) == single)
        #expect(model(#"\e#6a\e#8"#).lines == ["EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE"])
        #expect(sizes(model(#"\e#6a\ec"#)) == single)
        #expect(sizes(model(#"\e#6a\e[?69h"#)) == single)
        #expect(sizes(model(#"\e[?69h\e#6a"#)) == single)
        #expect(sizes(model(#"\e#6a\e[?1049h"#)) == single)
        #expect(sizes(model(#"\e#6a\e[?1049h\e#3b\e[?1049l"#)) == [.doubleWidth, .single, .single, .single, .single])
    }

    /// A row under a cursor waiting to wrap changes size: the wait is dropped where the
    /// row's edge is elsewhere now (no repaint could leave a terminal's cursor waiting there).
    @Test func aPendingWrapOffTheRowsEdgeIsDropped() {
        #expect(model(#"\e[2;1H\e#6abcde\e[S"#).cursor == (row: 1, column: 4, pendingWrap: false))
        #expect(model(#"\e#6abcde\e[T"#).cursor == (row: 0, column: 4, pendingWrap: false))
    }

    /// Saved cursors waiting to wrap at the edge of a double-size row, or past its half, come
    /// back from the repaint as they were (screenEverySplit).
    @Test(arguments: [#"\e#6abcde\e7\e[3;1Hx"#, #"0123456789\e7\e#6\e[3;1Hx"#, #"\e#6abcde\e[?1049h\e#6x"#])
    func savedCursorsOnDoubleSizeRows(input: String) {
        _ = model(input)
    }

    /// A wrap saved pending at the edge of a double-size row stays saved when the row is
    /// single again (xterm; DECRC waits there only once it is double-size again), and the
    /// repaint sets it on the row made double-width for the moment. It set it with a right
    /// margin there and left left/right margin mode on (fuzz), which made every row single
    /// and kept the cursor from going past that margin. On either screen, the row single
    /// again by ESC # 5, a scroll or an erase; with origin mode, the pen and character sets
    /// saved, and a wide character where the blank is printed.
    @Test(arguments: [
        #"\e#6abcde\e7\e#5"#, #"\e#3abcde\e7\e[S\e[T"#, #"\e[2;1H\e#6abcde\e7\e[H\e[J"#,
        #"\e#6abcde\e7\e#5\e#6\e8x"#, #"\e#6abcde\e7\e#5\e[1;4H中"#, #"\e#6abcde\e7\e#5\e[1;5H中"#,
        #"\e[2;4r\e[?6h\e[31m\e(0\e#6abcde\e7\e#5\e[?6l\e[m\e(B\e[r"#, #"\e[?1049h\e#6abcde\e7\e#5"#,
        #"\e[3;1H\e#6\e[H\e#6abcde\e7\e#5\e[?47h\e#6x"#, #"\e#6abcde\e7\e#5\e[?1049h"#,
        #"\e[?1049h\e#6abcde\e7\e[?1049lx"#, #"0123456789abc\e[1;1H\e#6abcde\e7\e#5"#,
    ])
    func aWrapSavedAtTheHalfOfARowSingleAgain(input: String) {
        _ = model(input)
    }

    /// A wrap saved pending at the edge of a row still double-size, the margins not set with
    /// it (the other screen is shown): printing the edge cell again leaves it pending. The
    /// repaint set it with a right margin there, and turning left/right margin mode on made
    /// every row single (fuzz: two tabs, ESC # 4, a character, SCOSC, 47). Each input
    /// repainted and fed to a fresh and a messy model (screenEverySplit).
    @Test(arguments: [
        #"\t\t\e#4h\e[s\e[?47h"#, #"\e#6abcde\e7\e[?47h"#, #"\e[2;1H\e#3abcde\e[s\e[?1049h"#,
        #"\e[?47h\e#6abcde\e7\e[?47l"#,
    ])
    func aWrapSavedAtTheEdgeOfARowStillDoubleSize(input: String) {
        _ = model(input)
    }

    /// The repaint writes each double-size row's size right after the cursor is put on it,
    /// before its text, and only the first half of its cells.
    @Test func theRepaintSetsEachSizeBeforeTheRowsText() {
        let repaint = String(decoding: model(#"\e#6wide\r\n\e#3tall\r\n\e#4tall\r\nplain"#).repaint(), as: UTF8.self)
        for expected in [
            "\u{1b}[1;1H\u{1b}#6wide", "\u{1b}[2;1H\u{1b}#3tall", "\u{1b}[3;1H\u{1b}#4tall", "\u{1b}[4;1Hplain",
        ] {
            #expect(repaint.contains(expected), "\(repaint.debugDescription)")
        }
    }

    /// Once the stream made a row double-size, the repaint makes every row single first, so
    /// a terminal whose rows still are double-size (xterm's main screen behind the lock
    /// screen) gets the model's sizes exactly; a stream that never did gets no `ESC #`.
    @Test func theRepaintMakesTheTerminalsOtherRowsSingle() {
        let original = model(#"\e#6a\e[2;1H\e#3b\e[2J\e[3;1H\e#4c"#)
        let terminal = ScreenModel(rows: 5, columns: 10)
        terminal.feed(#"\e#6\e[2;1H\e#3\e[5;1H\e#6"#)
        terminal.feed(original.repaint())
        #expect(sizes(terminal) == sizes(original))
        #expect(sizes(terminal) == [.single, .single, .doubleHeightBottom, .single, .single])
        #expect(!model("plain\r\ntext").repaint().contains(UInt8(ascii: "#")))
    }
}

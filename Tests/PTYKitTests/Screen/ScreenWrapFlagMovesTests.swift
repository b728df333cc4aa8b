import Testing

@testable import PTYKit

/// A row's wrap flag says its line goes on in the next row. Where rows are moved or
/// cleared whole, the flags come out as tmux 3.3a's grid leaves them (grid_move_lines,
/// grid_clear_lines; issue 29), read from its `capture-pane -J` after the same bytes: the
/// row above rows moved into place or cleared no longer goes on into them; SD, RI at the
/// top margin and IL also clear the flag of the one row tmux's move clears (the region's top
/// row, the cursor's row `count - 1` below); the main screen scrolls up with every flag
/// kept, the alternate screen clears the row above its region.
@Suite("Screen wrap flags of moved and cleared rows")
struct ScreenWrapFlagMovesTests {
    /// Six rows of four columns: `x`, a line over three rows, one over two.
    private static let wrappedLines = #"\e[Hx\r\nAAAABBBBCC\r\nyyyyZZ"#

    private func flags(_ input: String) -> String {
        let model = screenEverySplit(bytes(input), rows: 6, columns: 4)
        return String((0..<6).map { model.state.grid.isWrapped($0) ? "W" : "." })
    }

    /// The operation, then each row's flag after it on the main and on the alternate screen.
    @Test(arguments: [
        ("", ".WW.W.", ".WW.W."),
        (#"\e[T"#, "..WW.W", "..WW.W"),
        (#"\e[2T"#, "...WW.", "...WW."),
        (#"\e[2;5r\e[T"#, "...W..", "...W.."),
        (#"\e[3;6r\e[T"#, ".....W", ".....W"),
        (#"\e[3;6r\e[3;1H\eM"#, ".....W", ".....W"),
        (#"\e[S"#, "WW.W..", "WW.W.."),
        (#"\e[3;6r\e[S"#, ".W.W..", "...W.."),
        (#"\e[1;3r\e[S"#, "WW..W.", "WW..W."),
        (#"\e[2;3r\e[S"#, ".W..W.", "....W."),
        (#"\e[3;4r\e[S"#, ".W..W.", "....W."),
        (#"\e[3;4r\e[4;1H\n"#, ".W..W.", "....W."),
        (#"\e[3;1H\e[L"#, ".....W", ".....W"),
        (#"\e[3;1H\e[2L"#, "....W.", "....W."),
        (#"\e[2;1H\e[L"#, "...W.W", "...W.W"),
        (#"\e[2;1H\e[M"#, ".W.W..", ".W.W.."),
        (#"\e[3;1H\e[M"#, "...W..", "...W.."),
        (#"\e[3;5r\e[3;1H\e[2M"#, "......", "......"),
        (#"\e[3;1H\e[J"#, "......", "......"),
        (#"\e[3;2H\e[J"#, ".W....", ".W...."),
        (#"\e[4;2H\e[J"#, ".WW...", ".WW..."),
        (#"\e[3;4H\e[1J"#, "....W.", "....W."),
        (#"\e[3;2H\e[2K"#, "....W.", "....W."),
        (#"\e[3;1H\e[K"#, "....W.", "....W."),
        (#"\e[3;4H\e[1K"#, "....W.", "....W."),
        (#"\e[3;1H\e[4X"#, "....W.", "....W."),
    ])
    func asTmuxLeavesThem(operation: String, main: String, alternate: String) {
        #expect(flags(Self.wrappedLines + operation) == main, "main screen")
        #expect(flags(#"\e[?1049h"# + Self.wrappedLines + operation) == alternate, "alternate screen")
    }

    /// With left and right margins only the cells between them move (tmux has no such
    /// margins; xterm moves cells too): every row keeps its flag.
    @Test func leftAndRightMarginsMoveCellsAndKeepEveryFlag() {
        let margins = #"\e[?69h\e[2;3s\e[2;5r"#
        #expect(flags(Self.wrappedLines + margins + #"\e[T\e[S\e[3;2H\e[L\e[M"#) == ".WW.W.")
    }
}

@testable import PTYKit

// As in PTYKitTests' ScreenPenTests: `Style` is internal to PTYKit, so no helper target
// can hand it to both.
extension ScreenModel {
    /// The style of visible cell (`row`, `column`).
    func style(_ row: Int, _ column: Int) -> Style {
        state.pen.styles[Cell.style(state.grid.cell(column, row))]
    }

    func link(_ row: Int, _ column: Int) -> String {
        String(decoding: state.pen.hyperlinks[style(row, column).hyperlink], as: UTF8.self)
    }
}

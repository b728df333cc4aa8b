@testable import PTYKit

extension ScreenModel {
    public func feed(_ bytes: some Collection<UInt8>) {
        Array(bytes).withUnsafeBytes { feed($0) }
    }

    public func feed(_ notation: String) {
        feed(ScreenTestSupport.bytes(notation))
    }

    /// The visible rows, trailing blanks cut.
    public var lines: [String] {
        (0..<rows).map { row in
            var text = text(row: row)
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    /// The repaint as bytes.
    public func repaint() -> [UInt8] {
        let buffer = OutputBuffer()
        appendRepaint(to: buffer)
        return buffer.bytes
    }
}

// Internal, as `Style` is PTYKit's: the tests that look at cells' styles import this
// module @testable.
extension ScreenModel {
    /// The style of visible cell (`row`, `column`).
    func style(_ row: Int, _ column: Int) -> Style {
        state.pen.styles[Cell.style(state.grid.cell(column, row))]
    }

    func link(_ row: Int, _ column: Int) -> String {
        String(decoding: state.pen.hyperlinks[style(row, column).hyperlink], as: UTF8.self)
    }
}

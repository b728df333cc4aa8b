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

import Testing

@testable import PTYKit

/// Feeds `input` to fresh models of the size given: whole, split in two at every position,
/// and byte by byte (libvterm's and SwiftTerm's chunk loops), expecting the same state each
/// time, and the same state and repaint as the model without fast paths (the plain feed,
/// the reference); then the repaint of the result fed to a fresh model, expecting the same
/// again. Returns the model fed whole.
@discardableResult
public func screenEverySplit(
    _ input: [UInt8], rows: Int = 5, columns: Int = 10, sourceLocation: SourceLocation = #_sourceLocation
) -> ScreenModel {
    let whole = ScreenModel(rows: rows, columns: columns)
    whole.feed(input)
    let expected = whole.snapshot()
    let reference = ScreenModel(rows: rows, columns: columns, fastPaths: .none)
    reference.feed(input)
    #expect(reference.snapshot() == expected, "the plain feed", sourceLocation: sourceLocation)
    #expect(reference.repaint() == whole.repaint(), "the plain feed's repaint", sourceLocation: sourceLocation)
    for split in 0...input.count {
        let model = ScreenModel(rows: rows, columns: columns)
        model.feed(input[..<split])
        model.feed(input[split...])
        #expect(model.snapshot() == expected, "split at \(split)", sourceLocation: sourceLocation)
    }
    let byByte = ScreenModel(rows: rows, columns: columns)
    for byte in input { byByte.feed([byte]) }
    #expect(byByte.snapshot() == expected, "byte by byte", sourceLocation: sourceLocation)
    let repainted = ScreenModel(rows: rows, columns: columns)
    repainted.feed(bytes(#"\e[?1049h\e[5;5r\e[?6h\e[41mjunk\e(0"#))
    repainted.feed(whole.repaint())
    expectSameScreen(repainted, whole, "the repaint", sourceLocation: sourceLocation)
    return whole
}

/// The same visible state, with the first difference named when not.
public func expectSameScreen(
    _ actual: ScreenModel, _ expected: ScreenModel, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let (a, b) = (actual.snapshot().withoutInputModes, expected.snapshot().withoutInputModes)
    guard a != b else { return }
    var difference = "state"
    if a.main != b.main {
        difference = "main cells \(actual.isAlternateScreen ? "" : "\(actual.lines) vs \(expected.lines)")"
    } else if a.alternate != b.alternate {
        difference = "alternate cells \(actual.lines) vs \(expected.lines)"
    } else if a.lineSizes != b.lineSizes || a.alternateLineSizes != b.alternateLineSizes {
        difference = "line sizes \(a.lineSizes) vs \(b.lineSizes)"
    } else if a.cursor != b.cursor {
        difference = "cursor \(a.cursor) vs \(b.cursor)"
    } else if a.saved != b.saved {
        difference = "saved cursor \(a.saved) vs \(b.saved)"
    } else if a.savedBy1049 != b.savedBy1049 {
        let (first, second) = (a.savedBy1049.cursor, b.savedBy1049.cursor)
        difference = "cursor saved by 1049 \(String(describing: first)) vs \(String(describing: second))"
    } else if a.modes != b.modes {
        difference = "modes"
    } else if a.margins != b.margins {
        difference = "margins \(a.margins) vs \(b.margins)"
    } else if a.tabStops != b.tabStops {
        difference = "tab stops"
    } else if a.flags != b.flags {
        difference = "flags \(a.flags) vs \(b.flags)"
    } else if a.lastPrinted != b.lastPrinted {
        difference = "last printed \(String(describing: a.lastPrinted)) vs \(String(describing: b.lastPrinted))"
    }
    Issue.record("\(what): \(difference)", sourceLocation: sourceLocation)
}

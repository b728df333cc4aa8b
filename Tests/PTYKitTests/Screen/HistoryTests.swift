import Testing

@testable import PTYKit

/// Rows that leave the top of the main screen go to one `History`, however they leave.
struct HistoryTests {
    /// A held model started on row 1 of 4 (row 0 the terminal's), x, y, z below it, the
    /// cursor on the last row.
    func heldWithRowsBeforeStart() -> ScreenModel {
        let model = ScreenModel(rows: 4, columns: 10)
        model.start(atRow: 1, column: 0)
        model.startHoldingScrollback(limit: 1 << 20)
        model.feed("x\r\ny\r\nz")
        return model
    }

    func held(_ model: ScreenModel) -> [UInt8] {
        let buffer = OutputBuffer()
        model.state.history.hold?.write(into: buffer)
        return buffer.bytes
    }

    /// A full-screen scroll of two rows and a resize that drops the top two: the terminal's
    /// row counted, the program's held, the same either way.
    @Test func aScrollAndAResizeHandTheSameRowsAlike() {
        let scrolled = heldWithRowsBeforeStart()
        scrolled.feed(#"\e[2S"#)
        let resized = heldWithRowsBeforeStart()
        resized.resize(rows: 2, columns: 10)
        for model in [scrolled, resized] {
            #expect(model.heldScrollback.lines == 1)
            #expect(model.state.history.rowsBeforeStartHeld == 1)
            #expect(model.rowsBeforeStart == 0)
        }
        #expect(held(scrolled) == held(resized))
        #expect(String(decoding: held(scrolled), as: UTF8.self).hasPrefix("x"))
    }

    /// On the alternate screen neither reaches the history: the main screen's rows cut by
    /// a resize are gone, and the alternate screen's never go there.
    @Test func theAlternateScreenHandsNothing() {
        let model = heldWithRowsBeforeStart()
        model.feed(#"\e[?1049h\e[4;1H\e[2S"#)
        #expect(model.heldScrollback.lines == 0)
        #expect(model.rowsBeforeStart == 1)
        model.resize(rows: 2, columns: 10)
        #expect(model.heldScrollback.lines == 0)
        #expect(model.state.history.rowsBeforeStartHeld == 0)
        #expect(model.rowsBeforeStart == 0)
    }

    /// What the fast scroll and the walk assume: nothing keeps or counts a row that leaves.
    @Test func theScreenScrollsPlainlyOnlyWhenNothingTakesTheRows() {
        var state = ScreenState(rows: 3, columns: 10, vectors: .sse2)
        defer { state.deallocate() }
        #expect(state.scrollsPlainly)
        state.history.rowsBeforeStart = 1
        #expect(!state.scrollsPlainly)
        state.history.rowsBeforeStart = 0
        state.history.startHolding(limit: 1 << 10)
        #expect(!state.scrollsPlainly)
        state.history.stopHolding()
        #expect(state.scrollsPlainly)
        state.margins.top = 1
        #expect(!state.scrollsPlainly)
    }
}

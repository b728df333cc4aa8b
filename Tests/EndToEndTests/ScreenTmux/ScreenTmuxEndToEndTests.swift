import Glibc
import ScreenTestSupport
import Testing

@testable import PTYKit
@testable import TestSupport

extension EndToEnd {
    /// The model (PTYKit alone) against a real terminal: the same bytes fed to a tmux pane
    /// and to the model, the pane's `capture-pane -p -e -N` and formats compared with the
    /// model's; and the repaint: a pane messed up, then sent the model's repaint, must show
    /// what the pane fed the original bytes shows, and stay so when both get more output.
    /// In the end-to-end tier because it runs tmux (minutes), not because of idlewrap.
    @Suite("Screen against tmux", .requires(.tmux))
    struct ScreenTmux {
        @Test(arguments: ScreenSamples.recordings)
        func recordedProgramsShowTheSameAtEveryCheckpoint(_ name: String) throws {
            let input = try ScreenSamples.recording(name)
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

        @Test(arguments: ScreenSamples.cases)
        func theModelShowsWhatTmuxShows(_ testCase: ScreenSamples.Case) throws {
            let pane = try TmuxPane(rows: testCase.rows, columns: testCase.columns)
            let model = ScreenModel(rows: testCase.rows, columns: testCase.columns)
            try pane.send(testCase.input)
            model.feed(testCase.input)
            try expectSame(pane, model)
        }

        /// Junk that leaves a terminal in a state a repaint must undo.
        static let mess = bytes(
            #"\e[?1049h\e[2;3r\e[?6h\e[4h\e(0\e)0\x0E\e[1;5;7;41mjunk everywhere\e[?7l\e[3g\e[?25l\e[2J"#)

        @Test(arguments: ScreenSamples.cases)
        func theRepaintBringsAMessedUpPaneBack(_ testCase: ScreenSamples.Case) throws {
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

        private func expectSame(
            _ pane: TmuxPane, _ model: ScreenModel, sourceLocation: SourceLocation = #_sourceLocation
        )
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
}

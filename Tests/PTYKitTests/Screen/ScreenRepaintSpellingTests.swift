import Testing

@testable import PTYKit
@testable import ScreenTestSupport

/// The repaint's SGRs (issue 29): short, and each attribute and colour spelled as the
/// program spelled it, since terminals read the spellings differently.
@Suite("Screen repaint spelling")
struct ScreenRepaintSpellingTests {
    /// The parameter strings of every SGR in `bytes` (`1;38:2::1:2:3` of `ESC [ 1;38:2::1:2:3 m`).
    static func graphicRenditions(in bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\u{1b}[").compactMap { sequence in
            let parameters = sequence.prefix { $0.isNumber || $0 == ";" || $0 == ":" }
            return sequence.dropFirst(parameters.count).first == "m" ? String(parameters) : nil
        }
    }

    /// Parameters and sub-parameters, as a terminal that caps them counts them.
    static func parameterCount(_ sgr: String) -> Int {
        sgr.split(separator: ";", omittingEmptySubsequences: false).reduce(0) {
            $0 + $1.split(separator: ":", omittingEmptySubsequences: false).count
        }
    }

    private func repaintSGRs(_ input: String) -> [String] {
        Self.graphicRenditions(in: screenEverySplit(bytes(input + "X"), rows: 2, columns: 10).repaint())
    }

    @Test func trueColourTextAndBackgroundAreNotMergedPastTenParameters() {
        let sgrs = repaintSGRs(#"\e[38;2;255;128;0;48;2;0;0;128m"#)
        #expect(sgrs.allSatisfy { Self.parameterCount($0) <= 10 }, "\(sgrs)")
        #expect(sgrs.contains { $0.hasSuffix("38;2;255;128;0") }, "\(sgrs)")
        #expect(sgrs.contains { $0.hasSuffix("48;2;0;0;128") }, "\(sgrs)")
    }

    @Test func theFullestPenGoesOutInSGRsOfAtMostTenParameters() {
        let sgrs = repaintSGRs(#"\e[1;2;3;5;7;8;9;53;4:3;91;101m\e[38:2::1:2:3;48:2::4:5:6;58:2::7:8:9m"#)
        #expect(sgrs.allSatisfy { Self.parameterCount($0) <= 10 }, "\(sgrs)")
        for colour in ["38:2::1:2:3", "48:2::4:5:6", "58:2::7:8:9"] {
            #expect(sgrs.contains { $0.hasSuffix(colour) }, "\(colour) in \(sgrs)")
        }
    }

    @Test(arguments: [
        (#"\e[21m"#, "21"), (#"\e[4:2m"#, "4:2"), (#"\e[4m"#, "4"), (#"\e[4:1m"#, "4:1"), (#"\e[4:3m"#, "4:3"),
        (#"\e[4:5m"#, "4:5"),
    ])
    func anUnderlineIsRepaintedAsItWasSpelled(input: String, spelled: String) {
        let sgrs = repaintSGRs(input)
        #expect(sgrs.contains("0;" + spelled), "\(sgrs)")
    }

    @Test(arguments: [
        "38;2;1;2;3", "38:2::1:2:3", "38:2:1:2:3", "38;5;123", "38:5:123", "48;2;4;5;6", "48:2::4:5:6", "48:5:9",
        "58;2;7;8;9", "58:2::7:8:9", "58:2:7:8:9", "58;5;4", "58:5:4",
    ])
    func aColourIsRepaintedInTheFormItWasWritten(colour: String) {
        let sgrs = repaintSGRs("\u{1b}[4;" + colour + "m")
        #expect(sgrs.contains { $0.hasSuffix(colour) }, "\(sgrs)")
    }

    @Test func aColourSpaceIsWrittenEmpty() {
        #expect(repaintSGRs(#"\e[38:2:0:1:2:3m"#).contains("0;38:2::1:2:3"))
    }

    @Test func anEraseKeepsTheSpellingOfItsBackground() {
        let model = screenEverySplit(bytes(#"\e[48:2::4:5:6m\e[K"#), rows: 2, columns: 4)
        #expect(Self.graphicRenditions(in: model.repaint()).contains("0;48:2::4:5:6"))
    }

    /// Spellings of the same look that show no different anywhere are one style: the table
    /// holds no more of them.
    @Test func noUnderlineIsSpelledOneWay() {
        #expect(screenEverySplit(bytes(#"\e[4:2m\e[24mX"#)).style(0, 0) == .plain)
        #expect(screenEverySplit(bytes(#"\e[4:2m\e[4:0mX"#)).style(0, 0) == .plain)
        #expect(
            screenEverySplit(bytes(#"\e[4:2m\e[21mX"#)).style(0, 0) == screenEverySplit(bytes(#"\e[21mX"#)).style(0, 0))
    }

    /// st, urxvt and mlterm map more of the line-drawing set than the VT100's `_` to `~`:
    /// letters and spaces drawn in it are repainted in it, and show as they showed there.
    @Test func everythingDrawnInTheLineDrawingSetIsRepaintedInIt() {
        let model = screenEverySplit(bytes(#"\e(0ABlq \e(Bx"#))
        #expect(model.lines[0] == "AB┌─ x")
        #expect(String(decoding: model.repaint(), as: UTF8.self).contains("\u{1b}(0ABlq \u{1b}(Bx"))
    }
}

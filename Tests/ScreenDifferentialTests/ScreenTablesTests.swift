import Testing

@testable import PTYKit
@testable import ScreenTestSupport

/// The style, cluster and hyperlink tables under pressure (issue 27, findings 1, 2, 5 and
/// 7): the red team's streams, fed in reads as the relay reads, locked (holding the
/// scrollback) and not. After every read every id the state holds names an entry, and the
/// repaint gives back the same cells, colours and links.
@Suite("Screen tables")
struct ScreenTablesTests {
    static let sizes = [(rows: 24, columns: 80), (rows: 30, columns: 100), (rows: 60, columns: 200)]

    /// A colour per `number`: `38;2;RED;HIGH;LOW`.
    static func colour(_ red: Int, _ number: Int) -> String {
        #"\e[38;2;"# + "\(red);\(number >> 8);\(number & 0xFF)m"
    }

    static func direct(_ red: Int, _ number: Int) -> Colour {
        .direct(red: UInt32(red), green: UInt32(number >> 8), blue: UInt32(number & 0xFF))
    }

    /// Finding 1: 1026 lines each linked to its own URI, then 1100 colours on the top left
    /// cell. Collections ran with the pen's link renumbered under it.
    static let manyLinks: [UInt8] =
        (0...1025).flatMap { bytes(#"\e]8;;http://a/"# + "\($0)" + #"\e\\X\e]8;;\e\\\r\n"#) }
        + (0..<1100).flatMap { bytes(#"\e[1;1H"# + colour(1, $0) + "Y") }

    /// A letter with a combining mark, distinct for each `number` below 2912.
    static func cluster(_ number: Int) -> [UInt8] {
        Array("abcdefghijklmnopqrstuvwxyz".utf8)[number % 26...number % 26]
            + Array(String(Unicode.Scalar(0x300 + UInt32(number / 26))!).utf8)
    }

    /// Finding 2: 300 coloured lines that scroll away, a line for each cluster the table
    /// holds at first, a coloured `Q` given a mark when the cluster table is full, then 300
    /// more clusters.
    static let manyClusters: [UInt8] =
        (0..<300).flatMap { bytes(colour(2, $0) + #"coloured\r\n"#) } + bytes(#"\e[m"#)
        + (0..<ClusterTable.firstLimit).flatMap { cluster($0) + bytes(#"\r\n"#) }
        + bytes(#"\e[38;2;9;9;9mQ"#) + Array("\u{301}".utf8)
        + (ClusterTable.firstLimit..<ClusterTable.firstLimit + 300).flatMap { bytes(#"\e[1;1H"#) + cluster($0) }

    /// Finding 7: 1500 colours, and a link on row 10 that goes once they are on the screen;
    /// then 700 colours on one cell fill the table, for a collection that drops the link.
    static let manyColoursAfterALink: [UInt8] =
        bytes(#"\e[10;1H\e]8;;http://gone/\e\\L\e]8;;\e\\\e[1;1H"#)
        + (0..<1500).flatMap { bytes(colour(3, $0) + "C") } + bytes(#"\e[10;1HM"#)
        + (0..<700).flatMap { bytes(#"\e[20;1H"# + colour(4, $0) + "Z") }

    /// The model after `stream` fed in reads of 4 KiB, holding the scrollback (locked) or
    /// not, with its tables checked after every read.
    static func fed(_ stream: [UInt8], rows: Int, columns: Int, holding: Bool) -> ScreenModel {
        let model = ScreenModel(rows: rows, columns: columns)
        if holding { model.startHoldingScrollback(limit: 8 << 20) }
        for start in stride(from: 0, to: stream.count, by: 4096) {
            model.feed(stream[start..<min(start + 4096, stream.count)])
            if let broken = model.firstBrokenTableReference() {
                Issue.record("after \(start + 4096) bytes at \(rows)x\(columns): \(broken)")
                break
            }
        }
        return model
    }

    /// The repaint fed to a fresh model gives the same cells, colours and links.
    static func expectRepaintedAlike(_ model: ScreenModel, sourceLocation: SourceLocation = #_sourceLocation) {
        let fresh = ScreenModel(rows: model.rows, columns: model.columns)
        fresh.feed(model.repaint())
        expectSameScreen(fresh, model, "the repaint", sourceLocation: sourceLocation)
        #expect(fresh.firstBrokenTableReference() == nil, sourceLocation: sourceLocation)
    }

    @Test(arguments: sizes, [false, true])
    func manyLinksKeepEachCellsOwnLink(size: (rows: Int, columns: Int), holding: Bool) {
        let model = Self.fed(Self.manyLinks, rows: size.rows, columns: size.columns, holding: holding)
        #expect(model.style(0, 0).foreground == Self.direct(1, 1099))
        #expect(model.link(0, 0) == "")
        for row in 1...(size.rows - 2) {
            #expect(model.link(row, 0) == ";http://a/\(1027 - size.rows + row)", "row \(row)")
        }
        Self.expectRepaintedAlike(model)
    }

    @Test(arguments: [false, true]) func aCellGivenAMarkKeepsItsColourAcrossACollection(holding: Bool) {
        let model = Self.fed(Self.manyClusters, rows: 24, columns: 80, holding: holding)
        #expect(model.text(row: 23).hasPrefix("Q\u{301}"))
        #expect(model.style(23, 0).foreground == .direct(red: 9, green: 9, blue: 9))
        Self.expectRepaintedAlike(model)
    }

    @Test(arguments: [false, true]) func everyColourStaysWhenALinkIsCollected(holding: Bool) {
        let model = Self.fed(Self.manyColoursAfterALink, rows: 60, columns: 200, holding: holding)
        for index in 0..<1500 {
            #expect(model.style(index / 200, index % 200).foreground == Self.direct(3, index), "colour \(index)")
        }
        #expect(model.style(19, 0).foreground == Self.direct(4, 699))
        Self.expectRepaintedAlike(model)
    }

    /// A run of text that wraps at the bottom row interns the erase style of a new
    /// background in the middle of the run: the run's own style id must outlive that
    /// collection. Some 2044 colours before it leave the table full just then.
    @Test(arguments: 2036...2052) func aRunKeepsItsStyleWhenItsWrapCollects(colours: Int) {
        let model = ScreenModel(rows: 4, columns: 10)
        model.feed((0..<colours).flatMap { bytes(#"\e[1;1H"# + Self.colour(5, $0) + "s") })
        model.feed(bytes(#"\e[4;1H\e[38;2;6;6;6;44m0123456789abcdef"#))
        #expect(model.firstBrokenTableReference() == nil)
        #expect(model.lines[2...3] == ["0123456789", "abcdef"])
        let style = Style(foreground: .direct(red: 6, green: 6, blue: 6), background: .ansi(4))
        for (row, columns) in [(2, 0..<10), (3, 0..<6)] {
            for column in columns { #expect(model.style(row, column) == style, "\(row),\(column)") }
        }
        Self.expectRepaintedAlike(model)
    }

    /// Finding 5: a URI cut at the limit of a control string would be another URI.
    @Test func aLinkCutAtTheStringLimitIsDropped() {
        let cut = "http://a/" + String(repeating: "x", count: 4115)
        let model = screenEverySplit(bytes(#"\e]8;;"# + cut + #"\e\\T\e]8;;\e\\U"#), rows: 2, columns: 10)
        #expect(model.lines[0] == "TU")
        #expect(model.link(0, 0) == "")
        #expect(!model.repaint().contains(Array(#"]8;;http"#.utf8)))
        // One that just fits is kept.
        let fits = "http://a/" + String(repeating: "x", count: ControlString.capacity - 3 - 9)
        let kept = screenEverySplit(bytes(#"\e]8;;"# + fits + #"\e\\T"#), rows: 2, columns: 10)
        #expect(kept.link(0, 0) == ";" + fits)
    }

    /// 70,000 colours, one a cell on a screen of 8: the styles no cell uses are collected.
    @Test func stylesNoCellUsesAreCollected() {
        let model = ScreenModel(rows: 2, columns: 4)
        for value in 0..<70_000 {
            model.feed(#"\e[38;2;"# + "\(value & 0xFF);\(value >> 8 & 0xFF);\(value >> 16)mX")
        }
        #expect(model.state.pen.styles.count < 70_000)
        #expect(model.style(1, 3).foreground == .direct(red: 69_999 & 0xFF, green: 69_999 >> 8 & 0xFF, blue: 1))
    }

    /// Ids in use keep their values through a collection; freed ones are given out again
    /// before the table grows, and it grows only when a collection leaves it half full.
    @Test func aCollectionFreesWithoutRenumbering() {
        var table = StyleTable()
        let styles = (1...1023).map { Style(foreground: .indexed(UInt32($0 & 0xFF)), hyperlink: UInt16($0)) }
        let ids = styles.map { table.id(for: $0) }
        #expect(ids.allSatisfy { $0 != nil })
        #expect(table.id(for: Style(hyperlink: 5000)) == nil)
        table.free { $0 % 2 == 0 }
        for (style, id) in zip(styles, ids) where id! % 2 == 0 {
            #expect(table[id!] == style)
            #expect(table.isInUse(id!))
        }
        #expect(!table.isInUse(ids[0]!))
        let new = table.id(for: Style(hyperlink: 5000))
        #expect(new == 1, "the lowest freed id first")
        #expect(table.count == 1023, "the last id was freed, the table shortened")
        table.free { _ in false }
        #expect(table.count == 1)
        #expect(table.isInUse(0) && table[0] == .plain)
    }

    /// A cell keeps its character and seven marks (Cluster.capacity), further marks are
    /// dropped; the same cluster written again is the same entry (each mark added makes
    /// one: seven in all), and a cluster differs from its prefixes.
    @Test func aClusterKeepsEightScalars() {
        let marks = (0x300..<0x309).map { Unicode.Scalar(UInt32($0))! }
        let model = ScreenModel(rows: 4, columns: 10)
        model.feed(Array(("e" + String(String.UnicodeScalarView(marks)) + "\r\n").utf8))
        model.feed(Array(("e" + String(String.UnicodeScalarView(marks.prefix(7))) + "e\u{300}").utf8))
        let full = model.snapshot().main[0][0].scalars
        #expect(full == [0x65] + marks.prefix(7).map(\.value))
        #expect(model.snapshot().main[1][0].scalars == full)
        #expect(model.snapshot().main[1][1].scalars == [0x65, 0x300])
        #expect(model.state.pen.clusters.count == 7)
        #expect(model.firstBrokenTableReference() == nil)
    }
}

import Testing

@testable import PTYKit

/// Plain text that scrolls off before a chunk ends is skipped (ScreenStateScrollAhead.swift):
/// where feeding goes on, and that the grid is the one every byte would have made (fed
/// whole, where the skip happens, against every split and byte by byte, where it cannot).
@Suite("ScreenModel skipping text that scrolls away")
struct ScreenScrollAheadTests {
    /// Where a state of 3 rows of 10 columns with the cursor at `x`, `y` goes on in `text`,
    /// and its cursor then, with the run search both ways (SSE2, and AVX2 where the CPU has it).
    private func skip(
        _ text: String, x: Int = 0, y: Int = 2, pendingWrap: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (offset: Int, x: Int, y: Int) {
        var results: [(Int, Int, Int)] = []
        for vectors in [CellVectors.sse2, CellVectors.available] {
            var state = ScreenState(rows: 3, columns: 10, vectors: vectors)
            defer { state.deallocate() }
            state.cursor.x = x
            state.cursor.y = y
            state.cursor.pendingWrap = pendingWrap
            let offset = state.resumeAfterSkipping(bytes(text))
            results.append((offset, state.cursor.x, state.cursor.y))
        }
        #expect(results[0] == results[1], "with SSE2 and \(CellVectors.available)", sourceLocation: sourceLocation)
        return results[0]
    }

    @Test func linesFedAtTheBottomGoOnFromTheFirstRowLeftOnTheScreen() {
        // Eight line feeds at the bottom of 3 rows: the rows entered by the 6th, 7th and
        // 8th are what is left; the 6th is the one after "f", in the column after it.
        #expect(skip(#"a\nb\nc\nd\ne\nf\ng\nh\n"#, x: 0) == (12, 6, 0))
        #expect(skip(#"aa\r\nbb\r\ncc\r\ndd\r\nee\r\nff\r\ngg\r\n"#) == (20, 0, 0))
    }

    @Test func aRowEnteredByWrappingGoesOnAtTheCharacterThatWrapped() {
        // 10 columns: 45 characters from column 0 enter 4 rows by wrapping; the rows left
        // are the 2nd to the 4th, the 2nd begun by the 21st character (offset 20).
        #expect(skip(String(repeating: "0123456789", count: 4) + "abcde") == (20, 0, 0))
        // A pending wrap at the start enters a row with the first character.
        #expect(skip(String(repeating: "x", count: 40), x: 9, pendingWrap: true) == (10, 0, 0))
        // Without one, the second character wraps.
        #expect(skip(String(repeating: "x", count: 40), x: 9) == (11, 0, 0))
    }

    @Test func whatIsLeftIsPlainTextToTheEndOrNot() {
        var state = ScreenState(rows: 3, columns: 10, vectors: .sse2)
        var scratch = WalkScratch()
        defer {
            state.deallocate()
            scratch.deallocate()
        }
        let texts = [
            (#"a\nb\nc\nd\ne\nf\ng\nh\n"#, true), (#"a\nb\nc\nd\ne\nf\ng\nh\n\e[1;32m"#, true),
            (#"a\nb\nc\nd\ne\nf\ng\nh\n\e[K"#, false),
        ]
        for (text, plain) in texts {
            state.cursor.y = 2
            let result = bytes(text).withUnsafeBufferPointer {
                state.walkRead($0.baseAddress!, count: $0.count, &scratch)
            }
            guard case .skipped(let ahead)? = result else {
                Issue.record("\(text): \(String(describing: result))")
                continue
            }
            #expect(ahead.first.offset == 12 && (ahead.end != nil) == plain, "\(text)")
        }
    }

    @Test func tooFewRowsOrAnotherByteEarlySkipNothing() {
        // Shorter than a row: not walked.
        #expect(skip(#"a\nb\nc\nd\n"#).offset == 0)
        // The walk stops at the escape: two rows before it are not enough.
        #expect(skip(#"a\nb\nc\e[Kf\ng\nh\ni\nj\nk\n"#).offset == 0)
        // Five rows entered: from the bottom row, the last three are the 3rd to the 5th;
        // from the top, the rows below the cursor are shown until the 5th: two rows enter
        // from below it, and the first shown is the 3rd.
        #expect(skip(#"\n\n\n\n\nabcdefg"#, y: 2) == (3, 0, 0))
        #expect(skip(#"\n\n\n\n\nabcdefg"#, y: 0) == (3, 0, 0))
        #expect(skip(#"\n\n\n\nabcdefghi"#, y: 0).offset == 0)
    }

    @Test func nothingIsSkippedWhereTheWalkWouldBeWrong() {
        let flood = String(repeating: #"line\r\n"#, count: 12)
        // A scroll region, left and right margins, no autowrap, insert mode.
        for setup in [#"\e[1;2r"#, #"\e[?69h\e[2;5s"#, #"\e[?7l"#, #"\e[4h"#] {
            _ = screenEverySplit(bytes(setup + #"\e[3;1H"#) + bytes(flood), rows: 3, columns: 10)
        }
        let unlike: [(inout ScreenState) -> Void] = [
            { $0.margins.top = 1 }, { $0.margins.bottom = 1 }, { $0.margins.leftRightMode = true },
            { $0.gridModes.autowrap = false },
            { $0.gridModes.insert = true }, { $0.history.rowsBeforeStart = 1 },
        ]
        let input = bytes(flood)
        for change in unlike {
            var state = ScreenState(rows: 3, columns: 10, vectors: .sse2)
            defer { state.deallocate() }
            state.cursor.y = 2
            #expect(state.resumeAfterSkipping(input) > 0)
            state.cursor.y = 2
            change(&state)
            #expect(state.resumeAfterSkipping(input) == 0)
        }
    }

    /// 40 lines of 3 rows' worth each at 3x10: a flood at a small window.
    static let flood = (1...40).map { "line \($0) and more\r\n" }.joined()

    /// A model fed `reads`, and one fed the same byte by byte (where nothing is skipped or
    /// kept back).
    private func fed(_ reads: [String]) -> (model: ScreenModel, expected: ScreenModel) {
        let model = ScreenModel(rows: 3, columns: 10)
        let expected = ScreenModel(rows: 3, columns: 10)
        for read in reads {
            model.feed(read)
            for byte in bytes(read) { expected.feed([byte]) }
        }
        return (model, expected)
    }

    @Test func whatIsLeftOfAReadIsKeptBackUntilTheScreenIsRead() {
        let (model, expected) = fed([Self.flood])
        #expect(model.keptTextCount > 0)
        // What plain text cannot change is read without feeding it.
        _ = (model.modes, model.title, model.titleSets, model.isAtBoundary, model.heldScrollback, model.openSequence)
        #expect(model.keptTextCount > 0)
        // The next read scrolls it away: what is kept back is what is left of both.
        model.feed(Self.flood)
        for byte in bytes(Self.flood) { expected.feed([byte]) }
        #expect(model.keptTextCount > 0 && model.keptTextCount < bytes(Self.flood).count)
        #expect(model.cursor == expected.cursor)
        #expect(model.keptTextCount == 0)
        #expect(model.snapshot() == expected.snapshot())
    }

    @Test func everythingThatReadsOrChangesTheScreenFeedsWhatIsKeptBack() {
        typealias Use = (ScreenModel) -> String
        let uses: [(String, Use)] = [
            ("snapshot", { "\($0.snapshot())" }),
            ("text", { $0.text(row: 1) }),
            ("cursor", { "\($0.cursor)" }),
            (
                "repaint",
                { model in
                    let buffer = OutputBuffer()
                    model.appendRepaint(to: buffer)
                    return "\(buffer.bytes)"
                }
            ),
            (
                "resize",
                { model in
                    model.resize(rows: 5, columns: 7)
                    return "\(model.snapshot())"
                }
            ),
            (
                "hold",
                { model in
                    // Lines that scrolled off before the hold began are not held.
                    model.startHoldingScrollback(limit: 1 << 16)
                    model.feed(#"one\r\ntwo\r\nthree\r\nfour\r\n"#)
                    return "\(model.heldScrollback) \(model.snapshot())"
                }
            ),
            (
                "feedUntilBoundary",
                { model in
                    _ = bytes(#"\e[31"#).withUnsafeBytes { model.feedUntilBoundary($0) }
                    return "\(model.snapshot())"
                }
            ),
            (
                "a sequence next",
                { model in
                    model.feed(#"\e[7mx\e[m"#)
                    return "\(model.snapshot())"
                }
            ),
        ]
        for (name, use) in uses {
            let (model, expected) = fed([Self.flood, Self.flood])
            #expect(model.keptTextCount > 0, "\(name)")
            #expect(use(model) == use(expected), "\(name)")
            #expect(model.snapshot() == expected.snapshot(), "\(name)")
        }
    }

    @Test func whatIsLeftOfAReadIsFedWhenItIsTooLongToKeepBack() {
        // Returns make a row's bytes as many as they like: the last row, rewritten 7000
        // times, is more than KeptText keeps.
        let rewritten = Self.flood + String(repeating: "ab\r", count: 7000)
        #expect(bytes(rewritten).count > KeptText.capacity)
        let (model, expected) = fed([Self.flood, rewritten])
        #expect(model.keptTextCount == 0)
        #expect(model.snapshot() == expected.snapshot())
    }

    @Test func aShortReadAfterTextKeptBackIsKeptBackAfterIt() {
        let flood = bytes(Self.flood)
        let (short, shortExpected) = fed([Self.flood, #"one\r\ntwo"#])
        #expect(short.keptTextCount > bytes(#"one\r\ntwo"#).count)
        #expect(short.snapshot() == shortExpected.snapshot())
        // A flood after both scrolls them away: what is kept back is the last one's rest.
        let (scrolled, scrolledExpected) = fed([Self.flood, #"one\r\ntwo"#, Self.flood])
        #expect(scrolled.keptTextCount > 0 && scrolled.keptTextCount < flood.count)
        #expect(scrolled.snapshot() == scrolledExpected.snapshot())
        // Each short read that scrolls a row in drops the kept text of the row that
        // scrolls out: what is kept back stays a screen's worth.
        let (lines, linesExpected) = fed([Self.flood] + Array(repeating: #"one\r\n"#, count: 4000))
        #expect(lines.keptTextCount > 0 && lines.keptTextCount <= 3 * bytes(#"one\r\n"#).count)
        #expect(lines.snapshot() == linesExpected.snapshot())
        // Reads that scroll nothing are kept back until KeptText is full: then all of
        // it is fed, and what comes after (too short to walk) too.
        let (few, fewExpected) = fed([Self.flood] + Array(repeating: #"ab\r"#, count: 4000))
        #expect(few.keptTextCount > 12_000)
        #expect(few.snapshot() == fewExpected.snapshot())
        let (many, manyExpected) = fed([Self.flood] + Array(repeating: #"ab\r"#, count: 6000))
        #expect(many.keptTextCount == 0)
        #expect(many.snapshot() == manyExpected.snapshot())
        // A read with more than plain text in it: both are fed.
        let (sequence, sequenceExpected) = fed([Self.flood, #"one\r\n\e[Htwo"#])
        #expect(sequence.keptTextCount == 0)
        #expect(sequence.snapshot() == sequenceExpected.snapshot())
    }

    /// A read that ends with a background set is kept back with it: the line feed in the
    /// next read scrolls in a row of that background, which a skip would blank in the
    /// default one.
    @Test func aBackgroundLeftSetAtTheEndOfAReadEndsTheWalkAtTheNextLineFeed() {
        let (model, expected) = fed(["a\r\nb\r\nc", #"\e[42mgreen"#, #"\r\n\e[mx\r\ny\r\nz"#])
        #expect(model.snapshot() == expected.snapshot())
    }

    /// A read whose end cuts an SGR the walk goes over whole (a coloured flood in reads of a
    /// pty) is kept back up to its ESC and the SGR's start fed, the parser inside it as the
    /// stream is; the read that ends it keeps it with the text, or, where the whole is not
    /// walked over (a colour of more parameters) or something reads the screen first, the
    /// text is fed from the parser before the SGR, the parser put back inside it.
    @Test func aReadThatEndsInsideAnSGRIsKeptBackUpToIt() {
        let coloured = (1...12).map { #"line \#($0) \e[01;32mand\e[0m more\r\n"# }.joined()
        for sgr in [#"\e[01;32m"#, #"\e[1;2;3;4;5;6;7;8m"#, #"\e[38;5;2m"#, #"\e[41m"#] {
            let tail = bytes(sgr + #"x\e[0m\r\nz"#)
            let sgrCount = bytes(sgr).count
            for cut in 1..<sgrCount {
                let head = bytes(coloured) + tail[..<cut]
                for readFirst in [false, true] {
                    let what = "\(sgr) cut after \(cut)\(readFirst ? ", the screen read between" : "")"
                    let model = ScreenModel(rows: 3, columns: 10)
                    let expected = ScreenModel(rows: 3, columns: 10, fastPaths: .none)
                    model.feed(head)
                    expected.feed(head)
                    #expect(model.keptTextCount > 0, "\(what)")
                    #expect(model.isAtBoundary == expected.isAtBoundary, "\(what)")
                    #expect(model.openSequence == expected.openSequence, "\(what)")
                    if readFirst { #expect(model.cursor == expected.cursor, "\(what)") }
                    model.feed(Array(tail[cut...]))
                    expected.feed(Array(tail[cut...]))
                    // Kept with the text, unless it is not walked over (or was fed).
                    #expect((model.keptTextCount > 0) == (!readFirst && sgr != #"\e[38;5;2m"#), "\(what)")
                    #expect(model.snapshot() == expected.snapshot(), "\(what)")
                }
            }
        }
    }

    /// Reads that each scroll in fewer rows than a screen: each drops the kept text of the
    /// rows that scrolled out, found from the last line feed before the first row shown
    /// that the walks noted (in an earlier read), or from the start of the kept text where
    /// that is more rows back than are noted (a screen taller than that).
    @Test func readsThatScrollLessThanAScreenDropTheKeptTextThatScrolledOut() {
        let twoRows = (1...20).map { "line \($0)\r\nx\r\n" }
        let (model, expected) = fed(twoRows)
        #expect(model.keptTextCount > 0 && model.keptTextCount <= 2 * bytes(twoRows[19]).count)
        #expect(model.snapshot() == expected.snapshot())
        // The first row shown begins inside a line that wraps, after a line feed in the
        // read before the read before.
        let (wrapped, wrappedExpected) = fed(["ab\r\n" + String(repeating: "y", count: 25), "0123456789", "0123456789"])
        #expect(wrapped.keptTextCount > 20 && wrapped.keptTextCount < 40)
        #expect(wrapped.snapshot() == wrappedExpected.snapshot())
        for rows in [100, 200] {
            let tall = ScreenModel(rows: rows, columns: 10)
            let tallExpected = ScreenModel(rows: rows, columns: 10)
            for read in 0..<12 {
                let text = bytes((0..<(rows / 3)).map { "\(read) \($0)\r\n" }.joined())
                tall.feed(text)
                for byte in text { tallExpected.feed([byte]) }
                #expect(tall.keptTextCount > 0)
            }
            #expect(tall.snapshot() == tallExpected.snapshot(), "\(rows) rows")
        }
    }

    /// The walk to the first row shown goes on from the last line feed before it
    /// (ScreenState.LineStarts), or from the start where that is more rows back than it
    /// keeps: a line wrapping 150 rows at 3x10.
    @Test func aRowBegunFarIntoALongLineIsFoundFromTheStart() {
        for text in [
            #"ab\n"# + String(repeating: "0123456789", count: 150) + #"\r\ncd"#,
            #"ab\n"# + String(repeating: "0123456789", count: 150) + "efg",
            String(repeating: #"1\n22\n"#, count: 100) + String(repeating: "x", count: 45),
        ] {
            let (model, expected) = fed([text])
            #expect(model.keptTextCount > 0)
            #expect(model.snapshot() == expected.snapshot())
        }
    }

    @Test func heldScrollbackGetsEveryLine() {
        let model = ScreenModel(rows: 3, columns: 10)
        model.startHoldingScrollback(limit: 1 << 20)
        model.feed(String(repeating: #"line\r\n"#, count: 12))
        #expect(model.heldScrollback.lines == 10)
    }

    @Test func whatAReadThatScrollsTooLittleComesTo() {
        var state = ScreenState(rows: 3, columns: 10, vectors: .sse2)
        var scratch = WalkScratch()
        defer {
            state.deallocate()
            scratch.deallocate()
        }
        func walked(_ text: String) -> String {
            state.cursor.y = 2
            state.cursor.x = 0
            let walk = bytes(text).withUnsafeBufferPointer {
                state.walkRead($0.baseAddress!, count: $0.count, &scratch)
            }
            switch walk {
            case .scrolledTooLittle(let end)?: return "kept, row \(end.row) column \(end.x)"
            case .notPlain?: return "not plain"
            default: return "\(String(describing: walk))"
            }
        }
        // Plain text, and colour in it, is kept back: where it leaves the cursor.
        #expect(walked(String(repeating: "y", count: 15) + #"\r\n"#) == "kept, row 4 column 0")
        #expect(walked(#"\e[1;34myyyyyyyyyyyy\e[m\r\n"#) == "kept, row 4 column 0")
        // A background is, up to a row it would be in when the row is entered: by a line
        // feed or a wrap.
        #expect(walked(#"a\r\nb\r\n\e[41mc"#) == "kept, row 4 column 1")
        #expect(walked(#"a\r\n\e[41mb\e[m\r\nc\e[42md\e[49m"#) == "kept, row 4 column 2")
        #expect(walked(#"a\r\n\e[41mb\r\nc"#) == "not plain")
        #expect(walked(#"a\r\nb\r\n\e[101mcdefghijklm"#) == "not plain")
        #expect(walked(#"a\r\nb\r\n\e[48;5;1mc"#) == "not plain")
        // So is a background in the pen (which the SGRs walked over could change then).
        var tinted = Style.plain
        tinted.background = .ansi(4)
        state.setPen(tinted)
        #expect(walked(#"a\r\nb\r\n\e[1mc"#) == "not plain")
        #expect(walked(#"a\r\nb\r\nc and"#) == "kept, row 4 column 5")
        // Nothing pauses the walk: the next read that scrolls enough is skipped.
        state.setPen(.plain)
        #expect(walked(#"a\r\n\e[Kbcdefgh"#) == "not plain")
        state.cursor.y = 2
        #expect(state.resumeAfterSkipping(bytes(String(repeating: #"a\r\n"#, count: 12))) == 30)
    }
}

extension ScreenState {
    /// Where feeding goes on in `input` walked from the cursor: after the text skipped, or 0.
    fileprivate mutating func resumeAfterSkipping(_ input: [UInt8]) -> Int {
        var scratch = WalkScratch()
        var heldRows = HeldTextRows()
        defer {
            scratch.deallocate()
            heldRows.deallocate()
        }
        let start = cursorWalk
        return input.withUnsafeBufferPointer { input in
            guard case .skipped(let ahead)? = walkRead(input.baseAddress!, count: input.count, &scratch) else {
                return 0
            }
            scrollAway(
                UnsafeBufferPointer(rebasing: input[..<ahead.first.offset]), from: start, topRow: 0, to: ahead.first,
                &heldRows)
            return ahead.first.offset
        }
    }
}

import CScreenKernels
import Testing

@testable import PTYKit

/// A program that redraws whole screens (ED 2) draws several in one read; what comes
/// before the last redraw's CUP and pen reset is left out, but for the modes and the like
/// in it, fed alone (ScreenModel.applyRead, CScreenKernels' ccell_find_redraw). Where that
/// happens, that nothing changes (against the same bytes fed one at a time, where it
/// cannot happen), and where it must not happen.
@Suite("ScreenModel leaving out what a redraw undoes")
struct ScreenRedrawSkipTests {
    /// A redraw as vim makes one: pen reset, home, erase, coloured rows, a status line.
    static func redraw(_ name: String) -> String {
        #"\e[27m\e[m\e[H\e[2J\e[1;1H\e[34m"# + name + #" top\e[m\r\nsecond \e[31mline\e[m\r\n\e[5;1Hstatus \#(name)"#
    }

    /// A model fed `reads`, and one fed the same bytes one at a time; `holding` both hold
    /// the scrollback.
    private func fed(_ reads: [String], rows: Int = 5, columns: Int = 10, holding: Bool = false) -> (
        model: ScreenModel, expected: ScreenModel
    ) {
        let model = ScreenModel(rows: rows, columns: columns)
        let expected = ScreenModel(rows: rows, columns: columns)
        if holding {
            model.startHoldingScrollback(limit: 1 << 20)
            expected.startHoldingScrollback(limit: 1 << 20)
        }
        for read in reads {
            model.feed(read)
            for byte in bytes(read) { expected.feed([byte]) }
        }
        return (model, expected)
    }

    /// A model fed an ED 2 and then `read`, and one fed the same one byte at a time,
    /// expected to show the same; returns the first.
    @discardableResult
    private func afterAnErase(_ read: String, sourceLocation: SourceLocation = #_sourceLocation) -> ScreenModel {
        let (model, expected) = fed([#"\e[2J"#, read])
        expectSameScreen(model, expected, read, sourceLocation: sourceLocation)
        #expect(model.snapshot() == expected.snapshot(), "\(read)", sourceLocation: sourceLocation)
        #expect(model.title == expected.title, "\(read)", sourceLocation: sourceLocation)
        return model
    }

    @Test func theRedrawsBeforeTheLastInAReadAreLeftOut() {
        // The first read shows the program redraws; in the second, all but the last redraw.
        let second = Self.redraw("b") + Self.redraw("c") + Self.redraw("d")
        let (model, expected) = fed([Self.redraw("a"), second])
        // Left out: all before the last redraw's reset (ESC [ m), after ESC [ 27 m.
        #expect(model.bytesSkippedBeforeRedraws == bytes(Self.redraw("b") + Self.redraw("c")).count + 5)
        #expect(model.lines == ["d top", "second lin", "e", "", "status d"])
        expectSameScreen(model, expected, "redraws in one read")
        #expect(model.snapshot() == expected.snapshot())
    }

    @Test func aReadIsLookedAtOnlyAfterOneThatErasedTheScreen() {
        let (model, _) = fed(["plain", Self.redraw("b") + Self.redraw("c")])
        #expect(model.bytesSkippedBeforeRedraws == 0)
        model.feed(Self.redraw("d") + Self.redraw("e"))
        #expect(model.bytesSkippedBeforeRedraws > 0)
    }

    /// What the erase, CUP and reset undo, and what is fed alone, split at every byte:
    /// wrapping and scrolling, margins and origin mode, wide characters and combining
    /// marks, REP, the pen's background at the erase, titles, modes, character sets.
    @Test func everySplitOfRedrawsGivesTheSameScreen() {
        let inputs = [
            #"\e[2J\e[m\e[Hfirst\e[2J0123456789abcdefghijklmnop\r\n\n\n\n\n\nwrapped\e[m\e[H\e[2Jlast"#,
            #"\e[2Jx\e[2;4r\e[?6h\e[2;1Hin region\r\n\nmore\e[?6l\e[rab\e[3b\e[m\e[3;3H\e[2Jafter"#,
            #"\e[2J\e[?7l0123456789abcdef\e[?7he\#u{301}漢字\rx\e[m\e[44m\e[H\e[2J\e[1;9Hedge"#,
            #"\e[2J\e[m\e[Hone\r\ntwo\e[?25l\e]0;t\a\e(0q\e[4h\e[>4;2m\e[1;44m\e[m\e[H\e[43m\e[2J\e[3;1Hthree"#,
            #"\e[2J\e[m\e[Hone\e7\e[31m\e[H\e[2Jtwo\e8three"#,
        ]
        for input in inputs {
            let model = screenEverySplit(bytes(input))
            let reads = afterAnErase(input)
            #expect(reads.snapshot() == model.snapshot(), "\(input)")
        }
        let (model, _) = fed([#"\e[2J"#, inputs[0]])
        #expect(model.bytesSkippedBeforeRedraws > 0)
    }

    /// What the redraw's reset and CUP cannot undo is fed alone, in order; what reads the
    /// cursor or pen, switches screens or is not known keeps anything from being left out.
    @Test func whatTheRedrawDoesNotUndoIsFed() {
        let fedAlone = [
            #"\e[?25l"#, #"\e]0;title\a"#, #"\e]2;other\e\\"#, #"\e(0"#, #"\e)0\x0e"#, #"\e[4h"#, #"\e[>4;2m"#,
            #"\e[2;4r"#, #"\e[?6h"#, #"\e[?7l"#, #"\e[22;0t"#, #"\e[6n"#, #"\e[4 q"#, #"\e="#, #"\a"#, #"\e[!p"#,
            #"\e[>1u"#, #"\e[1N"#,
        ]
        let kept = [
            #"\e7"#, #"\e[s"#, #"\e[u"#, #"\e[g"#, #"\eH"#, #"\e[?1048h"#, #"\x18"#, #"\e[#{"#, #"\e]0;cut"#,
            #"\ePqpayload\e\\"#, #"\ec"#, #"\e[?1049h"#, #"\e[?1047l"#, #"\e[?47h"#, #"\e[?25;1049h"#,
            // Bytes the parser goes over inside a sequence: ESC [ ? 1049 h all the same.
            #"\e\xa5\xe5[?1049h"#, #"\e[\x05?1049h"#, #"\e[?10\x0549h"#, #"\e\x7f[?1049h"#, #"\e[1\x05m"#,
        ]
        for (items, leftOut) in [(fedAlone, true), (kept, false)] {
            for item in items {
                let model = afterAnErase(#"\e[m\e[Hold\r\n"# + item + #"x\e[33mx\e[m\e[2;2H\e[2J\e[Hnew\e8"#)
                #expect((model.bytesSkippedBeforeRedraws > 0) == leftOut, "\(item)")
            }
        }
    }

    @Test func textShownAfterAScreenSwitchComesBack() {
        for switchOn in [#"\e[?1049h"#, #"\e[?1047h"#, #"\e[?47h"#, #"\e\xa5\xe5[?1049h"#, #"\e[?10\x0549h"#] {
            // Printed on the main screen, erased on the alternate one, shown again.
            let model = afterAnErase(#"main text\e[m\e[H"# + switchOn + #"\e[m\e[H\e[2Jalt\e[?1049l"#)
            #expect(model.lines.first == "main text", "\(switchOn)")
        }
    }

    @Test func anEraseInsideADeviceControlStringIsNotOne() {
        // tmux takes ESC [ 2 J inside a DCS as its payload: the text stays.
        let model = afterAnErase(#"text\ePqpayload\e[m\e[H\e[2Jmore\e\\"#)
        #expect(model.lines.first == "text")
    }

    @Test func nothingIsLeftOutWithoutACursorPositionAndResetBeforeTheErase() {
        let reads = [
            #"a\e[m\e[Hold\e[Hx\e[2Jnew"#,  // text after the CUP
            #"a\e[m\e[Hold\e[H\r\e[2Jnew"#,  // a return after it
            #"a\e[m\e[Hold\e[H\e[2C\e[2Jnew"#,  // a move after it
            #"a\e[1m\e[Hold\e[H\e[2Jnew"#,  // no reset
            #"a\e[m\e[1;1Hold\e[3d\e[2Jnew"#,  // VPA keeps the column
            #"a\e[m\e[Hold\e[?5H\e[2Jnew"#,  // not a CUP
        ]
        for read in reads {
            #expect(afterAnErase(read).bytesSkippedBeforeRedraws == 0, "\(read)")
        }
        // A reset after the CUP, and SGRs after both.
        let model = afterAnErase(#"\e[m\e[Hold\e[H\e[0;1m\e[32m\e[2Jnew"#)
        #expect(model.bytesSkippedBeforeRedraws == bytes(#"\e[m\e[Hold"#).count)
    }

    @Test func textThatScrollsIntoHeldScrollbackIsFed() {
        let flood = String(repeating: #"held line\r\n"#, count: 8) + #"\e[m\e[H\e[2Jafter"#
        let (model, expected) = fed([#"\e[2J"#, flood], holding: true)
        #expect(model.bytesSkippedBeforeRedraws == 0)
        #expect(model.heldScrollback == expected.heldScrollback && model.heldScrollback.lines == 4)
        let (unlock, expectedUnlock) = (OutputBuffer(), OutputBuffer())
        model.appendHeldScrollbackAndRepaint(to: unlock)
        expected.appendHeldScrollbackAndRepaint(to: expectedUnlock)
        #expect(unlock.bytes == expectedUnlock.bytes)
    }

    /// What a relay reads after every read without the kept text or the kept redraw fed:
    /// the same as the plain feed's.
    private func expectSameAfterRead(
        _ model: ScreenModel, _ plain: ScreenModel, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let same =
            model.isAtBoundary == plain.isAtBoundary && model.openSequence == plain.openSequence
            && model.modes == plain.modes && model.title == plain.title && model.titleSets == plain.titleSets
            && model.queryCount == plain.queryCount && model.rowsBeforeStart == plain.rowsBeforeStart
            && model.isAlternateScreen == plain.isAlternateScreen && model.heldScrollback == plain.heldScrollback
        #expect(same, "\(what)", sourceLocation: sourceLocation)
    }

    /// A model and the plain feed fed `reads` after `first` (a read that erased the screen),
    /// compared after every read as a relay reads them, and their screens at the end.
    @discardableResult
    private func fedAgainstThePlainFeed(
        _ reads: [String], first: String = #"\e[2J"#, startRow: Int? = nil, holding: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ScreenModel {
        let model = ScreenModel(rows: 5, columns: 10)
        let plain = ScreenModel(rows: 5, columns: 10, fastPaths: .none)
        for other in [model, plain] {
            if let startRow { other.start(atRow: startRow, column: 0) }
            if holding { other.startHoldingScrollback(limit: 1 << 20) }
            other.feed(first)
        }
        for read in reads {
            model.feed(read)
            plain.feed(read)
            expectSameAfterRead(model, plain, read, sourceLocation: sourceLocation)
        }
        expectSameScreen(model, plain, "\(reads)", sourceLocation: sourceLocation)
        #expect(model.repaint() == plain.repaint(), "\(reads)", sourceLocation: sourceLocation)
        return model
    }

    @Test func theLastRedrawOfAReadIsLeftOutByTheNextReadsRedraw() {
        // The last redraw of the first read is kept back, then left out whole by the next
        // read's, and so on.
        let reads = [Self.redraw("a") + Self.redraw("b"), Self.redraw("c") + Self.redraw("d"), Self.redraw("e")]
        let model = fedAgainstThePlainFeed(reads)
        let leftOut = [Self.redraw("a"), Self.redraw("b"), Self.redraw("c"), Self.redraw("d")].map { bytes($0).count }
        // All but the last redraw from its reset, after ESC [ 27 m.
        #expect(model.bytesSkippedBeforeRedraws == leftOut.reduce(0, +) + 5)
        #expect(model.lines == ["e top", "second lin", "e", "", "status e"])
    }

    /// A redraw kept back is fed before anything that comes after it but another redraw:
    /// text, a mode, a read cut inside a sequence, and before the screen is read or changed.
    @Test func aKeptRedrawIsFedBeforeWhatFollowsIt() {
        let first = Self.redraw("a") + Self.redraw("b")
        for next in ["typed", #"\e[?25h"#, #"\e[3"#, #"\e[2J"#, #"\e[m\e[2J"#, #"\e[H\e[2Jx"#, #"\e7"#, "é"] {
            fedAgainstThePlainFeed([first, next, "more"])
        }
        let reads: [(ScreenModel) -> Void] = [{ _ = $0.cursor }, { $0.resize(rows: 6, columns: 9) }]
        for read in reads {
            let model = ScreenModel(rows: 5, columns: 10)
            let plain = ScreenModel(rows: 5, columns: 10, fastPaths: .none)
            for other in [model, plain] {
                other.feed(#"\e[2J"#)
                other.feed(first)
                read(other)
                other.feed("after")
            }
            expectSameScreen(model, plain, "read between")
        }
    }

    /// What would change what a relay reads after every read is fed, not kept back: a
    /// redraw that ends with a mode or a title, inside a character, a string or a long
    /// sequence, that erases the rows above the start on the main screen, or while the
    /// scrollback is held.
    @Test func aRedrawThatChangesWhatARelayReadsIsNotKeptBack() {
        let long = #"\e["# + String(repeating: "1;", count: 20)
        for end in [#"\e[?25h"#, #"\e]0;title\a"#, #"\xCE"#, #"\xE6\xBC"#, #"\e[6n"#, #"\e("#, #"\e]0;ti"#, long] {
            let model = fedAgainstThePlainFeed([Self.redraw("a") + Self.redraw("b") + end])
            #expect(model.bytesSkippedBeforeRedraws == bytes(Self.redraw("a")).count + 5, "\(end)")
        }
        // An erase on the alternate screen leaves the main screen's rows above the start.
        let main = fedAgainstThePlainFeed(
            [Self.redraw("a") + Self.redraw("b"), "more"], first: #"\e[?1049h\e[2J\e[?1049l"#, startRow: 3)
        #expect(main.bytesSkippedBeforeRedraws == bytes(Self.redraw("a")).count + 5)
        fedAgainstThePlainFeed([Self.redraw("a") + Self.redraw("b"), Self.redraw("c")], holding: true)
        // On the alternate screen, those rows stay as they are: kept back.
        let alternate = fedAgainstThePlainFeed(
            [Self.redraw("a") + Self.redraw("b"), Self.redraw("c")], first: #"\e[?1049h\e[2J"#, startRow: 3)
        #expect(alternate.bytesSkippedBeforeRedraws > bytes(Self.redraw("a") + Self.redraw("b")).count)
    }

    /// A read cut inside a control sequence: the redraw before it kept back, the sequence
    /// fed; the next read that ends it with one a redraw undoes and redraws leaves out all
    /// three, and anything else has the redraw fed before the sequence goes on.
    @Test func aRedrawCutInsideASequenceIsKeptBackUpToIt() {
        let first = Self.redraw("a") + Self.redraw("b")
        for (open, rest) in [(#"\e"#, "[31m"), (#"\e["#, "m"), (#"\e[3"#, "1m"), (#"\e[24;6"#, "3H"), (#"\e[1"#, "K")] {
            let model = fedAgainstThePlainFeed([first + open, rest + Self.redraw("c"), Self.redraw("d")])
            let leftOut = [Self.redraw("a"), Self.redraw("b") + open + rest, Self.redraw("c")]
            #expect(model.bytesSkippedBeforeRedraws == leftOut.map { bytes($0).count }.reduce(0, +) + 5, "\(open)")
        }
        // Ended otherwise: with a mode, a sequence cut again, text, by what the parser goes
        // over inside it, or not ended in the next read at all.
        for (open, next) in [
            (#"\e[?2"#, #"5l"# + Self.redraw("c")), (#"\e[3"#, #"1\e[m"# + Self.redraw("c")), (#"\e[3"#, "1mtyped"),
            (#"\e[3"#, #"\x05m"# + Self.redraw("c")), (#"\e[3"#, #"é"# + Self.redraw("c")), (#"\e[3"#, "1"),
            (#"\e"#, #"7"# + Self.redraw("c")), (#"\e[3"#, #"1;"# + String(repeating: "1;", count: 20) + "m"),
        ] {
            fedAgainstThePlainFeed([first + open, next, "more"])
        }
        // Read or changed while the parser is inside the sequence: the redraw is fed from
        // the boundary before it, and the sequence goes on.
        let reads: [(ScreenModel) -> Void] = [
            { _ = $0.cursor }, { $0.resize(rows: 6, columns: 9) }, { $0.startHoldingScrollback(limit: 1 << 16) },
            { model in _ = bytes("1m").withUnsafeBytes { model.feedUntilBoundary($0) } },
        ]
        for read in reads {
            let model = ScreenModel(rows: 5, columns: 10)
            let plain = ScreenModel(rows: 5, columns: 10, fastPaths: .none)
            for other in [model, plain] {
                other.feed(#"\e[2J"#)
                other.feed(first + #"\e[3"#)
                read(other)
                other.feed("1mafter")
            }
            expectSameAfterRead(model, plain, "read inside")
            expectSameScreen(model, plain, "read inside")
        }
    }

    /// Nothing scrolls into the held scrollback from the alternate screen (a full-screen
    /// program's while the screen is locked): its redraws are left out, and kept back, while
    /// it is held; a switch to the main screen before the erase keeps anything from being
    /// left out.
    @Test func onTheAlternateScreenRedrawsAreLeftOutWhileTheScrollbackIsHeld() {
        let flood = String(repeating: #"held line\r\n"#, count: 8)
        for (reads, leftOut) in [
            ([Self.redraw("a") + flood + Self.redraw("b"), Self.redraw("c")], true),
            ([Self.redraw("a") + #"\e[?1049l"# + flood + Self.redraw("b"), flood], false),
        ] {
            let model = ScreenModel(rows: 5, columns: 10)
            let plain = ScreenModel(rows: 5, columns: 10, fastPaths: .none)
            for other in [model, plain] {
                other.startHoldingScrollback(limit: 1 << 20)
                other.feed(#"\e[?1049h\e[2J"#)
            }
            for read in reads {
                model.feed(read)
                plain.feed(read)
                expectSameAfterRead(model, plain, read)
            }
            #expect((model.bytesSkippedBeforeRedraws > bytes(Self.redraw("a") + flood).count) == leftOut)
            #expect((model.heldScrollback.lines > 0) == !leftOut)
            let (unlock, plainUnlock) = (OutputBuffer(), OutputBuffer())
            model.appendHeldScrollbackAndRepaint(to: unlock)
            plain.appendHeldScrollbackAndRepaint(to: plainUnlock)
            #expect(unlock.bytes == plainUnlock.bytes)
        }
    }

    private func findRedraw(_ vectors: CellVectors, _ text: [UInt8], _ count: Int) -> (ccell_redraw, [Int]) {
        var fed = [Int](repeating: 0, count: 16)
        let redraw = vectors.findRedraw(text, count, &fed, 8)
        return (redraw, Array(fed.prefix(2 * redraw.fed)))
    }

    /// The last ESC [ 2 J, with SSE2 and AVX2 (where the CPU has it), at lengths that take
    /// their vector loops and the bytes left over.
    @Test func theLastFullEraseIsFound() {
        for vectors in [CellVectors.sse2, CellVectors.available] {
            for count in [8, 40, 100, 200] {
                for at in 0...(count - 4) {
                    var text = [UInt8](repeating: UInt8(ascii: "x"), count: count)
                    text.replaceSubrange(at..<(at + 4), with: bytes(#"\e[2J"#))
                    #expect(findRedraw(vectors, text, count).0.erase == at, "\(vectors) \(count) at \(at)")
                    // An earlier one is not the last; one cut by the end is none.
                    guard at >= 5 else { continue }
                    text.replaceSubrange(1..<5, with: bytes(#"\e[2J"#))
                    #expect(findRedraw(vectors, text, count).0.erase == at)
                    #expect(findRedraw(vectors, text, at + 3).0.erase == 1)
                }
                for other in [#"\e[2K"#, #"\e[1J"#, #"\e[?2J"#, #"\e[22J"#] {
                    var text = [UInt8](repeating: UInt8(ascii: "x"), count: count)
                    text.replaceSubrange(2..<(2 + bytes(other).count), with: bytes(other))
                    #expect(findRedraw(vectors, text, count).0.erase == 0, "\(other)")
                }
            }
        }
    }

    /// Where feeding resumes and what is fed alone, an item at every offset of a long read.
    @Test func theItemsToFeedAloneAreFoundAnywhere() {
        for vectors in [CellVectors.sse2, CellVectors.available] {
            for item in [#"\e[?25l"#, #"\e]0;title\a"#, #"\e(0"#] {
                let length = bytes(item).count
                for at in 0..<(150 - length) {
                    var text = [UInt8](repeating: UInt8(ascii: "x"), count: 150) + bytes(#"\e[m\e[H\e[2J"#)
                    text.replaceSubrange(at..<(at + length), with: bytes(item))
                    let (redraw, fed) = findRedraw(vectors, text, text.count)
                    let expected = (erase: text.count - 4, resume: text.count - 10, fed: [at, length])
                    #expect(
                        (redraw.erase, redraw.resume, fed) == (expected.erase, expected.resume, expected.fed),
                        "\(vectors) \(item) at \(at)")
                }
            }
        }
    }

    /// The AVX2 form classifies every byte value as the one-item-at-a-time form does (its
    /// parameter bytes, its C0 controls other than ESC, CR and LF, and its final bytes come
    /// from one nibble lookup): each byte alone in text, in a control sequence's parameters
    /// and as its final byte, at both halves of a block.
    @Test func bothFormsClassifyEveryByteAlike() {
        guard ccell_avx2_available() else { return #expect(!CellVectors.available.searchesWithAVX2, "no AVX2") }
        for value in UInt8.min...UInt8.max {
            for item in [[value], bytes(#"\e[1"#) + [value, UInt8(ascii: "m")], bytes(#"\e[3"#) + [value]] {
                for at in [3, 40] {
                    let stream =
                        [UInt8](repeating: UInt8(ascii: "x"), count: at) + item + bytes(#"\e[m\e[H\e[2Jafter"#)
                    let (one, oneFed) = findRedraw(.sse2, stream, stream.count)
                    let (all, allFed) = findRedraw(.avx2, stream, stream.count)
                    #expect(
                        (one.erase, one.resume, oneFed) == (all.erase, all.resume, allFed),
                        "byte \(value) in \(item) at \(at)")
                }
            }
        }
    }

    /// The AVX2 form finds what the one-item-at-a-time form does, in streams made of the
    /// pieces a redraw has and those that stop or limit the scan, at every alignment.
    @Test func bothFormsFindTheSameRedraw() {
        guard ccell_avx2_available() else { return #expect(!CellVectors.available.searchesWithAVX2, "no AVX2") }
        let pieces = [
            "text ", "more text that runs on ", #"\r\n"#, #"\e[m"#, #"\e[0m"#, #"\e[0;1m"#, #"\e[34m"#,
            #"\e[38;5;12m"#, #"\e[38:2::1:2:3m"#, #"\e[H"#, #"\e[12;40H"#, #"\e[3f"#, #"\e[2J"#, #"\e[K"#,
            #"\e[5C"#, #"\e[2P"#, #"\e[?25l"#, #"\e[?1049h"#, #"\e[>4;2m"#, #"\e]0;title\a"#, #"\e]2;t\e\\"#,
            #"\e(0"#, #"\e7"#, #"\e8"#, #"\eM"#, #"\ePq#\e\\"#, #"\ec"#, #"\e[s"#, #"\e[1N"#, #"\e[2 q"#,
            #"\e[1$p"#, #"\b"#, #"\t"#, #"\a"#, #"\x0e"#, #"\x18"#, #"\x7f"#, "é", #"\xe5"#, #"\e\x05"#,
            #"\e[\x05m"#, #"\e[1"#, #"\e"#, #"\e[4;\e[m"#,
        ].map(bytes)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % bound
        }
        var found = (resumed: 0, fedAlone: 0)
        for trial in 0..<3000 {
            var stream: [UInt8] = Array(repeating: UInt8(ascii: "x"), count: trial % 7)
            for _ in 0..<(1 + next(60)) {
                // Mostly what redraws are made of; now and then anything.
                stream += pieces[next(4) == 0 ? next(pieces.count) : next(14)]
            }
            stream += bytes(trial % 2 == 0 ? #"\e[m\e[H\e[2Jafter"# : #"\e[2Jafter"#)
            let (one, oneFed) = findRedraw(.sse2, stream, stream.count)
            let (all, allFed) = findRedraw(.avx2, stream, stream.count)
            let same = (one.erase, one.resume, oneFed) == (all.erase, all.resume, allFed)
            #expect(same, "\(one) vs \(all) in \(String(decoding: stream, as: UTF8.self).debugDescription)")
            if !same { break }
            if one.resume > 0 { found.resumed += 1 }
            if one.fed > 0 { found.fedAlone += 1 }
        }
        // The streams reach both outcomes often enough to compare them.
        #expect(found.resumed > 300 && found.fedAlone > 30, "\(found)")
    }
}

import CCellStores
import Testing

@testable import PTYKit

/// A program that redraws whole screens (ED 2) draws several in one read; the text before
/// the read's last ED 2 is not stored, only followed by the cursor (ScreenModel.applyRead).
/// Where that happens, that nothing else changes (against the same bytes fed one at a
/// time, where it cannot happen), and where it must not happen.
@Suite("ScreenModel not storing text a later full erase blanks")
struct ScreenErasedTextTests {
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

    @Test func theRedrawsBeforeTheLastInAReadAreNotStored() {
        // The first read shows the program redraws; in the second, all but the last redraw.
        let second = Self.redraw("b") + Self.redraw("c") + Self.redraw("d")
        let (model, expected) = fed([Self.redraw("a"), second])
        let lastErase = bytes(second).count - bytes(Self.redraw("d")).count + bytes(#"\e[27m\e[m\e[H"#).count
        #expect(model.bytesErasedBeforeRedraw == lastErase)
        #expect(model.lines == ["d top", "second lin", "e", "", "status d"])
        expectSameScreen(model, expected, "redraws in one read")
        #expect(model.snapshot() == expected.snapshot())
    }

    @Test func aReadIsLookedAtOnlyAfterOneThatErasedTheScreen() {
        let (model, _) = fed(["plain", Self.redraw("b") + Self.redraw("c")])
        #expect(model.bytesErasedBeforeRedraw == 0)
        model.feed(Self.redraw("d") + Self.redraw("e"))
        #expect(model.bytesErasedBeforeRedraw > 0)
    }

    /// Everything text does besides its cells, done where it is not stored: wrapping and
    /// scrolling, no autowrap, a wide character cut, a combining mark, REP, the cursor saved
    /// and restored across the erase, the erase's background, text left after the last.
    @Test func everySplitOfRedrawsGivesTheSameScreen() {
        let inputs = [
            #"\e[2Jfirst\e[2J0123456789abcdefghijklmnop\r\n\n\n\n\n\nwrapped\e[2Jlast"#,
            #"\e[2Jx\e[2;4r\e[?6h\e[2;1Hin region\r\n\nmore\e[?6l\e[r\e7ab\e[3b\e[2J\e8after"#,
            #"\e[2J\e[?7l0123456789abcdef\e[?7he\#u{301}漢字\rx\e[44m\e[2J\e[m\e[1;9Hedge"#,
            #"\e[2Jtail wraps\e[2J"#,
        ]
        for input in inputs {
            let model = screenEverySplit(bytes(input))
            let (reads, expected) = fed(["\u{1b}[2J", input])
            #expect(reads.bytesErasedBeforeRedraw > 0, "\(input)")
            expectSameScreen(reads, expected, input)
            #expect(reads.snapshot() == model.snapshot(), "\(input)")
        }
    }

    @Test func textShownAfterAScreenSwitchIsStored() {
        let switches = [
            #"\e[?1049h"#, #"\e[?1047h"#, #"\e[?47h"#, #"\e[?25;1049h"#, #"\e[?1049;25h"#,
        ]
        for switchOn in switches {
            // Printed on the main screen, erased on the alternate one, shown again.
            let (model, expected) = fed(["\u{1b}[2J", #"main text"# + switchOn + #"\e[2Jalt\e[?1049l"#])
            #expect(model.bytesErasedBeforeRedraw == 0, "\(switchOn)")
            #expect(model.lines.first == "main text", "\(switchOn)")
            expectSameScreen(model, expected, switchOn)
        }
    }

    @Test func anEraseInsideADeviceControlStringIsNotOne() {
        // tmux takes ESC [ 2 J inside a DCS as its payload: the text stays.
        let (model, expected) = fed(["\u{1b}[2J", #"text\ePqpayload\e[2Jmore\e\\"#])
        #expect(model.bytesErasedBeforeRedraw == 0)
        #expect(model.lines.first == "text")
        expectSameScreen(model, expected, "DCS")
    }

    @Test func textThatScrollsIntoHeldScrollbackIsStored() {
        let flood = String(repeating: #"held line\r\n"#, count: 8) + #"\e[2Jafter"#
        let (model, expected) = fed(["\u{1b}[2J", flood], holding: true)
        #expect(model.bytesErasedBeforeRedraw == 0)
        #expect(model.heldScrollback == expected.heldScrollback && model.heldScrollback.lines == 4)
        let (unlock, expectedUnlock) = (OutputBuffer(), OutputBuffer())
        model.appendHeldScrollbackAndRepaint(to: unlock)
        expected.appendHeldScrollbackAndRepaint(to: expectedUnlock)
        #expect(unlock.bytes == expectedUnlock.bytes)
    }

    @Test func textInTheRangeOnlyMovesTheCursor() {
        var state = ScreenState(rows: 3, columns: 10, vectors: .available)
        defer { state.deallocate() }
        let text = Array("0123456789abc".utf8)
        text.withUnsafeBufferPointer { run in
            state.erasedTextStart = UInt(bitPattern: run.baseAddress!)
            state.erasedTextLength = UInt(run.count)
            state.printASCII(run.baseAddress!, count: 4)
            #expect(state.x == 4 && state.grid.writtenCount(0) == 0)
            state.printASCII(run.baseAddress! + 4, count: 9)
            #expect((state.x, state.y, state.pendingWrap) == (3, 1, false))
            #expect(state.grid.writtenCount(0) == 0 && state.grid.writtenCount(1) == 0)
            // Out of the range, text is stored.
            state.erasedTextLength = 4
            state.printASCII(run.baseAddress! + 4, count: 2)
            #expect(state.grid.writtenCount(1) == 5)
        }
    }

    /// The last ESC [ 2 J in each form, with SSE2 and AVX2 (where the CPU has it) and the
    /// lengths that take their vector loops and the bytes left over.
    @Test func theLastFullEraseIsFound() {
        for vectors in [CellVectors.sse2, CellVectors.available] {
            for count in [8, 40, 100] {
                for at in 0...(count - 4) {
                    var text = [UInt8](repeating: UInt8(ascii: "x"), count: count)
                    text.replaceSubrange(at..<(at + 4), with: bytes(#"\e[2J"#))
                    #expect(vectors.textErasedBefore(text, count) == at, "\(vectors) \(count) at \(at)")
                    // An earlier one is not the last; one cut by the end is none.
                    guard at >= 5 else { continue }
                    text.replaceSubrange(1..<5, with: bytes(#"\e[2J"#))
                    #expect(vectors.textErasedBefore(text, count) == at)
                    #expect(vectors.textErasedBefore(text, at + 3) == 1)
                }
                for other in [#"\e[2K"#, #"\e[1J"#, #"\e[?2J"#, #"\e[22J"#] {
                    var text = [UInt8](repeating: UInt8(ascii: "x"), count: count)
                    text.replaceSubrange(2..<(2 + bytes(other).count), with: bytes(other))
                    #expect(vectors.textErasedBefore(text, count) == 0, "\(other)")
                }
            }
        }
    }

    @Test func nothingIsFoundAfterASwitchResetOrDeviceControlString() {
        let hazards = [
            #"\e[?1049h"#, #"\e[?1049l"#, #"\e[?1047h"#, #"\e[?47l"#, #"\e[?25;1049h"#, #"\e[?1049s"#, #"\ec"#,
            #"\ePq"#,
        ]
        let harmless = [#"\e[?25l"#, #"\e[?1004h"#, #"\e[?2004h"#, #"\e[?12;25h"#, #"\e[?470h"#, #"\e[25c"#, #"\e[P"#]
        for vectors in [CellVectors.sse2, CellVectors.available] {
            for (sequences, found) in [(hazards, false), (harmless, true)] {
                for sequence in sequences {
                    for at in [0, 5, 17, 40, 70] {
                        var text = [UInt8](repeating: UInt8(ascii: "x"), count: 100)
                        text.replaceSubrange(at..<(at + bytes(sequence).count), with: bytes(sequence))
                        text.replaceSubrange(90..<94, with: bytes(#"\e[2J"#))
                        let expected = found ? 90 : 0
                        #expect(vectors.textErasedBefore(text, 100) == expected, "\(vectors) \(sequence) at \(at)")
                    }
                }
            }
            // After the last erase, a switch does not matter.
            var text = [UInt8](repeating: UInt8(ascii: "x"), count: 100)
            text.replaceSubrange(20..<24, with: bytes(#"\e[2J"#))
            text.replaceSubrange(50..<58, with: bytes(#"\e[?1049h"#))
            #expect(vectors.textErasedBefore(text, 100) == 20)
        }
    }
}

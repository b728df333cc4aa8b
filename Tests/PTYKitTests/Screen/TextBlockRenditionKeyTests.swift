import Testing

@testable import PTYKit

/// The keys the walk over blocks (CScreenKernels' ccell_walk_blocks) looks SGRs up by, at
/// their edges: an SGR longer than a key (whose key BMI2's BZHI cuts short, to no bytes at
/// all for 32 from `[` to `m`) is never taken for one seen, and an SGR whose key would be
/// read past the end of the bytes is not looked up. Every kernel form the CPU has, against
/// the byte walk (TextBlockStepTests).
@Suite("Screen scroll-ahead: the SGR keys of the walk over blocks")
struct TextBlockRenditionKeyTests {
    /// Short lines after the SGR under test, so that the blocks would go on past it.
    static let lines = Array(String(repeating: "abc\r\n", count: 30).utf8)

    /// A background SGR of every length whose `m` is in the first block, first in the
    /// bytes or after an SGR learnt in the block before: the walk stops at its escape
    /// (no table slot holds a key cut short, nor the empty one that of 32 is).
    @Test(arguments: [0, 70])
    func aBackgroundOfAnyLengthIsNeverTaken(at start: Int) {
        let learnt = Array(String(repeating: "ab\u{1B}[0mc\r\n", count: 10).utf8)
        for length in 4...63 {
            // From `[` to `m`: `length` bytes, codes 0 and then 41 (a red background).
            let params = length == 4 ? "41" : String(repeating: "0", count: length - 5) + ";41"
            let rendition = Array("\u{1B}[\(params)m".utf8)
            let text = Array(learnt[..<start]) + rendition + Self.lines
            TextBlockStepTests.expectAsByteWalk(
                text, from: .init(x: 0, pendingWrap: false), columns: 80, newline: false, atLeast: 0,
                "background SGR \(length) bytes long at \(start)")
            let offset = TextBlockStepTests.walkBlocks(
                text, from: .init(x: 0, pendingWrap: false), columns: 80, newline: false
            ).offset
            #expect(offset == start, "background SGR \(length) bytes long at \(start): stopped at \(offset)")
        }
    }

    /// An SGR seen earlier, whose key's 8 bytes would run past the end of the bytes (its
    /// escape fewer than 9 bytes before it): the walk stops at its escape, every byte
    /// before it taken.
    @Test func anSGRWhoseKeyRunsPastTheEndIsNotLookedUp() {
        let seen = Array(String(repeating: "\u{1B}[0mab\r\n", count: 4).utf8)
        for escape in 56...60 {
            for end in 64...(escape + 8) {
                let text =
                    seen + Array(String(repeating: "x", count: escape - seen.count).utf8)
                    + Array("\u{1B}[0m".utf8) + Array(String(repeating: "y", count: end - escape - 4).utf8)
                let offset = TextBlockStepTests.walkBlocks(
                    text, from: .init(x: 0, pendingWrap: false), columns: 80, newline: false
                ).offset
                #expect(offset == escape, "escape at \(escape), \(end) bytes: stopped at \(offset)")
            }
        }
    }
}

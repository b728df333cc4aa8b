import Glibc
import Testing

@testable import PTYKit

@Suite("Character widths")
struct CharacterWidthTests {
    /// The one deliberate departure from glibc: unassigned code points (wcwidth -1) take a
    /// column, flagged uncertain, because a terminal with newer Unicode data shows them.
    private func isUnassigned(_ scalar: UInt32, glibc: Int32) -> Bool {
        glibc == -1 && CharacterWidth.value(scalar) == 1 | CharacterWidth.uncertainFlag
    }

    @Test func theTableAgreesWithGlibcOverEveryCodePoint() throws {
        // C.UTF-8 for this thread only: the width table of glibc 2.35+ (Unicode 14.0.0 in 2.36).
        let locale = try #require(newlocale(LC_CTYPE_MASK, "C.UTF-8", nil), "no C.UTF-8 locale")
        let previous = uselocale(locale)
        defer {
            uselocale(previous)
            freelocale(locale)
        }
        // The Glibc module does not declare wcwidth (it needs _XOPEN_SOURCE): look it up.
        let symbol = try #require(dlsym(dlopen(nil, RTLD_NOW), "wcwidth"), "no wcwidth")
        let wcwidth = unsafeBitCast(symbol, to: (@convention(c) (wchar_t) -> Int32).self)
        var differences: [String] = []
        var unassigned = 0
        for scalar in UInt32(0)..<0x11_0000 {
            let glibc = wcwidth(wchar_t(bitPattern: scalar))
            let ours = CharacterWidth.columns(scalar).map(Int32.init) ?? -1
            guard ours != glibc else { continue }
            if isUnassigned(scalar, glibc: glibc) {
                unassigned += 1
            } else if differences.count < 20 {
                differences.append("U+\(String(scalar, radix: 16)): glibc \(glibc), table \(ours)")
            }
        }
        #expect(differences.isEmpty, "\(differences)")
        #expect(unassigned > 800_000)  // the unassigned planes
    }

    @Test func widthsOfKnownCharacters() {
        #expect(CharacterWidth.columns(0x41) == 1)
        #expect(CharacterWidth.columns(0x6F22) == 2)  // 漢
        #expect(CharacterWidth.columns(0x301) == 0)  // combining acute
        #expect(CharacterWidth.columns(0x1F600) == 2)  // 😀
        #expect(CharacterWidth.columns(0x85) == nil)  // C1 control
        #expect(CharacterWidth.columns(0x2028) == nil)
        #expect(CharacterWidth.columns(0x11_0000) == nil)
        #expect(CharacterWidth.isUncertain(0x2605))  // ★, East Asian Ambiguous
        #expect(CharacterWidth.isUncertain(0x1F600))
        #expect(!CharacterWidth.isUncertain(0x6F22))
        #expect(!CharacterWidth.isUncertain(0x41))
        #expect(CharacterWidth.unicodeVersion == "14.0.0")
    }
}

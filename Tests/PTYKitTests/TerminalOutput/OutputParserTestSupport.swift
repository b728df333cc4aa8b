import PTYKit
import Testing

extension Observed {
    init(_ parser: OutputParser, sourceLocation: SourceLocation = #_sourceLocation) {
        let modes = parser.modes
        modesOn = Set(Self.privateModes.filter { modes.isSet(privateMode: $0) })
        applicationKeypad = modes.applicationKeypad
        kittyKeyboardFlags = modes.kittyKeyboardFlags
        modifyOtherKeys = modes.modifyOtherKeys
        titleWasSet = modes.titleWasSet
        windowNameWasSet = modes.windowNameWasSet
        atBoundary = parser.isAtBoundary
        #expect(modes.cursorVisible == modesOn.contains(25), sourceLocation: sourceLocation)
        #expect(modes.alternateScreen == !modesOn.isDisjoint(with: [47, 1047, 1049]), sourceLocation: sourceLocation)
    }

}

extension OutputParser {
    mutating func feed(_ bytes: some Collection<UInt8>) {
        Array(bytes).withUnsafeBytes { feed($0) }
    }

    mutating func feedUntilBoundary(_ bytes: some Collection<UInt8>) -> Int {
        Array(bytes).withUnsafeBytes { feedUntilBoundary($0) }
    }
}

/// Feeds `input` whole, then split in two at every position, then byte by byte, then with
/// `feedUntilBoundary` taking over at every position, expecting the same outcome each time.
/// Returns the parser fed whole.
func parseEverySplit(_ input: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> OutputParser {
    var whole = OutputParser()
    whole.feed(input)
    let expected = Observed(whole, sourceLocation: sourceLocation)

    for split in 0...input.count {
        var parser = OutputParser()
        parser.feed(input[..<split])
        parser.feed(input[split...])
        #expect(Observed(parser) == expected, "split at \(split)", sourceLocation: sourceLocation)
        #expect(parser.modes == whole.modes, "split at \(split)", sourceLocation: sourceLocation)

        var resumed = OutputParser()
        resumed.feed(input[..<split])
        let consumed = resumed.feedUntilBoundary(input[split...])
        #expect(consumed <= input.count - split, sourceLocation: sourceLocation)
        #expect(resumed.isAtBoundary || consumed == input.count - split, sourceLocation: sourceLocation)
        if consumed > 0 {
            var justBefore = OutputParser()
            justBefore.feed(input[..<(split + consumed - 1)])
            #expect(!justBefore.isAtBoundary, "boundary from \(split) is not the first", sourceLocation: sourceLocation)
        }
        resumed.feed(input[(split + consumed)...])
        #expect(resumed.modes == whole.modes, "boundary from \(split)", sourceLocation: sourceLocation)
        #expect(resumed.isAtBoundary == whole.isAtBoundary, "boundary from \(split)", sourceLocation: sourceLocation)
    }

    var byByte = OutputParser()
    for byte in input {
        byByte.feed([byte])
    }
    #expect(Observed(byByte) == expected, "byte by byte", sourceLocation: sourceLocation)
    #expect(byByte.modes == whole.modes, "byte by byte", sourceLocation: sourceLocation)
    return whole
}

import PTYKit
import Testing

/// Everything the parser exposes, for comparing outcomes.
struct Observed: Equatable, CustomStringConvertible {
    var modesOn: Set<Int> = [25]
    var applicationKeypad = false
    var kittyKeyboardFlags: UInt32 = 0
    var modifyOtherKeys = 0
    var titleWasSet = false
    var windowNameWasSet = false
    var atBoundary = true

    /// Every private mode a test may look at, tracked or not (66 and 1048 are not).
    static let privateModes = [
        1, 9, 25, 47, 66, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1015, 1016, 1047, 1048, 1049, 2004,
    ]

    init(
        modesOn: Set<Int> = [25], applicationKeypad: Bool = false, kittyKeyboardFlags: UInt32 = 0,
        modifyOtherKeys: Int = 0, titleWasSet: Bool = false, windowNameWasSet: Bool = false, atBoundary: Bool = true
    ) {
        self.modesOn = modesOn
        self.applicationKeypad = applicationKeypad
        self.kittyKeyboardFlags = kittyKeyboardFlags
        self.modifyOtherKeys = modifyOtherKeys
        self.titleWasSet = titleWasSet
        self.windowNameWasSet = windowNameWasSet
        self.atBoundary = atBoundary
    }

    init(_ stream: ModelStream, sourceLocation: SourceLocation = #_sourceLocation) {
        let modes = stream.modes
        modesOn = Set(Self.privateModes.filter { modes.isSet(privateMode: $0) })
        applicationKeypad = modes.applicationKeypad
        kittyKeyboardFlags = modes.kittyKeyboardFlags
        modifyOtherKeys = modes.modifyOtherKeys
        titleWasSet = modes.titleWasSet
        windowNameWasSet = modes.windowNameWasSet
        atBoundary = stream.isAtBoundary
        #expect(modes.cursorVisible == modesOn.contains(25), sourceLocation: sourceLocation)
        #expect(modes.alternateScreen == !modesOn.isDisjoint(with: [47, 1047, 1049]), sourceLocation: sourceLocation)
    }

    var description: String {
        "modes \(modesOn.sorted()) keypad \(applicationKeypad) kitty \(kittyKeyboardFlags) "
            + "modifyOtherKeys \(modifyOtherKeys) title \(titleWasSet) name \(windowNameWasSet) boundary \(atBoundary)"
    }
}

/// Feeds `input` whole, then split in two at every position, then byte by byte, then with
/// `feedUntilBoundary` taking over at every position, expecting the same modes and
/// boundary each time. Returns the stream fed whole.
func modesEverySplit(_ input: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> ModelStream {
    var whole = ModelStream()
    whole.feed(input)
    let expected = Observed(whole, sourceLocation: sourceLocation)

    for split in 0...input.count {
        var stream = ModelStream()
        stream.feed(input[..<split])
        stream.feed(input[split...])
        #expect(Observed(stream) == expected, "split at \(split)", sourceLocation: sourceLocation)
        #expect(stream.modes == whole.modes, "split at \(split)", sourceLocation: sourceLocation)

        var resumed = ModelStream()
        resumed.feed(input[..<split])
        let consumed = resumed.feedUntilBoundary(input[split...])
        #expect(consumed <= input.count - split, sourceLocation: sourceLocation)
        #expect(resumed.isAtBoundary || consumed == input.count - split, sourceLocation: sourceLocation)
        if consumed > 0 {
            var justBefore = ModelStream()
            justBefore.feed(input[..<(split + consumed - 1)])
            #expect(!justBefore.isAtBoundary, "boundary from \(split) is not the first", sourceLocation: sourceLocation)
        }
        resumed.feed(input[(split + consumed)...])
        #expect(resumed.modes == whole.modes, "boundary from \(split)", sourceLocation: sourceLocation)
        #expect(resumed.isAtBoundary == whole.isAtBoundary, "boundary from \(split)", sourceLocation: sourceLocation)
    }

    var byByte = ModelStream()
    for byte in input {
        byByte.feed([byte])
    }
    #expect(Observed(byByte) == expected, "byte by byte", sourceLocation: sourceLocation)
    #expect(byByte.modes == whole.modes, "byte by byte", sourceLocation: sourceLocation)
    return whole
}

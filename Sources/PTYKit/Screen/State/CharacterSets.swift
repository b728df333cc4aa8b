/// G0 and G1 (SCS designates them) and which of them is shown (SO and SI).
struct CharacterSets: Equatable {
    var g0 = TerminalCharacterSet.ascii
    var g1 = TerminalCharacterSet.ascii
    /// SO selected G1 (SI selects G0).
    var shifted = false

    /// The set characters are printed in.
    @inline(__always) var current: TerminalCharacterSet { shifted ? g1 : g0 }
}

extension ScreenModes {
    /// One screen's stack of kitty keyboard protocol flags
    /// (https://sw.kovidgoyal.net/kitty/keyboard-protocol/#progressive-enhancement), in
    /// fixed inline storage: a full stack evicts its oldest entry, as the protocol asks.
    struct KittyKeyboardStack: Equatable, Sendable {
        static let capacity = 16
        // Entries at and above `depth` are kept zero so that == compares stacks.
        private var entries = SIMD16<UInt32>()
        private(set) var depth = 0

        /// The flags in force: the top entry, 0 for an empty stack.
        var current: UInt32 { depth == 0 ? 0 : entries[depth - 1] }

        /// The pushes that build this stack on an empty one, oldest first.
        func appendPushes(to buffer: OutputBuffer) {
            for index in 0..<depth { buffer.append(.pushKeyboardFlags(entries[index])) }
        }

        /// `CSI > flags u`.
        mutating func push(_ flags: UInt32) {
            if depth == Self.capacity {
                for index in 1..<Self.capacity {
                    entries[index - 1] = entries[index]
                }
                depth -= 1
            }
            entries[depth] = flags
            depth += 1
        }

        /// `CSI < count u`; emptying the stack resets the flags.
        mutating func pop(count: Int) {
            for _ in 0..<min(count, depth) {
                depth -= 1
                entries[depth] = 0
            }
        }

        /// `CSI = flags ; mode u`: mode 1 replaces the top entry's flags, 2 sets the given
        /// bits, 3 clears them; other modes do nothing. An empty stack gets an entry first,
        /// as kitty does.
        mutating func change(_ flags: UInt32, mode: UInt32) {
            guard (1...3).contains(mode) else { return }
            if depth == 0 {
                depth = 1
            }
            let top = entries[depth - 1]
            entries[depth - 1] =
                switch mode {
                case 1: flags
                case 2: top | flags
                default: top & ~flags
                }
        }
    }
}

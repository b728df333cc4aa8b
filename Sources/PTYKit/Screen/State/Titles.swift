/// The title, icon name, window name (tmux's ESC k) and working directory (OSC 7) the
/// program set, the titles XTWINOPS pushed, and how many title sets the model has seen.
struct Titles {
    var title: [UInt8] = []
    var iconName: [UInt8]? = nil
    private(set) var stack: [[UInt8]] = []
    var windowName: [UInt8]? = nil
    var workingDirectory: [UInt8]? = nil
    /// OSC 0, 1 and 2 and APC strings seen (tmux takes APC as a pane title).
    var sets: UInt = 0

    static let stackLimit = 10

    /// XTWINOPS 22: the title pushed, the oldest dropped past the limit.
    mutating func push() {
        if stack.count == Self.stackLimit { stack.removeFirst() }
        stack.append(title)
    }

    /// XTWINOPS 23: the title pushed last back, if any.
    mutating func pop() {
        if let popped = stack.popLast() { title = popped }
    }
}

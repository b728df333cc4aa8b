import PTYKit

/// The countdown `--warn` shows in the window title before an idle lock: when it starts and
/// changes, what the terminal shows now, what it should show, and the bytes that take it
/// from one to the other. The command's title is saved on the terminal's title stack when the countdown
/// starts and popped when it ends, so the stack is balanced; nothing is drawn on the
/// command's screen. The bytes may only be written where the command's output is at a
/// boundary, never inside one of its escape sequences or characters.
struct WarningTitle {
    /// How long before the idle lock the countdown starts; zero: never.
    let length: Duration

    init(length: Duration = .zero) {
        self.length = length
    }

    /// The seconds the countdown should show; nil: the command's own title.
    private(set) var wanted: Int?
    /// The seconds the terminal shows; nil: nothing was pushed.
    private(set) var shown: Int?
    /// A title sequence the command wrote over the countdown: the pop brings back the
    /// title from before the countdown, so this one is written again after it.
    private var commandTitle: [UInt8]?

    /// Whether the terminal shows the countdown, or will once the bytes are written.
    var isShowing: Bool { shown != nil }

    /// Whether `update` has bytes to give: asked for every read of output, which almost
    /// always has nothing to change.
    var isPending: Bool { commandTitle != nil || shown != wanted }

    /// When the countdown starts before an idle lock due at `lockAt`, or nil without one. It
    /// never lasts longer than `timeout`: right after activity it would have nothing to warn of.
    func start(lockAt: MonotonicInstant?, timeout: Duration) -> MonotonicInstant? {
        let length = min(self.length, timeout)
        guard length > .zero, let lockAt else { return nil }
        return lockAt - length
    }

    /// Before the countdown, its start; during it, the next change (the only time the relay
    /// wakes each second); without one, nil.
    func deadline(lockAt: MonotonicInstant?, timeout: Duration, now: MonotonicInstant) -> MonotonicInstant? {
        guard let start = start(lockAt: lockAt, timeout: timeout), let lockAt else { return nil }
        guard wanted != nil else { return start }
        return lockAt - .seconds(Self.secondsLeft(until: lockAt, at: now) - 1)
    }

    /// The countdown: whole seconds left, rounded up.
    static func secondsLeft(until lockAt: MonotonicInstant, at now: MonotonicInstant) -> Int {
        max((lockAt - now).secondsRoundedUp, 1)
    }

    mutating func show(seconds: Int) {
        wanted = seconds
    }

    mutating func hide() {
        wanted = nil
    }

    /// The command set its title to `title` while the countdown shows: the pop brings back
    /// the one from before, so this one is written again after it.
    mutating func commandDidSetTitle(_ title: [UInt8]) {
        guard shown != nil else { return }
        let sequence = OutputBuffer(capacity: title.count + 8)
        sequence.append(.setTitle(title))
        commandTitle = sequence.bytes
    }

    /// What makes the terminal show `wanted`: a push, the countdown and one BEL at the
    /// start; the new countdown each second; the pop, and the command's latest title,
    /// at the end.
    mutating func update() -> [UInt8] {
        guard isPending else { return [] }
        let bytes = OutputBuffer(capacity: 128)
        if let retitle = commandTitle {
            // Pop the stale title, show the command's latest, and push that one instead.
            commandTitle = nil
            shown = wanted
            bytes.append(.popTitle)
            bytes.append(contentsOf: retitle)
            if let seconds = wanted {
                bytes.append(.pushTitle)
                bytes.append(Self.title(seconds))
            }
            return bytes.bytes
        }
        defer { shown = wanted }
        switch (shown, wanted) {
        case (nil, let seconds?):
            bytes.append(.pushTitle)
            bytes.append(Self.title(seconds))
            bytes.append(.bell)
        case (let old?, let seconds?) where old != seconds:
            bytes.append(Self.title(seconds))
        case (_?, nil):
            bytes.append(.popTitle)
        default:
            break
        }
        return bytes.bytes
    }

    static func title(_ seconds: Int) -> TerminalControl {
        .setTitle(Array("idlewrap: locking in \(seconds) s".utf8))
    }
}

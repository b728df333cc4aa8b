import PTYKit

/// The terminal a session is shown on, as the command's screen and the lock write to it.
/// A write that fails marks it gone, and nothing more is written; the session acts on that
/// once per round (`Session.relayWillPoll`), not inside whatever was writing, which goes
/// on as if the bytes had been shown.
final class SessionDisplay {
    private let relay: Relay
    private(set) var isGone = false

    init(_ relay: Relay) {
        self.relay = relay
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        guard !isGone else { return }
        do {
            try relay.sendToTerminal(bytes)
        } catch {
            isGone = true
        }
    }

    /// The terminal hung up, or cannot be put back in raw mode.
    func markGone() {
        isGone = true
    }

    /// Another terminal took the gone one's place (`idlewrap --attach`).
    func replaced() {
        isGone = false
    }

    /// The size the command's screen is modelled and the lock screen drawn at: on a
    /// terminal that reports none, 24x80 (it showed nothing at 0x0, not even the prompt).
    var windowSize: WindowSize {
        ((try? WindowSize.of(relay.terminalInput)) ?? WindowSize(rows: 0, columns: 0)).drawingSize
    }
}

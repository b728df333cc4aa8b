import Glibc

/// Which terminal a session is on, if any: the rules of detaching and attaching
/// (`--detach`, `--attach`), apart from the descriptors they move, which `Session` moves.
/// A detached session is a locked session with no terminal; it gets one back only from
/// its own user, and only locked.
struct TerminalTenure: Equatable {
    enum State: Equatable {
        /// On the terminal idlewrap started on.
        case original
        /// On no terminal since `since` (seconds since the epoch, for --list).
        case detached(since: Int)
        /// On a terminal that `idlewrap --attach` handed over.
        case attached
    }

    let policy: DetachWhen
    /// The session's user: the only one who may attach.
    let owner: uid_t
    private(set) var state = State.original

    init(policy: DetachWhen, owner: uid_t) {
        self.policy = policy
        self.owner = owner
    }

    var detachedSince: Int? {
        if case .detached(let since) = state { since } else { nil }
    }

    /// Whether a SIGHUP says that the session's terminal went away: only while the session
    /// is on the terminal idlewrap started on, whose hang-up the guardian passes on. An
    /// attached terminal's end is its client's; the first terminal's hang-up after a
    /// `--take` (its connection dropped later) is no longer the session's.
    var hangUpIsTheTerminals: Bool { state == .original }

    /// What to do when the terminal went away (hung up, EIO, SIGHUP, its client gone).
    enum Departure: Equatable {
        /// `--detach never`: end the session as a hang-up does.
        case hangUp
        /// Lock and go on without a terminal; `first` when the session leaves the
        /// terminal's session (setsid) now.
        case detach(first: Bool)
        /// Detached already.
        case nothing
    }

    mutating func terminalWentAway(at now: Int) -> Departure {
        switch state {
        case .detached:
            return .nothing
        case .original, .attached:
            guard policy == .hangup else { return .hangUp }
            let first = state == .original
            state = .detached(since: now)
            return .detach(first: first)
        }
    }

    /// What an attach request gets.
    enum Verdict: Equatable {
        /// Refused, for this reason (said to the client, and logged).
        case refused(String)
        /// Serve the new terminal, locked.
        case attach
        /// Serve the new terminal, locked, once the one the session has now is told and
        /// locked; `original`: that is the terminal idlewrap started on.
        case takeOver(original: Bool)
    }

    /// Why `peer` may not attach at all, whatever the session's state (which it is not
    /// told), or nil. Root may lock another user's sessions, never take one over.
    func refusal(of peer: uid_t) -> String? {
        peer == owner ? nil : "uid \(peer) is not the session's user"
    }

    /// `peer` asks to attach; `take`: even while the session has a terminal. A new
    /// terminal is served only once the lock is on (`locked`): a lock still waiting for
    /// the command's output to reach a boundary would pass typed bytes on.
    mutating func attach(peer: uid_t, take: Bool, locked: Bool) -> Verdict {
        if let refusal = refusal(of: peer) { return .refused(refusal) }
        guard policy == .hangup else { return .refused("the session does not detach (--detach never)") }
        let original = state == .original
        if detachedSince == nil && !take { return .refused("the session has a terminal (--take takes it)") }
        guard locked else { return .refused("the session is locking; try again") }
        guard detachedSince == nil else {
            state = .attached
            return .attach
        }
        state = .attached
        return .takeOver(original: original)
    }
}

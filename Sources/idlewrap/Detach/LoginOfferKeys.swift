/// The keys typed at the login offer (`LoginOffer`), read in raw mode, one read at a time:
/// a digit from 1 to the number of sessions shown picks that session; `n`, `N`, Enter or ^C
/// a new shell (what a login did before there were detached sessions, so the key a user
/// presses to get out of a menu they did not expect). Everything else is ignored, escape
/// sequences whole: F5 is `ESC [ 1 5 ~` and must not pick session 1, and a terminal's
/// reply (`ESC ] ... BEL`) is no key at all.
struct LoginOfferKeys: Equatable {
    enum Choice: Equatable {
        /// The session at this place in the offer's list, from 0.
        case session(Int)
        case newShell
    }

    enum State: Equatable {
        case ready
        /// After ESC.
        case escape
        /// In `ESC [` ... until its final byte.
        case controlSequence
        /// After `ESC O` (SS3): one more byte.
        case singleShift
        /// In `ESC ]`, `ESC P`, `ESC _` or `ESC ^` ... until BEL or ST.
        case controlString
        /// ESC inside a control string: ST if `\` follows.
        case controlStringEscape
        case chosen(Choice)
    }

    /// How many sessions the offer shows: 1 to 9, one key each.
    let sessions: Int
    private(set) var state = State.ready

    init(sessions: Int) {
        precondition((1...9).contains(sessions), "one digit per session")
        self.sessions = sessions
    }

    /// Feeds bytes read; the choice once a key makes it. `LoginOffer` reads one byte at a
    /// time, so that what is typed after the key stays for the shell or the lock screen.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> Choice? {
        for byte in bytes {
            state = next(after: state, byte)
            if case .chosen(let choice) = state { return choice }
        }
        return nil
    }

    private func next(after state: State, _ byte: UInt8) -> State {
        let escape: UInt8 = 0x1B
        switch state {
        case .ready:
            switch byte {
            case escape: return .escape
            case UInt8(ascii: "1")...UInt8(ascii: "9") where Int(byte - UInt8(ascii: "1")) < sessions:
                return .chosen(.session(Int(byte - UInt8(ascii: "1"))))
            case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), 0x03:
                return .chosen(.newShell)
            default: return .ready
            }
        case .escape:
            switch byte {
            case UInt8(ascii: "["): return .controlSequence
            case UInt8(ascii: "O"): return .singleShift
            case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"): return .controlString
            case escape: return .escape
            // Alt and a key: not a key of the offer's.
            default: return .ready
            }
        case .controlSequence:
            switch byte {
            case 0x40...0x7E: return .ready
            case escape: return .escape
            default: return .controlSequence
            }
        case .singleShift:
            return .ready
        case .controlString:
            switch byte {
            case 0x07: return .ready
            case escape: return .controlStringEscape
            default: return .controlString
            }
        case .controlStringEscape:
            return byte == UInt8(ascii: "\\") ? .ready : .controlString
        case .chosen:
            return state
        }
    }
}

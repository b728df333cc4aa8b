import Glibc
import Testing

@testable import idlewrap

@Suite struct LoginOfferTests {
    static func session(_ pid: Int32, _ command: String, detachedSince: Int? = 1_000) -> SessionStatus {
        SessionStatus(
            pid: pid, terminal: "/dev/pts/1", user: "alice", command: command, idleSeconds: 0, locked: true,
            locksInSeconds: nil, detachedSince: detachedSince)
    }

    /// Each read fed in turn; the choice and the state after them.
    static func keys(_ reads: [String], sessions: Int = 3) -> (LoginOfferKeys.Choice?, LoginOfferKeys.State) {
        var keys = LoginOfferKeys(sessions: sessions)
        for read in reads {
            if let choice = keys.feed(Array(read.utf8)) { return (choice, keys.state) }
        }
        return (nil, keys.state)
    }

    @Test func aDigitPicksItsSessionAndOnlyWhenThereIsOne() {
        #expect(Self.keys(["1"]).0 == .session(0))
        #expect(Self.keys(["3"]).0 == .session(2))
        #expect(Self.keys(["4", "0", "x"]) == (nil, .ready))
        #expect(Self.keys(["4", "2"]).0 == .session(1))
    }

    @Test func nEnterOrControlCStartANewShell() {
        for key in ["n", "N", "\r", "\n", "\u{3}"] {
            #expect(Self.keys([key]) == (.newShell, .chosen(.newShell)), "\(key.debugDescription)")
        }
        // The first key that chooses decides; what was typed after it is not the offer's.
        #expect(Self.keys(["n1"]).0 == .newShell)
        #expect(Self.keys(["2n"]).0 == .session(1))
    }

    @Test func escapeSequencesAreSkippedWholeWhereverTheReadsSplitThem() {
        // F5, Insert, an arrow in both spellings, Alt-1, a colour reply and a title report.
        let sequences = [
            "\u{1b}[15~", "\u{1b}[2~", "\u{1b}[1;5A", "\u{1b}OA", "\u{1b}1",
            "\u{1b}]11;rgb:1111/2222/3333\u{7}", "\u{1b}]l1\u{1b}\\", "\u{1b}P1$r0m\u{1b}\\",
        ]
        for sequence in sequences {
            let bytes = Array(sequence.utf8)
            for split in 0...bytes.count {
                let reads = [
                    String(decoding: bytes[..<split], as: UTF8.self), String(decoding: bytes[split...], as: UTF8.self),
                ]
                #expect(Self.keys(reads) == (nil, .ready), "\(sequence.debugDescription) split at \(split)")
                #expect(Self.keys(reads + ["2"]).0 == .session(1), "\(sequence.debugDescription) split at \(split)")
            }
        }
    }

    @Test func aKeyTypedWhileInASequenceIsPartOfIt() {
        #expect(Self.keys(["\u{1b}["]) == (nil, .controlSequence))
        #expect(Self.keys(["\u{1b}]", "1n"]) == (nil, .controlString))
        #expect(Self.keys(["\u{1b}\u{1b}[1~", "1"]).0 == .session(0))
    }

    @Test func theSettingAndTheSessionsDecide() {
        let one = [Self.session(10, "vim")]
        let two = one + [Self.session(11, "bash")]
        #expect(LoginOffer.decide(.ask, detached: []) == .newShell)
        #expect(LoginOffer.decide(.always, detached: []) == .newShell)
        #expect(LoginOffer.decide(.never, detached: two) == .newShell)
        #expect(LoginOffer.decide(.ask, detached: one) == .ask(one))
        #expect(LoginOffer.decide(.always, detached: one) == .attach(one[0]))
        #expect(LoginOffer.decide(.always, detached: two) == .ask(two))
        let many = (1...12).map { Self.session(Int32($0), "sh") }
        #expect(LoginOffer.decide(.ask, detached: many) == .ask(Array(many.prefix(9))))
    }

    @Test func theMenuNamesEachSessionsCommandAndSinceWhen() {
        let now = 1_000 + 3 * 3600 + 5 * 60
        let menu = LoginOffer.menu([Self.session(10, "vim"), Self.session(11, "bash")], of: 2, now: time_t(now))
        let when = LocalTime.text(1_000, format: "%Y-%m-%d %H:%M")
        #expect(
            menu == """
                idlewrap: you have 2 detached sessions:\r
                  1  vim, detached since \(when) (3h05m), pid 10\r
                  2  bash, detached since \(when) (3h05m), pid 11\r
                Press 1-2 to take one back (after its password), or n or Enter for a new shell:\u{20}
                """)
        let more = LoginOffer.menu([Self.session(10, "vim")], of: 11, now: time_t(now))
        #expect(more.contains("  (and 10 more: idlewrap --list, idlewrap --attach PID)\r\nPress 1 to take"))
        #expect(more.hasPrefix("idlewrap: you have 11 detached sessions:\r\n"))
    }
}

import PTYKit
import Testing

@testable import idlewrap

/// The answer to the start-up DSR 6 against a clock the test moves by hand.
struct StartPositionQueryTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    func at(_ milliseconds: Int) -> MonotonicInstant {
        start + .milliseconds(milliseconds)
    }

    func take(_ query: inout StartPositionQuery, _ text: String, at milliseconds: Int) -> StartPositionQuery.Outcome {
        Array(text.utf8).withUnsafeBytes { query.take($0, at: at(milliseconds)) }
    }

    @Test func theAnswerInTimeStartsTheScreenThereAndTypingAroundItGoesOn() {
        var query = StartPositionQuery(askedAt: start)
        // Nothing to wake for: an idle session stays asleep.
        #expect(query.deadline == nil)
        let outcome = take(&query, "ls\u{1B}[15;1R -l\r", at: 20)
        #expect(String(decoding: outcome.keys, as: UTF8.self) == "ls -l\r")
        #expect(outcome.position.map { [$0.row, $0.column] } == [14, 0])
        #expect(!outcome.givesUp)
        #expect(query.isOver)
        #expect(query.deadline == nil)
    }

    @Test func aHeldStartGoesOnAsAKeyAfterTheKeyPatience() {
        var query = StartPositionQuery(askedAt: start)
        #expect(take(&query, "\u{1B}", at: 10).keys.isEmpty)
        #expect(query.deadline == at(60))
        let outcome = query.expire(at: at(60))
        #expect(outcome.keys == [0x1B])
        #expect(!outcome.givesUp)
        #expect(query.deadline == nil)
    }

    /// Once the held bytes are ESC [ and a digit, the rest of the answer may come later
    /// than a key would (a busy machine, a slow link): held up to the split-reply patience.
    @Test func anAnswerCutAfterItsFirstDigitWaitsLongerThanAKey() {
        var query = StartPositionQuery(askedAt: start)
        #expect(take(&query, "before-\u{1B}[1", at: 10).keys == Array("before-".utf8))
        #expect(query.deadline == at(510))
        #expect(query.expire(at: at(200)).keys.isEmpty)
        let outcome = take(&query, "2;1Rafter", at: 300)
        #expect(String(decoding: outcome.keys, as: UTF8.self) == "after")
        #expect(outcome.position.map { [$0.row, $0.column] } == [11, 0])
        // Never completed, it goes on as keys.
        var cut = StartPositionQuery(askedAt: start)
        _ = take(&cut, "\u{1B}[1", at: 10)
        #expect(cut.expire(at: at(509)).keys.isEmpty)
        #expect(cut.expire(at: at(510)).keys == Array("\u{1B}[1".utf8))
        // ESC [ alone is held as briefly as a lone Escape.
        var bracket = StartPositionQuery(askedAt: start)
        _ = take(&bracket, "\u{1B}[", at: 10)
        #expect(bracket.deadline == at(60))
    }

    @Test func noAnswerTheScreenGivesUpAndALateAnswerIsStillTakenOut() {
        var query = StartPositionQuery(askedAt: start)
        let gaveUp = query.expire(at: at(1000))
        #expect(gaveUp.givesUp)
        #expect(!query.isOver)
        #expect(query.deadline == nil)
        let late = take(&query, "a\u{1B}[3;1Rb", at: 3000)
        #expect(String(decoding: late.keys, as: UTF8.self) == "ab")
        #expect(late.position == nil)
        #expect(!late.givesUp)
        #expect(query.isOver)
    }

    @Test func pastTheLateWindowAReportIsAKey() {
        var query = StartPositionQuery(askedAt: start)
        _ = query.expire(at: at(1000))
        let outcome = take(&query, "\u{1B}[3;1R", at: 10_000)
        #expect(String(decoding: outcome.keys, as: UTF8.self) == "\u{1B}[3;1R")
        #expect(query.isOver)
    }

    @Test func anAnswerAfterThePatienceDoesNotMoveTheScreen() {
        var query = StartPositionQuery(askedAt: start)
        let outcome = take(&query, "\u{1B}[3;1R", at: 1500)
        #expect(outcome.position == nil)
        #expect(outcome.givesUp)
        #expect(query.isOver)
    }
}

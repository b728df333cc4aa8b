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

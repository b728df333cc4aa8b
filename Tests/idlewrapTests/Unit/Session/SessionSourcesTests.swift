import Glibc
import PTYKit
import Testing

@testable import idlewrap

/// The poller's view of a session's sources: what it watches, and until when it sleeps.
@Suite struct SessionSourcesTests {
    final class Poller: SourcePoller {
        var watched: [FileDescriptor: Int16] = [:]
        var deadline: MonotonicInstant?
        func watch(_ descriptor: FileDescriptor, events: Int16) { watched[descriptor] = events }
        func unwatch(_ descriptor: FileDescriptor) { watched[descriptor] = nil }
    }

    final class Source: SessionSource {
        let name: String
        var descriptor: FileDescriptor?
        var events = Int16(POLLIN)
        var deadline: MonotonicInstant?
        var isFinished = false
        var log: [String] = []
        var onDeadline: () -> Void = {}

        init(_ name: String, descriptor: Int32? = nil, deadline: MonotonicInstant? = nil) {
            self.name = name
            self.descriptor = descriptor.map(FileDescriptor.init(rawValue:))
            self.deadline = deadline
        }

        func ready(at now: MonotonicInstant) { log.append("ready") }
        func deadlinePassed(at now: MonotonicInstant) {
            log.append("deadline")
            onDeadline()
        }
        func dropped() { log.append("dropped") }
    }

    let now = MonotonicInstant(nanoseconds: 5_000_000_000)

    @Test func thePollerSleepsUntilTheEarliestDeadlineOfAll() {
        let poller = Poller()
        let sources = SessionSources(polledBy: poller)
        let late = Source("late", deadline: now + .seconds(30))
        let none = Source("none")
        let early = Source("early", descriptor: 9, deadline: now + .seconds(2))
        for source in [late, none, early] { sources.add(source) }
        sources.update()
        #expect(poller.deadline == now + .seconds(2))
        early.deadline = nil
        sources.update()
        #expect(poller.deadline == now + .seconds(30))
        late.deadline = nil
        sources.update()
        #expect(poller.deadline == nil, "no deadline: no wake-up at all")
    }

    @Test func thePollerWatchesWhatTheSourcesWantWithTheirEvents() {
        let poller = Poller()
        let sources = SessionSources(polledBy: poller)
        let bus = Source("bus", descriptor: 7)
        let socket = Source("socket", descriptor: 8)
        sources.add(bus)
        sources.add(socket)
        sources.update()
        #expect(
            poller.watched == [FileDescriptor(rawValue: 7): Int16(POLLIN), FileDescriptor(rawValue: 8): Int16(POLLIN)])
        bus.events = Int16(POLLIN | POLLOUT)
        socket.descriptor = nil  // paused
        sources.update()
        #expect(poller.watched == [FileDescriptor(rawValue: 7): Int16(POLLIN | POLLOUT)])
        socket.descriptor = FileDescriptor(rawValue: 8)
        sources.update()
        #expect(poller.watched.count == 2)
    }

    @Test func aFinishedSourceIsUnwatchedThenDropped() {
        let poller = Poller()
        let sources = SessionSources(polledBy: poller)
        let connection = Source("connection", descriptor: 11, deadline: now + .seconds(2))
        sources.add(connection)
        sources.update()
        connection.isFinished = true
        sources.update()
        #expect(poller.watched.isEmpty)
        #expect(poller.deadline == nil)
        #expect(connection.log == ["dropped"])
        #expect(sources.sources.isEmpty)
        #expect(!sources.ready(FileDescriptor(rawValue: 11), at: now))
    }

    @Test func readinessGoesToTheSourceOfTheDescriptor() {
        let poller = Poller()
        let sources = SessionSources(polledBy: poller)
        let first = Source("first", descriptor: 3)
        let second = Source("second", descriptor: 4)
        sources.add(first)
        sources.add(second)
        sources.update()
        #expect(sources.ready(FileDescriptor(rawValue: 4), at: now))
        #expect(first.log.isEmpty)
        #expect(second.log == ["ready"])
    }

    @Test func dueSourcesAreAskedInOrder() {
        let poller = Poller()
        let sources = SessionSources(polledBy: poller)
        var order: [String] = []
        let ending = Source("ending", deadline: now)
        let lock = Source("lock", deadline: now - .seconds(1))
        let later = Source("later", deadline: now + .seconds(1))
        ending.onDeadline = { order.append("ending") }
        lock.onDeadline = { order.append("lock") }
        for source in [ending, lock, later] { sources.add(source) }
        sources.update()
        sources.deadlinePassed(at: now)
        #expect(order == ["ending", "lock"])
        #expect(later.log.isEmpty)
        #expect(poller.deadline == now - .seconds(1), "until the sources move their deadlines")
    }

    /// The warning's next second is computed from the clock: once reached, it is a
    /// second later. Due it was, and due it stays.
    @Test func aDeadlineThatMovesOnOnceReachedIsStillDue() {
        let poller = Poller()
        let sources = SessionSources(polledBy: poller)
        let countdown = Source("countdown", deadline: now)
        sources.add(countdown)
        sources.update()
        countdown.deadline = now + .seconds(1)
        sources.deadlinePassed(at: now)
        #expect(countdown.log == ["deadline"])
        // The next round's update.
        sources.update()
        #expect(poller.deadline == now + .seconds(1))
    }

    @Test func removingAllUnwatchesAndDropsTheLastAddedFirst() {
        let poller = Poller()
        let sources = SessionSources(polledBy: poller)
        var order: [String] = []
        final class Recorder: SessionSource {
            let name: String
            let record: (String) -> Void
            init(_ name: String, _ record: @escaping (String) -> Void) {
                self.name = name
                self.record = record
            }
            var descriptor: FileDescriptor? { FileDescriptor(rawValue: 20 + Int32(name.count)) }
            func dropped() { record(name) }
        }
        sources.add(Recorder("listener") { order.append($0) })
        sources.add(Recorder("connection") { order.append($0) })
        sources.update()
        #expect(poller.watched.count == 2)
        sources.removeAll()
        #expect(poller.watched.isEmpty)
        #expect(order == ["connection", "listener"])
    }
}

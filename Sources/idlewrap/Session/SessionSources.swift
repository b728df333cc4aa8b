import PTYKit

/// What polls for a session's sources: the relay.
protocol SourcePoller: AnyObject {
    func watch(_ descriptor: FileDescriptor, events: Int16)
    func unwatch(_ descriptor: FileDescriptor)
    /// When to wake without any event; nil for never.
    var deadline: MonotonicInstant? { get set }
}

extension Relay: SourcePoller {}

/// A session's sources, in the order they were added, and the poller's view of them:
/// once a round, before the poll, `update` drops the finished ones, has the poller watch what the
/// others want watched, and sets its deadline to the earliest of theirs. A source's
/// deadline is taken as it was then: one computed from the clock (the warning's next
/// second) may move on as soon as it is reached, and is due all the same.
final class SessionSources {
    private unowned let poller: SourcePoller
    private(set) var sources: [SessionSource] = []
    /// Each source's deadline at the last update, what the poller sleeps until.
    private var deadlines: [MonotonicInstant?] = []
    /// The descriptors the poller watches for the sources, and a spare for the next
    /// update, so that an update allocates nothing.
    private var watched: [FileDescriptor] = []
    private var stillWatched: [FileDescriptor] = []

    init(polledBy poller: SourcePoller) {
        self.poller = poller
        // Room for the usual few (the ending, the lock, logind, the control socket and
        // a connection or two) from the start.
        watched.reserveCapacity(8)
        stillWatched.reserveCapacity(8)
        deadlines.reserveCapacity(8)
    }

    func add(_ source: SessionSource) {
        sources.append(source)
    }

    func update() {
        let finished = sources.filter(\.isFinished)
        if !finished.isEmpty { sources.removeAll(where: \.isFinished) }
        stillWatched.removeAll(keepingCapacity: true)
        for source in sources {
            guard let descriptor = source.descriptor else { continue }
            poller.watch(descriptor, events: source.events)
            stillWatched.append(descriptor)
        }
        for descriptor in watched where !stillWatched.contains(descriptor) { poller.unwatch(descriptor) }
        swap(&watched, &stillWatched)
        for source in finished { source.dropped() }
        deadlines.removeAll(keepingCapacity: true)
        for source in sources { deadlines.append(source.deadline) }
        poller.deadline = MonotonicInstant.earliest(of: deadlines)
    }

    /// Every source whose deadline at the last update has come, in the order they were
    /// added (the session adds its ending before the lock, so a hang-up comes first).
    func deadlinePassed(at now: MonotonicInstant) {
        for (source, due) in zip(sources, deadlines) {
            if let due, due <= now { source.deadlinePassed(at: now) }
        }
    }

    /// The source watching `descriptor` is ready; false when none is.
    func ready(_ descriptor: FileDescriptor, at now: MonotonicInstant) -> Bool {
        guard let source = sources.first(where: { $0.descriptor == descriptor }) else { return false }
        source.ready(at: now)
        return true
    }

    /// Stops watching and drops every source, the last added first.
    func removeAll() {
        for descriptor in watched { poller.unwatch(descriptor) }
        watched = []
        for source in sources.reversed() { source.dropped() }
        sources = []
        deadlines = []
        poller.deadline = nil
    }
}

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
/// after every event `update` drops the finished ones, has the poller watch what the
/// others want watched, and sets its deadline to the earliest of theirs.
final class SessionSources {
    private unowned let poller: SourcePoller
    private(set) var sources: [SessionSource] = []
    /// The descriptors the poller watches for the sources, and a spare for the next
    /// update, so that an update allocates nothing.
    private var watched: [FileDescriptor] = []
    private var stillWatched: [FileDescriptor] = []

    init(polledBy poller: SourcePoller) {
        self.poller = poller
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
        poller.deadline = MonotonicInstant.earliest(of: sources.lazy.map(\.deadline))
    }

    /// Every source whose deadline has come, in order; one may move another's, so each
    /// is asked only when its turn comes.
    func deadlinePassed(at now: MonotonicInstant) {
        for source in sources {
            if let due = source.deadline, due <= now { source.deadlinePassed(at: now) }
        }
        update()
    }

    /// The source watching `descriptor` is ready; false when none is.
    func ready(_ descriptor: FileDescriptor, at now: MonotonicInstant) -> Bool {
        guard let source = sources.first(where: { $0.descriptor == descriptor }) else { return false }
        source.ready(at: now)
        update()
        return true
    }

    /// Stops watching and drops every source, the last added first.
    func removeAll() {
        for descriptor in watched { poller.unwatch(descriptor) }
        watched = []
        for source in sources.reversed() { source.dropped() }
        sources = []
        poller.deadline = nil
    }
}

import Glibc

/// A plain POSIX thread, so the test needs nothing but Glibc and PTYKit.
final class Thread {
    private var thread = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        pthread_create(
            &thread, nil,
            { context in
                let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
                box.body()
                return nil
            }, box)
    }

    func join() {
        pthread_join(thread, nil)
    }

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}

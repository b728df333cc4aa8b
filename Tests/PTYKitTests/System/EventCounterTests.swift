import Glibc
import PTYKit
import Testing

@Suite struct EventCounterTests {
    func isReadable(_ descriptor: FileDescriptor) throws -> Bool {
        var slot = [pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        return try slot.withUnsafeMutableBufferPointer { try poll($0, timeout: 0) } == 1
    }

    @Test func readableFromSignalUntilReset() throws {
        let counter = try EventCounter()
        #expect(try !isReadable(counter.descriptor))
        #expect(counter.reset() == 0)
        counter.signal()
        counter.signal()
        #expect(try isReadable(counter.descriptor))
        #expect(counter.reset() == 2)
        #expect(try !isReadable(counter.descriptor))
    }

    @Test func signalFromAnotherThreadWakesAPoll() throws {
        let counter = try EventCounter()
        // A thread of its own: a Task may wait for a cooperative thread
        // that blocking polls in other tests hold for as long as this one's.
        var signaller = pthread_t()
        let started = pthread_create(&signaller, nil, { context in
            Unmanaged<EventCounter>.fromOpaque(context!).takeRetainedValue().signal()
            return nil
        }, Unmanaged.passRetained(counter).toOpaque())
        try #require(started == 0, "pthread_create failed: \(started)")
        var slot = [pollfd(fd: counter.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        let ready = try slot.withUnsafeMutableBufferPointer { try poll($0, timeout: 10_000) }
        pthread_join(signaller, nil)
        #expect(ready == 1)
        #expect(counter.reset() == 1)
    }
}

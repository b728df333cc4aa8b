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
        // A POSIX thread, not a Task: on two cores the cooperative pool may
        // have no thread free while this one blocks in poll.
        let signaller = Thread { counter.signal() }
        var slot = [pollfd(fd: counter.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        let ready = try slot.withUnsafeMutableBufferPointer { try poll($0, timeout: 10_000) }
        signaller.join()
        #expect(ready == 1)
        #expect(counter.reset() == 1)
    }
}

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

    @Test func signalFromAnotherThreadWakesAPoll() async throws {
        let counter = try EventCounter()
        let signaller = Task.detached { counter.signal() }
        var slot = [pollfd(fd: counter.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        let ready = try slot.withUnsafeMutableBufferPointer { try poll($0, timeout: 10_000) }
        await signaller.value
        #expect(ready == 1)
        #expect(counter.reset() == 1)
    }
}

import Testing

@testable import TestSupport
@testable import idlewrap

@Suite struct SecretBufferTests {
    @Test func appendsUpToItsCapacity() {
        let buffer = SecretBuffer(capacity: 3)
        #expect(buffer.append(1))
        #expect(buffer.append(2))
        #expect(buffer.append(3))
        #expect(!buffer.append(4))
        #expect(buffer.count == 3)
        #expect(contents(of: buffer) == [1, 2, 3])
    }

    @Test func clearZeroesTheStorage() {
        let buffer = secret("hunter2")
        let storage = buffer.withBytes { UnsafeRawPointer($0.baseAddress!) }
        #expect(storage.load(fromByteOffset: 0, as: UInt8.self) == UInt8(ascii: "h"))
        buffer.clear()
        #expect(buffer.isEmpty)
        // Same allocation: the buffer is still alive, only its bytes are gone.
        let bytes = (0..<buffer.capacity).map { storage.load(fromByteOffset: $0, as: UInt8.self) }
        #expect(bytes.allSatisfy { $0 == 0 })
    }

    @Test func removeLastZeroesTheRemovedByte() {
        let buffer = secret("ab")
        let storage = buffer.withBytes { UnsafeRawPointer($0.baseAddress!) }
        buffer.removeLast()
        #expect(contents(of: buffer) == [UInt8(ascii: "a")])
        #expect(storage.load(fromByteOffset: 1, as: UInt8.self) == 0)
        buffer.removeLast()
        buffer.removeLast()
        #expect(buffer.isEmpty)
        #expect(buffer.last == nil)
    }

    @Test func isAlwaysACString() {
        let buffer = secret("abc")
        buffer.removeLast()
        let text = buffer.withCString { String(cString: $0) }
        #expect(text == "ab")
    }

    @Test func comparesContents() {
        #expect(secret("same").hasSameBytes(as: secret("same")))
        #expect(!secret("same").hasSameBytes(as: secret("sane")))
        #expect(!secret("same").hasSameBytes(as: secret("samey")))
        #expect(SecretBuffer().hasSameBytes(as: SecretBuffer(capacity: 4)))
    }
}

import Glibc
import PTYKit

/// The checkout the tests are in: this file is Tests/ScreenTestSupport/Files.swift.
public let packageDirectory: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// The bytes of a file.
public func readFileBytes(_ path: String) throws -> [UInt8] {
    let descriptor = try FileDescriptor.open(path, O_RDONLY)
    defer { try? descriptor.close() }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = try buffer.withUnsafeMutableBytes { try descriptor.read(into: $0) }
        if count == 0 { return bytes }
        bytes += buffer[..<count]
    }
}

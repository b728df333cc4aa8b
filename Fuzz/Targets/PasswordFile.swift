import Glibc
@testable import idlewrap

// The password-file reader never crashes on any content, and what it accepts
// is a well-formed hash: the file's first line (less a CR), only blank lines
// after it, printable with no spaces, starting with a $method$ prefix; for the
// cheap methods without a rounds parameter, crypt(3) can check a password
// against it.
//
// Input: the file's content. The file is real (the reader checks ownership and
// mode), in a private directory made once.

private let directory: String = {
    var template = Array("/tmp/idlewrap-fuzz-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    return String(cString: made)
}()

private func isCheapToCheck(_ hash: String) -> Bool {
    (hash.hasPrefix("$1$") || hash.hasPrefix("$5$") || hash.hasPrefix("$6$")) && !hash.contains("rounds=")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = directory + "/password"
    let content = Array(UnsafeBufferPointer(start: data, count: size))
    unlink(path)
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else { fatalError("cannot create \(path)") }
    content.withUnsafeBytes { bytes in
        guard write(descriptor, bytes.baseAddress, bytes.count) == bytes.count else { fatalError("short write") }
    }
    close(descriptor)

    guard let hash = try? PasswordFile.readHash(at: path) else { return 0 }
    require(content.count <= PasswordFile.maximumSize, "a file over the size limit accepted")
    var lines = content.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    var first = Array(lines.removeFirst())
    if first.last == UInt8(ascii: "\r") { first.removeLast() }
    require(Array(hash.utf8) == first, "the hash is not the first line")
    require(lines.allSatisfy { $0.allSatisfy { " \t\r".utf8.contains($0) } }, "text after the first line accepted")
    require(hash.hasPrefix("$"), "a hash without a $method$ prefix accepted")
    require(hash.utf8.allSatisfy { (0x21...0x7E).contains($0) }, "a hash with spaces or control bytes accepted")
    if isCheapToCheck(hash) {
        let probe = SecretBuffer(capacity: 8)
        for byte in "probe".utf8 { _ = probe.append(byte) }
        require(PasswordHash.matches(probe, hash: hash) != nil, "crypt(3) cannot check the accepted hash \(hash)")
    }
    return 0
}

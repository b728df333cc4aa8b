@testable import idlewrap

// What crosses a control socket, read by a session from any process of its user (or
// root), and by `--attach` from its session: requests, `status` replies and the lines of an
// attach connection. Properties: a request is exactly its own line; a message read from
// a stream is the same however the stream was cut into reads; every message and reply
// read back is written out again as itself; a status's state and detached time agree.
//
// Input: one byte choosing the reader, one byte where to cut, then the text.

private func checkRequest(_ bytes: [UInt8]) {
    guard case .request(let request) = ControlRequest.parse(bytes) else { return }
    require(bytes == Array(request.line.utf8), "\(bytes) parsed as \(request)")
}

private func checkAttachMessages(_ bytes: [UInt8], cut: Int) {
    var whole = bytes
    let messages = AttachMessage.take(from: &whole)
    var first = Array(bytes[..<min(cut, bytes.count)])
    var pieces = AttachMessage.take(from: &first)
    first += bytes[min(cut, bytes.count)...]
    pieces += AttachMessage.take(from: &first)
    // Cutting may only split an over-long line differently; lines that end come out alike.
    if !messages.contains(nil) && !pieces.contains(nil) {
        require(messages == pieces && whole == first, "\(bytes) reads differently cut at \(cut)")
    }
    for case let message? in messages {
        var line = Array(message.line.utf8)
        require(AttachMessage.take(from: &line) == [message], "\(message) does not survive its line")
        require(line.isEmpty, "\(message)'s line leaves bytes")
    }
}

private func checkStatus(_ bytes: [UInt8]) {
    guard let status = SessionStatus(reply: String(decoding: bytes, as: UTF8.self)) else { return }
    require(SessionStatus(reply: status.reply) == status, "\(status) does not survive its reply")
    require((status.state == "detached") == (status.detachedSince != nil), "\(status): state and time disagree")
    require(status.detachedSince == nil || status.locked, "\(status): detached but not locked")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let which = input.choice(3)
    let cut = Int(input.byte())
    let bytes = Array(input.rest())
    switch which {
    case 0: checkRequest(bytes)
    case 1: checkAttachMessages(bytes, cut: cut)
    default: checkStatus(bytes)
    }
    return 0
}

import PTYKit

// The output parser must not depend on how the stream is cut into reads: fed
// one byte at a time (every byte through the state table), whole (the
// skipping fast paths), or in fuzzer-chosen chunks, it must reach the same
// modes and the same boundary at every common point, and feedUntilBoundary
// must stop exactly at the first boundary the byte-at-a-time parser sees, and
// lastBoundary must find the last one in a chunk.
//
// Input: one byte N (number of chunk lengths, up to 15, and whether the chunks
// go through feedUntilBoundary), N chunk lengths, then the stream.

private func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

/// Continuation bytes a lead byte announces, as the parser counts them.
private func continuationCount(_ lead: UInt8) -> Int {
    switch lead {
    case 0xC2...0xDF: 1
    case 0xE0...0xEF: 2
    case 0xF0...0xF4: 3
    default: 0
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let header = input.byte()
    let cuts = input.take(Int(header & 0x0F))
    let useFeedUntilBoundary = header & 0x10 != 0
    let stream = input.rest()

    // The reference: one byte per call; modes and boundary after each prefix.
    var reference = OutputParser()
    var modesAfter = [reference.modes]
    var boundaryAfter = [reference.isAtBoundary]
    modesAfter.reserveCapacity(stream.count + 1)
    for byte in stream {
        [byte].withUnsafeBytes { reference.feed($0) }
        modesAfter.append(reference.modes)
        boundaryAfter.append(reference.isAtBoundary)
    }

    // Whether the byte at each index cuts short a UTF-8 character left open in text: the
    // character's lead byte came where the stream was at a boundary (or where it cut the
    // character before), then only continuation bytes, fewer than the lead announces.
    var cutsCharacter = [Bool](repeating: false, count: stream.count)
    for index in stream.indices where !isContinuation(stream[index]) {
        var lead = index - 1
        while lead >= 0 && isContinuation(stream[lead]) { lead -= 1 }
        guard lead >= 0, boundaryAfter[lead] || cutsCharacter[lead] else { continue }
        cutsCharacter[index] = index - lead <= continuationCount(stream[lead])
    }

    var whole = OutputParser()
    stream.withUnsafeBytes { whole.feed($0) }
    require(whole.modes == modesAfter[stream.count], "whole feed ends with other modes than byte by byte")
    require(whole.isAtBoundary == boundaryAfter[stream.count], "whole feed ends at another boundary state")

    var chunked = OutputParser()
    var offset = 0
    for length in chunkLengths(total: stream.count, choices: cuts) {
        let chunk = stream[offset..<(offset + length)]
        if useFeedUntilBoundary {
            let consumed = chunk.withUnsafeBytes { chunked.feedUntilBoundary($0) }
            let expected: Int
            if boundaryAfter[offset] {
                expected = 0
            } else {
                expected = (1...max(length, 1)).first { $0 <= length && boundaryAfter[offset + $0] } ?? length
            }
            require(consumed == expected, "feedUntilBoundary at \(offset) consumed \(consumed), expected \(expected)")
            require(chunked.modes == modesAfter[offset + consumed], "modes differ after feedUntilBoundary at \(offset)")
            require(
                chunked.isAtBoundary == boundaryAfter[offset + consumed],
                "boundary differs after feedUntilBoundary at \(offset)")
            chunk.dropFirst(consumed).withUnsafeBytes { chunked.feed($0) }
        } else {
            let found = chunk.withUnsafeBytes { chunked.lastBoundary(in: $0) }
            let expected = (0...length).last { boundaryAfter[offset + $0] || ($0 < length && cutsCharacter[offset + $0]) }
            require(found == expected, "lastBoundary in the chunk at \(offset) is \(found as Any), expected \(expected as Any)")
            chunk.withUnsafeBytes { chunked.feed($0) }
        }
        offset += length
        require(chunked.modes == modesAfter[offset], "modes differ after a chunk ending at \(offset)")
        require(chunked.isAtBoundary == boundaryAfter[offset], "boundary differs after a chunk ending at \(offset)")
    }
    return 0
}

@testable import idlewrap

// The locked-input line editor must submit the same lines however the typed
// bytes are cut into reads, keep no more than its cap, and submit only
// non-empty lines of text (no control byte, no DEL), and printable text
// followed by Enter is submitted as typed.
//
// Input: the cap (1-64), the number of chunk lengths (up to 15), the chunk
// lengths, then the typed bytes.

/// Feeds `bytes` in chunks as the lock does, except that the bytes after a
/// submitted line are fed on (the lock drops them; here they give more lines).
private func submittedLines(_ bytes: [UInt8], chunks: [Int], cap: Int) -> [[UInt8]] {
    var editor = PasswordLineEditor(maximumLength: cap)
    var lines: [[UInt8]] = []
    var offset = 0
    for length in chunks {
        var chunk = bytes[offset..<(offset + length)]
        offset += length
        while !chunk.isEmpty {
            let result = chunk.withUnsafeBytes { editor.feed($0) }
            require(editor.line.count <= cap, "the line grew past its cap of \(cap)")
            guard let (event, consumed) = result else { break }
            require(consumed >= 1 && consumed <= chunk.count, "feed consumed \(consumed) of \(chunk.count) bytes")
            if event == .submitted {
                require(!editor.line.isEmpty, "an empty line was submitted")
                lines.append(editor.line.withBytes { Array($0) })
                editor.reset()
                require(editor.line.isEmpty, "reset left bytes in the line")
            } else {
                require(consumed == chunk.count, "an edit did not consume the whole chunk")
            }
            chunk = chunk.dropFirst(consumed)
        }
    }
    return lines
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let cap = 1 + input.choice(64)
    let cuts = input.take(input.choice(16))
    let typed = input.rest()
    let whole = submittedLines(typed, chunks: [typed.count], cap: cap)
    let oneByOne = submittedLines(typed, chunks: [Int](repeating: 1, count: typed.count), cap: cap)
    let chunked = submittedLines(typed, chunks: chunkLengths(total: typed.count, choices: cuts), cap: cap)
    require(whole == oneByOne, "lines differ when typed one byte at a time")
    require(whole == chunked, "lines differ when typed in chunks")
    // Plain printable text and Enter: the line is that text, cut at the cap.
    if let end = typed.firstIndex(where: { $0 == 0x0D || $0 == 0x0A }), end > 0,
        typed[..<end].allSatisfy({ (0x20...0x7E).contains($0) })
    {
        require(whole.first == Array(typed[..<end].prefix(cap)), "plain text and Enter did not submit that text")
    }
    for line in whole {
        require(line.count <= cap, "a submitted line is longer than the cap")
        require(line.allSatisfy { $0 >= 0x20 && $0 != 0x7F }, "a submitted line holds a control byte")
    }
    return 0
}

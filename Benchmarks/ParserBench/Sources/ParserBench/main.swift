// Feeds each corpus file through the screen model (ScreenModel, 200x60 or
// `--size ROWSxCOLUMNS`), in 4 KiB chunks (what one read of a Linux pty master
// returns) until at least `--seconds` have passed, five times, and prints the
// median throughputs as `LABEL=MBPS` lines (MB = 10^6 B). `--passes N` feeds the
// model N whole passes and no more (for callgrind, which counts instructions, not time), with
// `--hold` holding what scrolls off for the scrollback as a locked session does
// (8 MiB, idlewrap's default --hold-limit). `--reads FILE` feeds the model in chunks of the
// sizes in FILE (one a line, taken in turn), such as the reads of a relay traced in a flood
// (`perf record -e syscalls:sys_exit_read`): a real pty master returns short reads too.
import Glibc
import PTYKit

let chunkSize = 4096
let repetitions = 5

/// The sizes the model is fed in, taken in turn.
struct ReadSizes {
    var sizes = [chunkSize]
    private var index = 0

    mutating func next() -> Int {
        let size = sizes[index]
        index = index + 1 == sizes.count ? 0 : index + 1
        return size
    }
}
var readSizes = ReadSizes()

func printError(_ message: String) {
    var text = message
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if n == 0 { break }
        bytes.append(contentsOf: buffer[0..<n])
    }
    return bytes
}

func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// One measurement: whole passes over the corpus through the screen model, every byte
/// through the grid, until `seconds` have elapsed. Returns MB/s and how many chunks ended
/// at a boundary (so the work is used).
func measureModel(
    _ corpus: [UInt8], size: (rows: Int, columns: Int), seconds: Double, reads: inout ReadSizes
) -> (
    mbps: Double, boundaries: Int
) {
    let model = ScreenModel(rows: size.rows, columns: size.columns)
    var boundaries = 0
    var fed = 0
    let start = monotonicSeconds()
    var elapsed = 0.0
    corpus.withUnsafeBytes { all in
        repeat {
            var offset = 0
            while offset < all.count {
                let end = min(offset + reads.next(), all.count)
                model.feed(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                if model.isAtBoundary { boundaries += 1 }
                offset = end
            }
            fed += all.count
            elapsed = monotonicSeconds() - start
        } while elapsed < seconds
    }
    return (Double(fed) / elapsed / 1e6, boundaries)
}

/// The process's resident memory (/proc/self/statm), in bytes.
func residentBytes() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var size = 0
    var resident = 0
    guard
        withUnsafeMutablePointer(
            to: &size,
            { sizePointer in
                withUnsafeMutablePointer(to: &resident) { vfscanfPair(file, sizePointer, $0) }
            })
    else { return 0 }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Reads "SIZE RESIDENT" from statm without varargs (fscanf is not callable from Swift).
func vfscanfPair(
    _ file: UnsafeMutablePointer<FILE>, _ first: UnsafeMutablePointer<Int>, _ second: UnsafeMutablePointer<Int>
) -> Bool {
    var line = [CChar](repeating: 0, count: 128)
    guard fgets(&line, 128, file) != nil else { return false }
    let length = line.firstIndex(of: 0) ?? line.count
    let text = String(decoding: line[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
    guard fields.count >= 2 else { return false }
    first.pointee = fields[0]
    second.pointee = fields[1]
    return true
}

func usage() -> Never {
    printError(
        "usage: ParserBench [--seconds S] [--size ROWSxCOLUMNS] [--passes N [--hold]] [--reads FILE] LABEL=FILE...\n")
    exit(2)
}

var seconds = 0.5
var hold = false
var passes: Int? = nil
var size = (rows: 60, columns: 200)
var corpora: [(label: String, path: String)] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--hold" {
        hold = true
    } else if argument == "--passes" {
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { usage() }
        passes = value
    } else if argument == "--size" {
        let parts = (arguments.popFirst() ?? "").split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { usage() }
        size = (parts[0], parts[1])
    } else if argument == "--reads" {
        guard let path = arguments.popFirst(), let text = readFile(path) else { usage() }
        let sizes = String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else { usage() }
        readSizes.sizes = sizes
    } else if argument == "--seconds" {
        guard let value = arguments.popFirst().flatMap(Double.init), value > 0 else { usage() }
        seconds = value
    } else if let equals = argument.lastIndex(of: "=") {
        corpora.append((String(argument[..<equals]), String(argument[argument.index(after: equals)...])))
    } else {
        usage()
    }
}
if corpora.isEmpty { usage() }

for (label, path) in corpora {
    guard let corpus = readFile(path), !corpus.isEmpty else {
        printError("ParserBench: cannot read \(path)\n")
        exit(1)
    }
    if let passes {
        let residentBefore = residentBytes()
        let model = ScreenModel(rows: size.rows, columns: size.columns)
        if hold { model.startHoldingScrollback(limit: 8 << 20) }
        corpus.withUnsafeBytes { all in
            for _ in 0..<passes {
                var offset = 0
                while offset < all.count {
                    let end = min(offset + readSizes.next(), all.count)
                    model.feed(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                    offset = end
                }
            }
        }
        let grown = (residentBytes() - residentBefore) / 1024
        let held = model.heldScrollback
        printError(
            "  \(label): \(passes) passes of \(corpus.count) bytes, cursor at \(model.cursor); resident memory grew "
                + "\(grown) KiB; held \(held.lines) lines in \(held.bytes) bytes, \(held.dropped) dropped\n")
        continue
    }
    var rates: [Double] = []
    var boundaries = 0
    for _ in 0..<repetitions {
        let result = measureModel(corpus, size: size, seconds: seconds, reads: &readSizes)
        rates.append(result.mbps)
        boundaries += result.boundaries
    }
    rates.sort()
    let median = rates[rates.count / 2]
    printError("  \(label): \(corpus.count) bytes, \(Int(median)) MB/s (\(boundaries) chunks at a boundary)\n")
    print("\(label)=\(median)")
}

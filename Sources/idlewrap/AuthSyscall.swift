import Glibc
import PTYKit

/// The authentication code's one reader of errno, for the calls PTYKit does
/// not wrap: a result that `failed` says is a failure becomes a thrown
/// `Errno`, and EINTR is retried unless `retryOnInterrupt` is false.
func authSystemCall<Result>(
    retryOnInterrupt: Bool = true,
    _ call: () -> Result,
    failed: (Result) -> Bool
) throws(Errno) -> Result {
    while true {
        let result = call()
        guard failed(result) else { return result }
        let error = Errno(rawValue: errno)
        if retryOnInterrupt && error == .interrupted { continue }
        throw error
    }
}

/// For calls that return -1 on failure.
func authSystemCall<Result: FixedWidthInteger>(
    retryOnInterrupt: Bool = true,
    _ call: () -> Result
) throws(Errno) -> Result {
    try authSystemCall(retryOnInterrupt: retryOnInterrupt, call, failed: { $0 == -1 })
}

/// The text a C call wrote into `buffer`, up to the first NUL.
func string(fromNulTerminated buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

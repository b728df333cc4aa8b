import Glibc

/// Runs a call that returns -1 and sets errno on failure, and turns that into
/// a thrown `Errno`. With `valueOrErrno(_:failed:)` this is the one place in
/// the code base that reads errno. Not public API: the package's own
/// wrappers (PTYKit's and idlewrap's System folders, idlewrap's `CryptCalls`) use it; users
/// of PTYKit get the wrapped calls.
///
/// EINTR is retried unless `retryOnInterrupt` is false (as for `close`, where
/// Linux has already released the descriptor and a retry could close another
/// thread's). EBADF and EFAULT mean our own bug, so they stop the program.
@inline(__always)
package func valueOrErrno<Result: FixedWidthInteger>(
    retryOnInterrupt: Bool = true,
    _ call: () -> Result
) throws(Errno) -> Result {
    try valueOrErrno(retryOnInterrupt: retryOnInterrupt, call, failed: { $0 == -1 })
}

/// The same for calls whose failure value is something else (a null
/// pointer, for instance), as `failed` tells.
@inline(__always)
package func valueOrErrno<Result>(
    retryOnInterrupt: Bool = true,
    _ call: () -> Result,
    failed: (Result) -> Bool
) throws(Errno) -> Result {
    while true {
        let result = call()
        guard failed(result) else { return result }
        let error = Errno(rawValue: errno)
        if retryOnInterrupt && error == .interrupted { continue }
        preconditionIsNotOurBug(error)
        throw error
    }
}

/// The text a C call wrote into `buffer`, up to the first NUL.
package func string(fromNulTerminated buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// For calls in the posix_spawn and pthread family that return the error
/// number itself rather than setting errno.
@inline(__always)
func checkReturnedErrno(_ result: Int32) throws(Errno) {
    guard result != 0 else { return }
    let error = Errno(rawValue: result)
    preconditionIsNotOurBug(error)
    throw error
}

@inline(__always)
func preconditionIsNotOurBug(_ error: Errno) {
    precondition(
        error != .badFileDescriptor && error != .badAddress,
        "system call failed with \(error): a descriptor or pointer was used after it was released"
    )
}

import Glibc

/// Runs a call that returns -1 and sets errno on failure, and turns that into
/// a thrown `Errno`. This is the one place in the code base that reads errno.
///
/// EINTR is retried unless `retryOnInterrupt` is false (as for `close`, where
/// Linux has already released the descriptor and a retry could close another
/// thread's). EBADF and EFAULT mean our own bug, so they stop the program.
@inline(__always)
func valueOrErrno<Result: FixedWidthInteger>(
    retryOnInterrupt: Bool = true,
    _ call: () -> Result
) throws(Errno) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno(rawValue: errno)
        if retryOnInterrupt && error == .interrupted { continue }
        preconditionIsNotOurBug(error)
        throw error
    }
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

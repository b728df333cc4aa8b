import Glibc

/// Waits until one of `slots` has an event or `milliseconds` pass (-1: no
/// limit), and returns how many slots have one.
@inline(__always)
public func poll(_ slots: UnsafeMutableBufferPointer<pollfd>, timeout milliseconds: Int32) throws(Errno) -> Int {
    Int(try valueOrErrno { Glibc.poll(slots.baseAddress, nfds_t(slots.count), milliseconds) })
}

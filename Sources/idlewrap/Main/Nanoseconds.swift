/// Nanoseconds on the monotonic clock: the unit of every duration in idlewrap.
typealias Nanoseconds = Int64

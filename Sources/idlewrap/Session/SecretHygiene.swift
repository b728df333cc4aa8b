import Glibc
import PTYKit

/// Keeps what is typed into idlewrap (lock-screen passwords, the `ask`
/// password) away from other processes of the same user, the wrapped command
/// included: idlewrap is not dumpable, so they cannot open
/// /proc/IDLEWRAP_PID/fd/0 to read the terminal, nor its memory, and it
/// writes no core dump. The processes it starts are ordinary: execve makes
/// them dumpable again, and they get the core limit idlewrap started with.
struct SecretHygiene {
    /// The core limit idlewrap started with.
    let ordinaryCoreLimit: rlimit

    /// Only the soft limit goes to zero: an unprivileged process could not
    /// raise a lowered hard limit again for its children.
    static func engage() throws(Errno) -> SecretHygiene {
        try ProcessPrivacy.setDumpable(false)
        let hygiene = SecretHygiene(ordinaryCoreLimit: try ProcessPrivacy.coreLimit())
        var none = hygiene.ordinaryCoreLimit
        none.rlim_cur = 0
        try ProcessPrivacy.setCoreLimit(none)
        return hygiene
    }

    /// Runs `spawn` with the ordinary core limit, so that the new process
    /// inherits it. idlewrap stays non-dumpable meanwhile, so it still dumps
    /// no core.
    func spawningOrdinaryProcess<T>(_ spawn: () throws(PTYError) -> T) throws(PTYError) -> T {
        var none = ordinaryCoreLimit
        none.rlim_cur = 0
        try? ProcessPrivacy.setCoreLimit(ordinaryCoreLimit)
        defer { try? ProcessPrivacy.setCoreLimit(none) }
        return try spawn()
    }
}

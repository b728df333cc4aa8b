import CPTYShims
import Glibc
import PTYKit

/// How much other processes of the same user can see of this one.
enum ProcessPrivacy {
    /// PR_SET_DUMPABLE. A process that is not dumpable writes no core dump,
    /// and only a process with CAP_SYS_PTRACE may open its /proc/PID files
    /// (fd, mem, environ, ...) or ptrace it. execve makes the new program
    /// dumpable again (unless it is set-user-ID or unreadable).
    static func setDumpable(_ dumpable: Bool) throws(Errno) {
        _ = try valueOrErrno { cpty_set_dumpable(dumpable) }
    }

    /// RLIMIT_CORE, which child processes inherit.
    static func coreLimit() throws(Errno) -> rlimit {
        var limit = rlimit()
        _ = try valueOrErrno { getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit) }
        return limit
    }

    static func setCoreLimit(_ limit: rlimit) throws(Errno) {
        var limit = limit
        _ = try valueOrErrno { setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit) }
    }
}

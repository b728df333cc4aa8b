import CPTYShims
import Glibc
import PTYKit

/// The system calls only the guardian makes, each wrapped once.
enum GuardianCalls {
    /// fork(), with the child told of the parent's end by `parentDeathSignal`.
    static func forkWatched(parentDeathSignal: Int32) throws(Errno) -> pid_t {
        try valueOrErrno(retryOnInterrupt: false) { cpty_fork_watched(parentDeathSignal) }
    }

    /// The session process's parent's end no longer sends it a signal (`forkWatched`).
    static func stopParentDeathSignal() {
        _ = cpty_set_parent_death_signal(0)
    }

    /// Closes every descriptor of the process; false when it could not (an older kernel).
    static func closeAllDescriptors() -> Bool {
        cpty_close_all_descriptors() == 0
    }

    /// Lets go of the pages of code and constants this process has mapped (they fault
    /// back in from the page cache when run); false if a segment would not go.
    @discardableResult
    static func dropReadOnlyPages() -> Bool {
        cpty_drop_read_only_pages() == 0
    }

    /// Ends the process at once: no exit handlers, no flushing.
    static func end(_ status: Int32) -> Never {
        _exit(status)
    }

    static func restoreDefaultAction(_ signal: Int32) {
        Glibc.signal(signal, SIG_DFL)
    }

    /// Blocks `signals`; returns the mask as it was.
    static func block(_ signals: [Int32]) -> sigset_t {
        var set = signalSet(signals)
        var old = sigset_t()
        sigprocmask(SIG_BLOCK, &set, &old)
        return old
    }

    static func unblock(_ signals: [Int32]) {
        _ = signals.withUnsafeBufferPointer { cpty_signals_unblock($0.baseAddress!, Int32($0.count)) }
    }

    static func setMask(_ mask: sigset_t, adding signals: [Int32] = []) {
        var mask = mask
        for signal in signals { sigaddset(&mask, signal) }
        sigprocmask(SIG_SETMASK, &mask, nil)
    }

    /// Sleeps until one of `signals` (blocked) is pending, and takes it.
    static func waitForSignal(in signals: [Int32]) -> siginfo_t {
        var set = signalSet(signals)
        var info = siginfo_t()
        while (try? valueOrErrno { sigwaitinfo(&set, &info) }) == nil {}
        return info
    }

    /// The next change of `pid`'s state (ended, stopped, continued), or nil when none is waiting.
    static func nextChange(of pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let reaped = try? valueOrErrno { waitpid(pid, &status, WNOHANG | WUNTRACED | WCONTINUED) }
        return reaped == pid ? status : nil
    }

    /// A page of anonymous memory that the processes forked after this share.
    static func sharedPage() throws(Errno) -> UnsafeMutableRawPointer {
        let size = Int(sysconf(Int32(_SC_PAGESIZE)))
        let page = try valueOrErrno(
            { mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0) },
            failed: { $0 == nil || $0 == MAP_FAILED })
        return page!
    }

    private static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}

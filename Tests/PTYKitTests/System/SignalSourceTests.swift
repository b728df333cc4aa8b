import Glibc
import Testing

@testable import PTYKit

/// The mask a signal source leaves behind. Each test runs on one thread, and the
/// mask is that thread's.
struct SignalSourceTests {
    private func isBlocked(_ signal: Int32) -> Bool {
        var current = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &current)
        return sigismember(&current, signal) == 1
    }

    private func setBlocked(_ signal: Int32, _ blocked: Bool) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &set, nil)
    }

    @Test func releasingASourceUnblocksWhatItBlocked() throws {
        setBlocked(SIGUSR2, false)
        do {
            let source = try SignalSource([SIGUSR2])
            #expect(isBlocked(SIGUSR2))
            withExtendedLifetime(source) {}
        }
        #expect(!isBlocked(SIGUSR2))
    }

    /// A process that means to exit with its own status keeps a signal blocked past
    /// its source's end: one arriving then must not end it at the default action.
    @Test func aSignalBlockedBeforeTheSourceStaysBlockedAfterIt() throws {
        setBlocked(SIGUSR2, true)
        setBlocked(SIGALRM, false)
        defer { setBlocked(SIGUSR2, false) }
        do {
            let source = try SignalSource([SIGUSR2, SIGALRM])
            withExtendedLifetime(source) {}
        }
        #expect(isBlocked(SIGUSR2))
        #expect(!isBlocked(SIGALRM))
    }
}

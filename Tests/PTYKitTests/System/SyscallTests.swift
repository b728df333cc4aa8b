import Glibc
import Testing

@testable import PTYKit

@Suite struct SyscallTests {
    @Test func interruptedCallsAreRetried() throws {
        var calls = 0
        let result = try valueOrErrno { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 42
        }
        #expect(result == 42)
        #expect(calls == 3)
    }

    @Test func closeStyleCallsAreNotRetried() {
        var calls = 0
        #expect(throws: Errno.interrupted) {
            try valueOrErrno(retryOnInterrupt: false) { () -> Int32 in
                calls += 1
                errno = EINTR
                return -1
            }
        }
        #expect(calls == 1)
    }

    @Test func failuresBecomeTypedErrors() {
        #expect(throws: Errno.noSuchFile) {
            try FileDescriptor.open("/nonexistent/idlewrap-test", O_RDONLY)
        }
        #expect(Errno.noSuchFile.description == "No such file or directory")
    }

    @Test func returnedErrorNumbersAreThrown() {
        #expect(throws: Errno.permissionDenied) { try checkReturnedErrno(EACCES) }
        #expect(throws: Never.self) { try checkReturnedErrno(0) }
    }

    @Test func openedDescriptorsAreCloseOnExec() throws {
        let file = try FileDescriptor.open("/dev/null", O_RDONLY)
        defer { try? file.close() }
        #expect(fcntl(file.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }
}

import Glibc
import Testing

@testable import idlewrap

@Suite struct RuntimeLibraryTests {
    @Test func aFunctionTheLibraryHasIsCallableAsTheTypeItGoesTo() throws {
        let library = try RuntimeLibrary("libc.so.6")
        let processID: @convention(c) () -> pid_t = try library.function("getpid")
        #expect(processID() == getpid())
        let optional: (@convention(c) () -> pid_t)? = library.symbol("getppid")
        #expect(optional?() == getppid())
    }

    @Test func aFunctionTheLibraryLacksIsNilOrAnErrorNamingTheLibrary() throws {
        let library = try RuntimeLibrary("libc.so.6")
        let optional: (@convention(c) () -> Int32)? = library.symbol("idlewrap_no_such_function")
        #expect(optional == nil)
        do {
            let _: @convention(c) () -> Int32 = try library.function("idlewrap_no_such_function")
            Issue.record("a missing function was found")
        } catch {
            #expect(error.description.hasPrefix("libc.so.6 lacks a function: "))
            #expect(error.description.contains("idlewrap_no_such_function"))
        }
    }
}

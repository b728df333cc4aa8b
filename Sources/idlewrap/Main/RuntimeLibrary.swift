import Glibc

/// A shared library loaded at run time (libpam, libsystemd), so that it is never
/// a build dependency. It is never unloaded: what it loads in turn, and threads
/// that may still run in it, must stay valid.
struct RuntimeLibrary {
    let soname: String
    private let handle: UnsafeMutableRawPointer

    /// Loads `soname`; the error is the loader's own sentence, which names the file.
    init(_ soname: String) throws(RuntimeLibraryError) {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            throw RuntimeLibraryError(description: Self.lastError())
        }
        self.soname = soname
        self.handle = handle
    }

    /// The function `name`, or nil when the library lacks it.
    func symbol<Function>(_ name: String) -> Function? {
        dlsym(handle, name).map { unsafeBitCast($0, to: Function.self) }
    }

    /// The function `name`, which the library must have.
    func function<Function>(_ name: String) throws(RuntimeLibraryError) -> Function {
        guard let function: Function = symbol(name) else {
            throw RuntimeLibraryError(description: "\(soname) lacks a function: \(Self.lastError())")
        }
        return function
    }

    private static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown error"
    }
}

struct RuntimeLibraryError: Error, CustomStringConvertible {
    let description: String
}

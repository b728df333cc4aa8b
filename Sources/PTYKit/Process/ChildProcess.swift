import CPTYShims
import Glibc

/// How a process ended.
public enum TerminationStatus: Equatable, Sendable {
    case exited(Int32)
    case signaled(Int32)

    public init(waitStatus: Int32) {
        if cpty_wifsignaled(waitStatus) {
            self = .signaled(cpty_wtermsig(waitStatus))
        } else {
            self = .exited(cpty_wexitstatus(waitStatus))
        }
    }

    /// The status a shell would report: the exit code, or 128 + the signal.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let code): return code
        case .signaled(let signal): return 128 + signal
        }
    }
}

/// A command spawned by PTYKit, identified by its pid.
public struct ChildProcess: Sendable {
    public let pid: pid_t

    public init(pid: pid_t) {
        self.pid = pid
    }

    /// Spawns `arguments` (argv[0] searched in PATH unless it holds a slash,
    /// `executable` overriding what is run while argv[0] stays, as for a login
    /// shell's "-bash") as the leader of a new session whose controlling
    /// terminal is `terminalPath` on fds 0, 1 and 2, with default signals.
    public static func spawn(
        _ arguments: [String],
        executable: String? = nil,
        environment: [String],
        terminalPath: String
    ) throws(PTYError) -> ChildProcess {
        let file = executable ?? arguments[0]
        var pid: pid_t = 0
        let result = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in
                cpty_spawn(&pid, file, argv, envp, terminalPath, !file.contains("/"))
            }
        }
        do {
            try checkReturnedErrno(result)
        } catch {
            throw spawnError(error, command: file)
        }
        return ChildProcess(pid: pid)
    }

    /// Spawns `/bin/sh -c command` detached from any terminal, stdio on /dev/null.
    public static func spawnDetachedShell(_ command: String, environment: [String]) throws(PTYError) -> ChildProcess {
        var pid: pid_t = 0
        let result = withCStrings(["sh", "-c", command]) { argv in
            withCStrings(environment) { envp in cpty_spawn_detached(&pid, argv, envp) }
        }
        do {
            try checkReturnedErrno(result)
        } catch {
            throw PTYError(.spawnCommand, error, context: "/bin/sh")
        }
        return ChildProcess(pid: pid)
    }

    static func spawnError(_ error: Errno, command: String) -> PTYError {
        switch error {
        case .noSuchFile: return PTYError(.commandNotFound, error, context: command)
        // execve says EACCES for a directory; a shell says what it is.
        case .permissionDenied where command.contains("/") && isDirectory(command):
            return PTYError(.commandNotExecutable, Errno(rawValue: EISDIR), context: command)
        case .permissionDenied, Errno(rawValue: ENOEXEC), Errno(rawValue: EISDIR):
            return PTYError(.commandNotExecutable, error, context: command)
        default: return PTYError(.spawnCommand, error, context: command)
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return (try? valueOrErrno { stat(path, &info) }) != nil && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Sends `signal` to the process; a process already gone is not an error.
    public func send(_ signal: Int32) {
        _ = try? valueOrErrno { kill(pid, signal) }
    }

    /// Sends `signal` to every process group of the command's session that
    /// PTYKit can name: the leader's own group and the terminal's foreground group.
    public func sendToSession(_ signal: Int32, foregroundGroup: pid_t?) {
        _ = try? valueOrErrno { kill(-pid, signal) }
        if let group = foregroundGroup, group > 0, group != pid {
            _ = try? valueOrErrno { kill(-group, signal) }
        }
    }

    /// Reaps the process if it has ended; nil while it runs.
    public func reapIfExited() throws(PTYError) -> TerminationStatus? {
        var status: Int32 = 0
        let reaped: pid_t
        do {
            reaped = try valueOrErrno { waitpid(pid, &status, WNOHANG) }
        } catch {
            throw PTYError(.waitForCommand, error, context: "waitpid")
        }
        return reaped == pid ? TerminationStatus(waitStatus: status) : nil
    }
}

/// Runs `body` with a NULL-terminated C array of copies of `strings`.
package func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer {
        for pointer in pointers { free(pointer) }
    }
    return body(pointers)
}

extension ChildProcess {
    /// Replaces this process with the command (argv[0] searched in PATH unless
    /// it holds a slash, or `executable` run instead). Returns only on failure.
    public static func execute(_ arguments: [String], executable: String? = nil) -> PTYError {
        let file = executable ?? arguments[0]
        _ = cpty_unblock_all_signals()
        let failure: Errno
        do {
            _ = try withCStrings(arguments) { argv in
                Result { () throws(Errno) in try valueOrErrno { execvp(file, argv) } }
            }.get()
            preconditionFailure("execvp returned without an error")
        } catch {
            failure = error
        }
        return spawnError(failure, command: file)
    }
}

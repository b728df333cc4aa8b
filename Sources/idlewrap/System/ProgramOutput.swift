import Glibc
import PTYKit

/// Runs a helper program to its end and keeps what it wrote (`passwd -S`, `sshd -T`):
/// stdin on /dev/null, a fixed locale and PATH, no signals blocked, and its stdout (with
/// `errors`, its stderr too) read through a pipe, up to `limit` bytes.
struct ProgramOutput {
    /// Whether the program exited with status 0.
    let succeeded: Bool
    let text: String

    /// What `arguments` (argv[0] an absolute path) wrote, or nil when it could not be run.
    static func run(_ arguments: [String], errors: Bool = false, limit: Int = 1 << 20) -> ProgramOutput? {
        var ends: [Int32] = [-1, -1]
        // Ends among 0-2 would be clobbered by the redirections below.
        guard (try? valueOrErrno { pipe(&ends) }) != nil, ends[0] > STDERR_FILENO, ends[1] > STDERR_FILENO else {
            return nil
        }
        let reader = FileDescriptor(rawValue: ends[0])
        defer { try? reader.close() }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        if errors {
            posix_spawn_file_actions_adddup2(&actions, ends[1], STDERR_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        // idlewrap ignores SIGPIPE; the helper gets it back at its default.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &pipeSignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = withCStrings(arguments) { argv in
            withCStrings(["LC_ALL=C", "PATH=/usr/sbin:/usr/bin:/sbin:/bin"]) { envp in
                posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
            }
        }
        try? FileDescriptor(rawValue: ends[1]).close()
        guard spawned == 0 else { return nil }
        // Read to the end even past the limit, so that the program never blocks on a full pipe.
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in (try? reader.read(into: raw)) ?? 0 }
            if count <= 0 { break }
            if output.count < limit { output += buffer[..<min(count, limit - output.count)] }
        }
        var waitStatus: Int32 = 0
        guard (try? valueOrErrno { waitpid(pid, &waitStatus, 0) }) != nil else { return nil }
        // A wait status of 0 is exactly "exited with status 0".
        return ProgramOutput(succeeded: waitStatus == 0, text: String(decoding: output, as: UTF8.self))
    }
}

import Glibc
import Testing

@testable import PTYKit

@Suite struct ChildProcessTests {
    func run(_ arguments: [String]) throws -> TerminationStatus {
        let terminal = try PseudoTerminal()
        let child = try ChildProcess.spawn(
            arguments, environment: ["PATH=/usr/bin:/bin"], terminalPath: terminal.replicaPath)
        var status: Int32 = 0
        #expect(waitpid(child.pid, &status, 0) == child.pid)
        return TerminationStatus(waitStatus: status)
    }

    @Test func exitCodesAndSignalsAreReported() throws {
        #expect(try run(["sh", "-c", "exit 3"]) == .exited(3))
        #expect(try run(["sh", "-c", "kill -TERM $$"]) == .signaled(SIGTERM))
        #expect(TerminationStatus.signaled(SIGTERM).shellStatus == 143)
        #expect(TerminationStatus.exited(3).shellStatus == 3)
    }

    @Test func missingCommandIsNotFound() {
        #expect {
            _ = try run(["idlewrap-no-such-command"])
        } throws: { error in
            let error = error as? PTYError
            return error?.code == .commandNotFound
                && error?.description == "idlewrap-no-such-command: command not found"
        }
    }

    @Test func directoryIsNotExecutable() {
        #expect {
            _ = try run(["/tmp"])
        } throws: { error in
            (error as? PTYError)?.code == .commandNotExecutable
        }
    }

    @Test func childIsSessionLeaderOnTheTerminalWithDefaultSignals() throws {
        // SIGINT ignored here must not stay ignored in the child: it must die of it.
        signal(SIGINT, SIG_IGN)
        defer { signal(SIGINT, SIG_DFL) }
        #expect(
            try run(["sh", "-c", "[ $(ps -o sid= -p $$) -eq $$ ] && [ -t 0 ] && kill -INT $$"]) == .signaled(SIGINT))
    }
}

/// What idlewrap inherits without close-on-exec must not reach what it spawns.
@Suite(.serialized) struct ChildProcessDescriptorTests {
    /// Runs `body` with descriptors 3-or-so and 300 open without FD_CLOEXEC.
    func withInheritedDescriptors(_ body: () throws -> Void) throws {
        let low = open("/dev/null", O_RDONLY)
        let high = dup2(low, 300)
        #expect(low > 2 && high == 300)
        defer {
            close(low)
            close(high)
        }
        try body()
    }

    /// The descriptors `child` has open, read from outside, once only 0, 1 and
    /// 2 are left or 10 s have passed; then it is ended. It runs sleep, which
    /// opens nothing, but the dynamic loader briefly holds descriptors of its
    /// own just after the exec; a leaked one stays.
    func descriptors(of child: ChildProcess) -> [Int] {
        defer {
            child.send(SIGKILL)
            var status: Int32 = 0
            _ = waitpid(child.pid, &status, 0)
        }
        let deadline = MonotonicInstant.now() + .seconds(10)
        var open: [Int] = []
        repeat {
            let isSleep = linkTarget("/proc/\(child.pid)/exe")?.hasSuffix("/sleep") == true
            let names = isSleep ? entries(ofDirectory: "/proc/\(child.pid)/fd") : []
            open = names.compactMap { Int($0) }.sorted()
            if open == [0, 1, 2] { break }
            usleep(1000)
        } while MonotonicInstant.now() < deadline
        return open
    }

    /// Where the link at `path` points, or nil.
    func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length >= 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in the directory at `path` (none if it cannot be read).
    func entries(ofDirectory path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            // Only up to its NUL: a short entry's d_name ends before the struct does.
            let field = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            let name = String(cString: field.assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    @Test func theSpawnedCommandGetsOnlyItsTerminal() throws {
        try withInheritedDescriptors {
            let terminal = try PseudoTerminal()
            let child = try ChildProcess.spawn(
                ["sleep", "60"], environment: ["PATH=/usr/bin:/bin"], terminalPath: terminal.replicaPath)
            #expect(descriptors(of: child) == [0, 1, 2])
        }
    }

    @Test func aDetachedShellGetsOnlyDevNull() throws {
        try withInheritedDescriptors {
            let child = try ChildProcess.spawnDetachedShell("exec sleep 60", environment: ["PATH=/usr/bin:/bin"])
            #expect(descriptors(of: child) == [0, 1, 2])
        }
    }
}

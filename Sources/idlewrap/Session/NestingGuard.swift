import Glibc
import PTYKit

/// Whether a live idlewrap already holds the master side of the terminal on
/// stdin, so that wrapping it again would only stack a second lock. The
/// environment only says which idlewrap to look at (`IDLEWRAP_PID`) and which
/// terminal it made (`IDLEWRAP_TTY`); anyone can set those, so each claim is
/// checked against what the kernel says:
///
/// 1. `IDLEWRAP_TTY` is the terminal on stdin and on stdout (same device);
///    otherwise nothing claims this terminal.
/// 2. That terminal's session leader (tcgetsid) is a child of idlewrap's
///    session process, a child of `IDLEWRAP_PID` (the guardian, `Guardian`)
///    named idlewrap too: idlewrap starts its command as a session leader on
///    the pseudo-terminal its session process holds the master of.
/// 3. `IDLEWRAP_PID` is named idlewrap (/proc/PID/stat, readable always) and
///    runs the same executable as this process (/proc/PID/exe). Once another
///    terminal took the session (`--take`), the session process goes on
///    without its guardian (`GuardianLink.leave`) and `IDLEWRAP_PID` names no
///    process: then the session process itself is checked so, its parent
///    whatever adopted it.
///
/// What a user could still fake: idlewrap makes itself non-dumpable while it
/// wraps, and then /proc/PID/exe of another process of the same user cannot
/// be read (root can read it). So for a non-root user a process of their own
/// that names itself idlewrap (prctl PR_SET_NAME), makes itself non-dumpable,
/// starts a session on a pseudo-terminal and runs idlewrap in it passes.
/// Doing that needs a program of the user's choice to run before idlewrap,
/// which already lets them not run idlewrap at all where idlewrap is started
/// from a shell's startup files (ForceCommand through a shell, profile.d).
/// As the login shell, idlewrap is the first process of the session: its
/// terminal's session leader is idlewrap itself, whose parent is sshd or
/// login, so there is nothing to pass for an outer idlewrap.
enum NestingGuard {
    enum Verdict: Equatable {
        /// Nothing claims that this terminal is wrapped: IDLEWRAP_TTY is
        /// unset or names another terminal (a tmux pane whose server was
        /// started from a wrapped shell inherits the variables, harmlessly).
        case unclaimed
        /// The idlewrap with this pid wraps this terminal.
        case wrapped(by: pid_t)
        /// IDLEWRAP_TTY names this terminal, but the claim does not hold.
        case unverified(reason: String)
    }

    static let programName = "idlewrap"

    static func check(environment: Environment) -> Verdict {
        guard let claimedTerminal = environment["IDLEWRAP_TTY"], let device = terminalDevice(claimedTerminal),
            (try? FileDescriptor.standardInput.status())?.st_rdev == device,
            (try? FileDescriptor.standardOutput.status())?.st_rdev == device
        else {
            return .unclaimed
        }
        guard let claimedProcess = environment["IDLEWRAP_PID"] else {
            return .unverified(reason: "IDLEWRAP_PID is not set")
        }
        guard let outer = pid_t(claimedProcess), outer > 1 else {
            return .unverified(reason: "IDLEWRAP_PID is not a process id")
        }
        guard let leader = try? valueOrErrno({ tcgetsid(STDIN_FILENO) }) else {
            return .unverified(reason: "this terminal has no session")
        }
        let outerStatus = ProcessStatus.read(outer)
        guard let leaderStatus = ProcessStatus.read(leader),
            let sessionProcess = ProcessStatus.read(leaderStatus.parent),
            sessionProcess.parent == outer || outerStatus == nil, sessionProcess.name == programName
        else {
            return .unverified(reason: "this terminal's session was not started by process \(outer)")
        }
        let checked: pid_t
        if let outerStatus {
            guard outerStatus.name == programName else {
                return .unverified(reason: "process \(outer) is not idlewrap")
            }
            checked = outer
        } else {
            checked = leaderStatus.parent
        }
        guard runsThisExecutable(checked) else {
            return .unverified(reason: "process \(checked) does not run this idlewrap")
        }
        return .wrapped(by: outer)
    }

    private static func terminalDevice(_ path: String) -> dev_t? {
        guard let info = try? FileSystem.status(ofPath: path), info.st_mode & S_IFMT == S_IFCHR else { return nil }
        return info.st_rdev
    }

    /// Whether `pid` runs the file this process runs. When /proc/PID/exe
    /// cannot be read (a non-dumpable process of the same user), the name
    /// alone has to do. A package upgrade that replaced the file since the
    /// outer idlewrap started counts as the same program.
    private static func runsThisExecutable(_ pid: pid_t) -> Bool {
        let outer: stat
        do {
            outer = try FileSystem.status(ofPath: "/proc/\(pid)/exe")
        } catch {
            return error == .permissionDenied
        }
        guard let current = try? FileSystem.status(ofPath: "/proc/self/exe") else { return false }
        if outer.st_dev == current.st_dev && outer.st_ino == current.st_ino { return true }
        guard let outerPath = try? FileSystem.linkTarget(ofPath: "/proc/\(pid)/exe"),
            let currentPath = try? FileSystem.linkTarget(ofPath: "/proc/self/exe")
        else { return false }
        return outerPath == currentPath || outerPath == currentPath + " (deleted)"
    }
}

/// The fields of /proc/PID/stat idlewrap needs, which the kernel shows to
/// everyone, also for non-dumpable processes.
struct ProcessStatus {
    /// The command name (comm): the executable's file name, at most 15 bytes.
    let name: String
    let parent: pid_t

    static func read(_ pid: pid_t) -> ProcessStatus? {
        guard let text = readSmallFile("/proc/\(pid)/stat") else { return nil }
        return parse(text)
    }

    /// `PID (COMM) STATE PPID ...`; COMM may hold spaces and parentheses, so
    /// it ends at the last `)`.
    static func parse(_ text: String) -> ProcessStatus? {
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close else { return nil }
        let name = String(text[text.index(after: open)..<close])
        let rest = text[text.index(after: close)...].split(separator: " ")
        guard rest.count >= 2, let parent = pid_t(rest[1]) else { return nil }
        return ProcessStatus(name: name, parent: parent)
    }

    /// The real user of `pid` (/proc/PID/status, readable always; /proc/PID itself is
    /// root's for a non-dumpable process).
    static func owner(of pid: pid_t) -> uid_t? {
        guard let text = readSmallFile("/proc/\(pid)/status"),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") })
        else { return nil }
        return line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap { uid_t($0) }
    }

    private static func readSmallFile(_ path: String) -> String? {
        guard let file = try? FileDescriptor.open(path, O_RDONLY | O_CLOEXEC) else { return nil }
        defer { try? file.close() }
        var buffer = [UInt8](repeating: 0, count: 1024)
        guard let count = try? buffer.withUnsafeMutableBytes({ raw throws(Errno) in try file.read(into: raw) }) else {
            return nil
        }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}

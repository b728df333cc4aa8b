import Glibc
import Testing

/// A program (or file) outside the Swift toolchain that some tests drive, and the Debian
/// package that provides it. A test that needs one says so with `.requires(...)`; on a
/// machine without it the test is skipped, and the skip names the tool and its package.
/// With `IDLEWRAP_TESTS_NEED_EVERY_TOOL` set (`.ci/run` sets it, having installed
/// every package) a missing tool fails the test instead, so CI never skips in silence.
struct RequiredTool: Sendable, CustomStringConvertible {
    let name: String
    let package: String
    /// Where the tool is; it is there when any of these is.
    let paths: [String]

    static let tmux = RequiredTool(name: "tmux", package: "tmux", paths: ["/usr/bin/tmux"])
    static let vim = RequiredTool(name: "vim", package: "vim", paths: ["/usr/bin/vim"])
    static let less = RequiredTool(name: "less", package: "less", paths: ["/usr/bin/less", "/bin/less"])
    static let top = RequiredTool(name: "top", package: "procps", paths: ["/usr/bin/top", "/bin/top"])
    static let perl = RequiredTool(name: "perl", package: "perl", paths: ["/usr/bin/perl"])
    static let python3 = RequiredTool(name: "python3", package: "python3", paths: ["/usr/bin/python3"])
    /// The stand-in for logind speaks D-Bus through these modules of the system's python3.
    static let pythonDBus = RequiredTool(
        name: "python3's dbus module", package: "python3-dbus",
        paths: ["/usr/lib/python3/dist-packages/dbus/__init__.py"])
    static let pythonGObject = RequiredTool(
        name: "python3's gi module", package: "python3-gi", paths: ["/usr/lib/python3/dist-packages/gi/__init__.py"])
    static let dbusDaemon = RequiredTool(
        name: "dbus-daemon", package: "dbus-daemon", paths: ["/usr/bin/dbus-daemon", "/bin/dbus-daemon"])
    static let dbusSend = RequiredTool(name: "dbus-send", package: "dbus-bin", paths: ["/usr/bin/dbus-send"])
    /// sd-bus, which idlewrap loads at run time to ask logind (Debian's and Fedora's paths).
    static let libsystemd = RequiredTool(
        name: "libsystemd.so.0", package: "libsystemd0",
        paths: ["x86_64-linux-gnu", "aarch64-linux-gnu"].flatMap {
            ["/usr/lib/\($0)/libsystemd.so.0", "/lib/\($0)/libsystemd.so.0"]
        }
            + ["/usr/lib64/libsystemd.so.0"])
    static let zsh = RequiredTool(name: "zsh", package: "zsh", paths: ["/usr/bin/zsh", "/bin/zsh"])
    static let fish = RequiredTool(name: "fish", package: "fish", paths: ["/usr/bin/fish"])
    static let bashCompletion = RequiredTool(
        name: "bash-completion", package: "bash-completion", paths: ["/usr/share/bash-completion/bash_completion"])
    static let sshd = RequiredTool(name: "sshd", package: "openssh-server", paths: ["/usr/sbin/sshd"])
    static let ssh = RequiredTool(name: "ssh", package: "openssh-client", paths: ["/usr/bin/ssh"])
    /// The real-terminal tests: an X server of their own, typing, screenshots, the terminals.
    static let xvfb = RequiredTool(name: "Xvfb", package: "xvfb", paths: ["/usr/bin/Xvfb"])
    static let xdotool = RequiredTool(name: "xdotool", package: "xdotool", paths: ["/usr/bin/xdotool"])
    static let xwd = RequiredTool(name: "xwd", package: "x11-apps", paths: ["/usr/bin/xwd"])
    static let xterm = RequiredTool(name: "xterm", package: "xterm", paths: ["/usr/bin/xterm"])
    static let urxvt = RequiredTool(name: "urxvt", package: "rxvt-unicode", paths: ["/usr/bin/urxvt"])
    static let st = RequiredTool(name: "st", package: "stterm", paths: ["/usr/bin/st"])
    static let mlterm = RequiredTool(name: "mlterm", package: "mlterm", paths: ["/usr/bin/mlterm"])
    static let kitty = RequiredTool(name: "kitty", package: "kitty", paths: ["/usr/bin/kitty"])
    static let alacritty = RequiredTool(name: "alacritty", package: "alacritty", paths: ["/usr/bin/alacritty"])
    static let konsole = RequiredTool(name: "konsole", package: "konsole", paths: ["/usr/bin/konsole"])
    static let xfce4Terminal = RequiredTool(
        name: "xfce4-terminal", package: "xfce4-terminal", paths: ["/usr/bin/xfce4-terminal"])

    /// Every tool above, for the check that `.ci/run` and the README install them all.
    static let all: [RequiredTool] = [
        tmux, vim, less, top, perl, python3, pythonDBus, pythonGObject, dbusDaemon, dbusSend, libsystemd, zsh, fish,
        bashCompletion, sshd, ssh, xvfb, xdotool, xwd, xterm, urxvt, st, mlterm, kitty, alacritty, konsole,
        xfce4Terminal,
    ]

    /// The environment variable that turns a missing tool into a failure.
    static let strictVariable = "IDLEWRAP_TESTS_NEED_EVERY_TOOL"

    /// A regular file at one of `paths`, and for a program one this user may run; a
    /// path with something else there (`without-optional-tools` mounts /dev/null over
    /// each tool it hides) does not count.
    var isInstalled: Bool {
        paths.contains { path in
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
            return !isProgram || access(path, X_OK) == 0
        }
    }

    /// Whether the tool is run (rather than read, as bash-completion's script and
    /// python's modules are, or loaded, as a library is).
    var isProgram: Bool {
        !paths.allSatisfy { $0.hasPrefix("/usr/share/") || $0.hasPrefix("/usr/lib/python3/") || $0.contains(".so.") }
    }

    var description: String { "\(name) (Debian package \(package))" }

    /// The skip's, or the failure's, sentence: "needs zsh (Debian package zsh), not installed".
    static func missingText(_ missing: [RequiredTool]) -> String {
        "needs " + missing.map(\.description).joined(separator: " and ") + ", not installed"
    }

    static var isStrict: Bool {
        getenv(strictVariable).map { String(cString: $0) }.map { !$0.isEmpty && $0 != "0" } ?? false
    }
}

/// Why a test did not run although it was to: a tool it needs is missing and
/// `RequiredTool.strictVariable` is set.
struct MissingTool: Error, CustomStringConvertible {
    let description: String
}

extension Trait where Self == ConditionTrait {
    /// Runs the test (or every test of the suite) only where each of `tools` is installed;
    /// see `RequiredTool`.
    static func requires(_ tools: RequiredTool...) -> Self {
        let missing = tools.filter { !$0.isInstalled }
        let text = RequiredTool.missingText(missing)
        guard !missing.isEmpty else { return .enabled(if: true) }
        guard RequiredTool.isStrict else { return .enabled(if: false, Comment(rawValue: text)) }
        return .enabled(Comment(rawValue: text)) {
            throw MissingTool(description: "\(text), and \(RequiredTool.strictVariable) is set")
        }
    }
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// idlewrap in a chroot without /proc (sshd's ChrootDirectory, a fresh debootstrap
    /// tree): a tree holding the built binary and the shared libraries ldd names, nothing
    /// else, not even a shell. Its arguments come from its own argv, not /proc/self/cmdline.
    @Suite(.enabled(if: getuid() == 0, "chroot needs root"))
    struct Chroot {
        let directory: TemporaryDirectory
        let root: String

        init() throws {
            directory = try TemporaryDirectory()
            root = directory.file("root")
            let script = """
                set -e
                mkdir -p "$0/etc"
                cp "$1" "$0/idlewrap"
                for lib in $(ldd "$1" | grep -o '/[^ ]*'); do
                    mkdir -p "$0$(dirname "$lib")"
                    cp -L "$lib" "$0$lib"
                done
                echo 'root:x:0:0:root:/root:/bin/sh' > "$0/etc/passwd"
                """
            let made = try TerminalDriver(["sh", "-c", script, root, TerminalDriver.idlewrap])
            try #require(made.waitForExit() == .exited(0), "cannot make the chroot: \(made.text)")
        }

        @Test func versionPrintsTheVersion() throws {
            #expect(access(root + "/proc", F_OK) != 0)
            let terminal = try TerminalDriver(["chroot", root, "/idlewrap", "--version"])
            #expect(terminal.waitForExit() == .exited(0), "\(terminal.text)")
            #expect(terminal.hasShown(Usage.version + "\r\n"), "\(terminal.text)")
            #expect(!terminal.hasShown("running"))
        }

        @Test func setPasswordWritesTheFileAndRunsNothing() throws {
            let terminal = try TerminalDriver([
                "sh", "-c", "printf '%s\\n' 'chroot secret' | chroot \"$0\" /idlewrap --set-password /password", root,
            ])
            #expect(terminal.waitForExit() == .exited(0), "\(terminal.text)")
            #expect(terminal.hasShown("idlewrap: password hash written to /password"), "\(terminal.text)")
            #expect(!terminal.hasShown("running"))
            #expect(directory.read("root/password")?.hasPrefix("$") == true)
        }
    }
}

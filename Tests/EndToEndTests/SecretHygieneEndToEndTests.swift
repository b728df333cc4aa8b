import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// Another process of the same (unprivileged) user, the wrapped command
    /// here, cannot read the keys typed at the lock screen through
    /// /proc/IDLEWRAP_PID/fd/0, while the command itself stays an ordinary
    /// process. Root would be let in anyway, so this runs as a real user,
    /// made for the test and removed after it.
    @Suite struct SecretHygiene {
        let directory: TemporaryDirectory
        let user = "iwtest\(getpid())"

        init() throws {
            directory = try TemporaryDirectory()
        }

        func run(_ arguments: [String]) throws -> TerminalDriver {
            let driver = try TerminalDriver(arguments)
            try #require(driver.waitForExit() == .exited(0), "\(arguments.joined(separator: " ")): \(driver.text)")
            return driver
        }

        @Test func theCommandCannotOpenIdlewrapsTerminalDescriptor() throws {
            _ = try run(["useradd", "--no-create-home", "--shell", "/bin/sh", user])
            let uid = try #require(getpwnam(user)?.pointee.pw_uid)
            defer {
                _ = try? TerminalDriver(["userdel", "-f", user]).waitForExit()
                // Where the user's idlewrap registered for --lock-all.
                _ = try? TerminalDriver(["rm", "-rf", RuntimeDirectory.temporaryDirectory(uid: uid)]).waitForExit()
            }
            _ = try run(["chown", user, directory.path])
            let password = directory.file("password")
            _ = try run([
                "runuser", "-u", user, "--", "sh", "-c", "printf 'open sesame\\n' | \"$0\" --set-password \"$1\"",
                TerminalDriver.idlewrap, password,
            ])
            // The probe starts once the test has given the terminal to the
            // user, as login does: otherwise the terminal's own permissions
            // would keep the user out, dumpable or not.
            let probe = """
                while [ ! -e "$0/go" ]; do sleep 0.05; done
                echo "idlewrap=$IDLEWRAP_PID"
                if (exec 3</proc/$IDLEWRAP_PID/fd/0) 2>/dev/null; then echo FD0-OPENED; else echo FD0-REFUSED; fi
                if cat /proc/$IDLEWRAP_PID/environ >/dev/null 2>&1; then echo ENVIRON-READ; else echo ENVIRON-REFUSED; fi
                sh -c 'cat /proc/$PPID/environ >/dev/null 2>&1 && echo COMMAND-IS-DUMPABLE'
                echo "core=$(ulimit -c)."
                exec sleep 1000
                """
            let terminal = try TerminalDriver([
                "runuser", "-u", user, "--", "sh", "-c",
                "ulimit -S -c 1000; exec \"$0\" --password-file \"$1\" -t 0 -- sh -c \"$2\" \"$3\"",
                TerminalDriver.idlewrap, password, probe, directory.path,
            ])
            _ = try run(["chown", user, terminal.terminal.replicaPath])
            _ = try run(["touch", directory.file("go")])
            #expect(terminal.expect("core="))
            #expect(terminal.expect("."))
            let text = terminal.text
            #expect(text.contains("FD0-REFUSED"), "\(text)")
            #expect(text.contains("ENVIRON-REFUSED"), "\(text)")
            #expect(text.contains("COMMAND-IS-DUMPABLE"), "\(text)")
            #expect(text.contains("core=1000."), "the command must get the core limit idlewrap was given: \(text)")
            let idlewrap = try #require(pid_t(text.split(separator: "idlewrap=").last?.prefix { $0.isNumber } ?? ""))
            // "Max core file size  SOFT  HARD  bytes": idlewrap's own soft limit is 0.
            let coreLimit = readText("/proc/\(idlewrap)/limits")?.split(separator: "\n")
                .first { $0.hasPrefix("Max core file size") }?.split(separator: " ").dropFirst(4).first
            #expect(coreLimit == "0")

            // The lock still works for that user.
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            kill(idlewrap, SIGUSR1)
            #expect(terminal.expect("Password for \(user):"))
            try terminal.type("open sesame\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            kill(idlewrap, SIGTERM)
            #expect(terminal.waitForExit() == .exited(143))
        }
    }
}

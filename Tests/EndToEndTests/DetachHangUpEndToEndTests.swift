import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd.Detach {
    /// The processes of `user` that hold `terminal` open, with the descriptors: also once
    /// its name is gone (the master closed), which /proc then says.
    static func holders(of terminal: String, user: String) -> [String] {
        let pids = (TestUser.output(of: ["pgrep", "-u", user]) ?? "").split(whereSeparator: \.isNewline)
        return pids.flatMap { pid in
            ((try? FileSystem.entries(ofDirectory: "/proc/\(pid)/fd")) ?? []).filter {
                let target = try? FileSystem.linkTarget(ofPath: "/proc/\(pid)/fd/\($0)")
                return target == terminal || target == terminal + " (deleted)"
            }.map { "\(pid)/fd/\($0)" }
        }
    }

    /// A dropped connection's terminal is let go of by every process of the session, the
    /// guardian too (nothing is left on it to keep locked): the pseudo-terminal is freed
    /// while the session lives on, detached, and is taken back as ever.
    @Test func aDroppedTerminalIsLetGoOf() throws {
        let fixture = try Fixture()
        let (first, pid) = try fixture.startCommand()
        let terminal = try FileSystem.linkTarget(ofPath: "/proc/\(pid)/fd/0")
        #expect(terminal.hasPrefix("/dev/pts/"), "\(terminal)")
        fixture.dropConnection(first)
        #expect(
            TerminalDriver.waitFor { Self.holders(of: terminal, user: fixture.server.user).isEmpty },
            "\(terminal) is held: \(Self.holders(of: terminal, user: fixture.server.user))")
        #expect(access("/proc/\(pid)", F_OK) == 0, "the guardian is gone")
        let counted = fixture.counter
        #expect(TerminalDriver.waitFor { fixture.counter > counted + 3 }, "the command stopped counting")
        let second = try fixture.attach(size: WindowSize(rows: 24, columns: 80))
        #expect(second.expect("Password for \(fixture.server.user):"), "\(second.text)")
        try second.type("open sesame\r")
        #expect(second.expect("\u{1b}[?1049l"), "\(second.text)")
        try fixture.server.directory.write("stop", "", mode: 0o644)
        try SSHServer.run(["cp", fixture.server.directory.file("stop"), fixture.server.home + "/STOP"])
        #expect(second.expect("stopped"), "\(second.text)")
        try second.type("quit\r")
        #expect(second.waitForExit(timeout: 60) == .exited(7), "\(second.text)")
        fixture.expectNothingLeft(pid)
    }
}

import Glibc
import Testing

@testable import PTYKit

@Suite struct PseudoTerminalTests {
    @Test func masterIsCloseOnExecAndReplicaExists() throws {
        let terminal = try PseudoTerminal()
        #expect(fcntl(terminal.master.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        #expect(terminal.replicaPath.hasPrefix("/dev/pts/"))
        #expect(access(terminal.replicaPath, F_OK) == 0)
    }

    @Test func bytesTravelBothWays() throws {
        let terminal = try PseudoTerminal()
        let replica = try FileDescriptor.open(terminal.replicaPath, O_RDWR | O_NOCTTY)
        defer { try? replica.close() }
        try TerminalAttributes.of(replica).madeRaw.apply(to: replica)
        try terminal.master.writeAll("ping")
        #expect(try readString(replica, count: 4) == "ping")
        try replica.writeAll("pong")
        #expect(try readString(terminal.master, count: 4) == "pong")
    }

    @Test func windowSizeSetOnTheMasterIsTheReplicas() throws {
        let terminal = try PseudoTerminal()
        let size = WindowSize(rows: 33, columns: 111)
        try terminal.configure(attributes: nil, size: size)
        let replica = try FileDescriptor.open(terminal.replicaPath, O_RDWR | O_NOCTTY)
        defer { try? replica.close() }
        #expect(try WindowSize.of(replica) == size)
    }

    @Test func anUnsizedTerminalIsDrawnForAt24By80() throws {
        // A pty nobody sized reports 0x0, as a serial console does.
        let terminal = try PseudoTerminal()
        let replica = try FileDescriptor.open(terminal.replicaPath, O_RDWR | O_NOCTTY)
        defer { try? replica.close() }
        let reported = try WindowSize.of(replica)
        #expect(reported == WindowSize(rows: 0, columns: 0))
        #expect(reported.drawingSize == WindowSize(rows: 24, columns: 80))
        let sizes = [(0, 132, 24, 132), (50, 0, 50, 80), (1, 1, 1, 1)]
        for (rows, columns, drawnRows, drawnColumns) in sizes {
            let size = WindowSize(rows: UInt16(rows), columns: UInt16(columns), pixelWidth: 7, pixelHeight: 9)
            #expect(
                size.drawingSize
                    == WindowSize(
                        rows: UInt16(drawnRows), columns: UInt16(drawnColumns), pixelWidth: 7, pixelHeight: 9))
        }
    }

    @Test func rawModeIsRestoredExactly() throws {
        let terminal = try PseudoTerminal()
        let replica = try FileDescriptor.open(terminal.replicaPath, O_RDWR | O_NOCTTY)
        defer { try? replica.close() }
        let before = try TerminalAttributes.of(replica)
        #expect(before.isCanonical && before.termios.c_lflag & tcflag_t(ECHO) != 0)
        let raw = try RawMode(replica)
        #expect(try !TerminalAttributes.of(replica).isCanonical)
        raw.restore()
        raw.restore()
        let after = try TerminalAttributes.of(replica)
        #expect(after.termios.c_lflag == before.termios.c_lflag && after.termios.c_iflag == before.termios.c_iflag)
        #expect(after.termios.c_oflag == before.termios.c_oflag)
    }

    @Test func rawModeIsAppliedAgainAndRestoredAtOnce() throws {
        let terminal = try PseudoTerminal()
        let replica = try FileDescriptor.open(terminal.replicaPath, O_RDWR | O_NOCTTY)
        defer { try? replica.close() }
        let before = try TerminalAttributes.of(replica)
        let raw = try RawMode(replica)
        // What a shell does to a job that stopped.
        try before.apply(to: replica)
        try raw.reapply()
        #expect(try !TerminalAttributes.of(replica).isCanonical)
        raw.restore(draining: false)
        try raw.reapply()
        #expect(try TerminalAttributes.of(replica).termios.c_lflag == before.termios.c_lflag, "restored for good")
    }
}

func readString(_ descriptor: FileDescriptor, count: Int) throws -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: count)
    while bytes.count < count {
        var slot = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        try #require(poll(&slot, 1, 10_000) == 1, "nothing arrived within 10 s")
        let n = try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in
                try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[..<(count - bytes.count)]))
            }
        }.get()
        try #require(n > 0)
        bytes += buffer[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

/// The files are read as root here (the tests run as root, as CI does), so "another
/// owner" is any other uid.
@Suite("Configuration files on disk")
struct ConfigurationFilesTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    private func refusal(_ path: String, owners: StrictModes.Owners) -> String? {
        do throws(UsageError) {
            _ = try ConfigurationFiles.read(path, owners: owners)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("a missing file is no error; a safe one is read")
    func missingAndSafe() throws {
        #expect(try ConfigurationFiles.read(directory.file("none"), owners: .root) == nil)
        #expect(try ConfigurationFiles.read(directory.file("none/config"), owners: .root) == nil)
        let path = try directory.write("config", "timeout = 1m\n", mode: 0o644)
        #expect(try ConfigurationFiles.read(path, owners: .root) == "timeout = 1m\n")
    }

    @Test("unsafe files are refused: writable by group or others, another owner, an unsafe directory")
    func unsafe() throws {
        let path = try directory.write("config", "timeout = 1m\n", mode: 0o664)
        #expect(
            refusal(path, owners: .root)
                == "\(path): unsafe configuration file: it is writable by group or others (chmod go-w fixes that)")
        chmod(path, 0o602)
        #expect(refusal(path, owners: .userOrRoot)?.contains("writable by group or others") == true)
        chmod(path, 0o644)
        try #require(chown(path, 4321, 4321) == 0)
        #expect(
            refusal(path, owners: .root) == "\(path): unsafe configuration file: it is owned by uid 4321, not by root")
        #expect(
            refusal(path, owners: .userOrRoot)
                == "\(path): unsafe configuration file: it is owned by uid 4321, not by you (uid 0) or root")
        try #require(chown(path, 0, 0) == 0)
        chmod(directory.path, 0o777)
        defer { chmod(directory.path, 0o700) }
        #expect(
            refusal(path, owners: .root)
                == "\(path): unsafe configuration file: its directory \(directory.path) is writable by group or others (chmod go-w fixes that)"
        )
    }

    @Test("not a regular file, too large, or not UTF-8")
    func notConfiguration() throws {
        #expect(
            refusal(directory.path, owners: .root) == "\(directory.path): the configuration file is not a regular file")
        let fifo = directory.file("fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        #expect(refusal(fifo, owners: .root) == "\(fifo): the configuration file is not a regular file")
        let large = try directory.write("large", String(repeating: "#\n", count: 40_000), mode: 0o600)
        #expect(refusal(large, owners: .root) == "\(large): the configuration file is larger than 65536 bytes")
        let binary = directory.file("binary")
        let descriptor = open(binary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let bytes: [UInt8] = [0x6D, 0xFF, 0x0A]
        #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == 3)
        close(descriptor)
        #expect(refusal(binary, owners: .root) == "\(binary): the configuration file is not valid UTF-8")
    }

    @Test("the system file, overridable only by root; the user's file under XDG_CONFIG_HOME or HOME")
    func paths() {
        #expect(ConfigurationFiles.systemPath(environment: { _ in nil }) == "/etc/idlewrap/config")
        #expect(
            ConfigurationFiles.systemPath(environment: { $0 == "IDLEWRAP_SYSTEM_CONFIG" ? "/t/c" : nil })
                == (getuid() == 0 ? "/t/c" : "/etc/idlewrap/config"))
        #expect(
            ConfigurationFiles.systemPath(environment: { $0 == "IDLEWRAP_SYSTEM_CONFIG" ? "" : nil })
                == "/etc/idlewrap/config")
        let environment = ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]
        #expect(ConfigurationFiles.userDirectory(environment: { environment[$0] }) == "/x/idlewrap")
        #expect(
            ConfigurationFiles.userDirectory(environment: {
                $0 == "HOME" ? "/h" : ($0 == "XDG_CONFIG_HOME" ? "rel" : nil)
            }) == "/h/.config/idlewrap")
        #expect(ConfigurationFiles.userDirectory(environment: { _ in nil }) == nil)
    }

    @Test("both files load; the user's file wins over the system file, whatever the order")
    func load() throws {
        _ = try directory.write("system", "timeout = 15m\nmessage = site\nmax-timeout = 1h\n", mode: 0o644)
        mkdir(directory.file("home"), 0o700)
        mkdir(directory.file("home/idlewrap"), 0o700)
        _ = try directory.write("home/idlewrap/config", "timeout = 10m\n", mode: 0o600)
        let environment = [
            "IDLEWRAP_SYSTEM_CONFIG": directory.file("system"), "XDG_CONFIG_HOME": directory.file("home"),
        ]
        let settings = try ConfigurationFiles.load(environment: { environment[$0] })
        #expect(settings.options.timeout == .seconds(600))
        #expect(settings.options.message == "site")
        #expect(settings.options.maxTimeout == .seconds(3600))
        #expect(
            settings.source(of: OptionTable.timeout)
                == .file(.user, path: directory.file("home/idlewrap/config"), line: 1))
    }
}

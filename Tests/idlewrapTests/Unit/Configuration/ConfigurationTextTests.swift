import Testing

@testable import TestSupport
@testable import idlewrap

private let systemPath = "/etc/idlewrap/config"
private let userPath = "/home/alice/.config/idlewrap/config"

/// The settings `text` gives as the system file (or the user's file).
private func settings(_ text: String, file: ConfigurationFile = .system) throws(UsageError) -> Settings {
    var settings = Settings()
    try ConfigurationText.apply(text, file: file, path: file == .system ? systemPath : userPath, to: &settings)
    return settings
}

/// The message `text` is refused with; nil when it is taken.
private func refusal(_ text: String, file: ConfigurationFile = .system) -> String? {
    do throws(UsageError) {
        _ = try settings(text, file: file)
        return nil
    } catch {
        return error.message
    }
}

@Suite("Configuration file text")
struct ConfigurationTextTests {
    @Test("key = value lines, comments, blank lines, blanks around key and value, CRLF")
    func accepted() throws {
        let result = try settings(
            """
            # the site's settings

            timeout = 15m
            \tkill-after=1h\t
            message = back soon # not a comment
            wipe-scrollback = yes\r
            hold-limit =64K
            lock-key = ^]
              # an indented comment
            message = two # the last value wins
            """)
        #expect(result.options.timeout == .seconds(900))
        #expect(result.options.killAfter == .seconds(3600))
        #expect(result.options.message == "two # the last value wins")
        #expect(result.options.wipeScrollback)
        #expect(result.options.holdLimit == 65_536)
        #expect(result.options.lockKey == 0x1D)
        #expect(result.source(of: OptionTable.timeout) == .file(.system, path: systemPath, line: 3))
        #expect(
            result.source(of: OptionTable.option(configKey: "message")!) == .file(.system, path: systemPath, line: 10))
        #expect(try settings("").options == Options())
        #expect(try settings("message =").options.message == nil)
        // `=` or a blank with a combining mark after it is one Character: both are found
        // among scalars (fuzz: configuration).
        #expect(try settings("message=\u{0301}x").options.message == "\u{0301}x")
        #expect(try settings("message = \u{065D}x \u{0301}").options.message == "\u{065D}x \u{0301}")
        // A line that starts with a combining mark is a line of its own.
        #expect(refusal("message = a\n\u{0301}b") == "\(systemPath):2: expected KEY = VALUE, not '\u{0301}b'")
    }

    @Test("the policy keys, in the system file")
    func policyKeys() throws {
        let result = try settings(
            """
            max-timeout = 15m
            auth-methods = pam,file
            max-kill-after = 1h
            min-password-length = 12
            shell = /bin/bash
            lock-ssh-commands = no
            """)
        #expect(result.options.maxTimeout == .seconds(900))
        #expect(result.options.authPolicy.allowed == [.pam, .file])
        #expect(result.options.maxKillAfter == .seconds(3600))
        #expect(result.options.minPasswordLength == 12)
        #expect(result.options.shell == "/bin/bash")
        #expect(!result.options.lockSSHCommands)
        #expect(Options().lockSSHCommands && Options().shell == nil)
    }

    @Test("a file's attach is --attach-at-login, not the action --attach; attach-at-login is no key")
    func attachKey() throws {
        let user = try settings("attach = never\n", file: .user)
        #expect(user.options.attachAtLogin == .never)
        #expect(user.source(of: OptionTable.attachAtLogin) == .file(.user, path: userPath, line: 1))
        let site = try settings("detach = hangup\nattach = always\nfixed = detach, attach").options
        #expect(site.attachAtLogin == .always && site.fixed == ["detach", "attach"])
        #expect(
            refusal("attach = yes")
                == "\(systemPath):1: unknown value 'yes' for attach (expected ask, always or never)")
    }

    @Test("every error names the file and the line")
    func errors() {
        let cases: [(String, ConfigurationFile, String)] = [
            ("timeout = 5m\nno equals sign", .system, "\(systemPath):2: expected KEY = VALUE, not 'no equals sign'"),
            ("\n\nbogus = 1", .system, "\(systemPath):3: unknown key 'bogus'"),
            ("--timeout = 5m", .user, "\(userPath):1: unknown key '--timeout'"),
            ("= 5m", .user, "\(userPath):1: unknown key ''"),
            (
                "attach-at-login = never", .user,
                "\(userPath):1: unknown key 'attach-at-login' (the key of --attach-at-login is attach)"
            ),
            ("timeout = 5 m", .system, "\(systemPath):1: invalid duration '5 m' for timeout"),
            ("timeout =", .user, "\(userPath):1: invalid duration '' for timeout"),
            (
                "wipe-scrollback = on", .user,
                "\(userPath):1: invalid value 'on' for wipe-scrollback (expected yes or no)"
            ),
            ("quiet =", .user, "\(userPath):1: invalid value '' for quiet (expected yes or no)"),
            ("auth = kerberos", .user, "\(userPath):1: unknown method 'kerberos' for auth (expected pam, ask or file)"),
            ("hold-limit = 8MB", .system, "\(systemPath):1: invalid size '8MB' for hold-limit"),
            ("pam-service =", .user, "\(userPath):1: option 'pam-service' needs a non-empty value"),
            (
                "max-timeout = 15m", .user,
                "\(userPath):1: 'max-timeout' can only be set in the system configuration file"
            ),
            (
                "auth-methods = pam", .user,
                "\(userPath):1: 'auth-methods' can only be set in the system configuration file"
            ),
            ("shell = /bin/sh", .user, "\(userPath):1: 'shell' can only be set in the system configuration file"),
            (
                "lock-ssh-commands = no", .user,
                "\(userPath):1: 'lock-ssh-commands' can only be set in the system configuration file"
            ),
            ("help = yes", .system, "\(systemPath):1: 'help' can only be given on the command line"),
            ("show-config = yes", .user, "\(userPath):1: 'show-config' can only be given on the command line"),
            ("set-password = /tmp/p", .system, "\(systemPath):1: 'set-password' can only be given on the command line"),
            (
                "auth-methods = pam, kerberos", .system,
                "\(systemPath):1: invalid list of methods 'pam, kerberos' for auth-methods (expected one or more of pam, ask or file, separated by commas, each once)"
            ),
            (
                "auth-methods = pam, pam", .system,
                "\(systemPath):1: invalid list of methods 'pam, pam' for auth-methods (expected one or more of pam, ask or file, separated by commas, each once)"
            ),
            (
                "auth-methods =", .system,
                "\(systemPath):1: invalid list of methods '' for auth-methods (expected one or more of pam, ask or file, separated by commas, each once)"
            ),
            (
                "min-password-length = 0", .system,
                "\(systemPath):1: invalid number '0' for min-password-length (expected a whole number from 1 to \(PasswordLineEditor.maximumLength))"
            ),
            (
                "min-password-length = +8", .system,
                "\(systemPath):1: invalid number '+8' for min-password-length (expected a whole number from 1 to \(PasswordLineEditor.maximumLength))"
            ),
            ("message = \u{1B}[2J\nbogus\u{7}", .system, "\(systemPath):2: expected KEY = VALUE, not 'bogus^G'"),
        ]
        for (text, file, message) in cases {
            #expect(refusal(text, file: file) == message, "\(text)")
        }
    }

    @Test("a policy key in the user file is also a record for the system log")
    func policyKeyInTheUserFileIsRecorded() {
        do throws(UsageError) {
            _ = try settings("\nmax-timeout = 1h", file: .user)
            Issue.record("max-timeout was taken from the user file")
        } catch {
            #expect(
                error.auditRecord
                    == "refused max-timeout from \(userPath):2: can only be set in the system configuration file")
        }
        do throws(UsageError) {
            _ = try settings("help = yes", file: .user)
        } catch {
            #expect(error.auditRecord == nil, "a command-line action in a file is a mistake, not a policy matter")
        }
    }

    @Test("the shipped sample parses as a system file, and sets what its comments promise")
    func sample() throws {
        let text = try readFile(packageDirectory + "/etc/config.sample")
        let result = try settings(text)
        #expect(result.options.timeout == .seconds(900))
        #expect(result.options.maxTimeout == .seconds(900))
        #expect(result.options.killAfter == .seconds(3600))
        #expect(result.options.maxKillAfter == .seconds(3600))
        #expect(result.options.wipeScrollback)
        #expect(!result.options.authPolicy.allows(.ask))
        #expect(result.options.minPasswordLength >= 8)
        #expect(result.options.lockSSHCommands)
    }
}

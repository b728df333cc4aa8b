import Glibc

/// sshd's effective configuration as `sshd -T` prints it (one lower-case `keyword value`
/// per line), for the host or, with `-C`, for one connection: `Match` blocks included,
/// as sshd itself decides them.
struct SSHDConfiguration: Equatable {
    static let program = "/usr/sbin/sshd"
    /// The client a per-user check pretends to be: `Match Address` and `Match Host`
    /// blocks apply as they would to a client from outside (TEST-NET-1, RFC 5737).
    static let probeAddress = "192.0.2.1"
    static let probeHost = "audit.invalid"

    /// Keyword to values, in the order printed (a few keywords repeat).
    private(set) var values: [String: [String]] = [:]
    /// The command that printed it, for evidence.
    var command = ""

    init(parsing text: String) {
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingBlanks()
            guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else { continue }
            let keyword = trimmed[..<space].lowercased()
            values[keyword, default: []].append(String(trimmed[space...].trimmingBlanks()))
        }
    }

    func value(_ keyword: String) -> String? { values[keyword]?.first }

    /// The ForceCommand in effect, nil for none.
    var forceCommand: String? {
        guard let command = value("forcecommand"), command != "none" else { return nil }
        return command
    }

    /// ClientAliveInterval × ClientAliveCountMax in seconds: how long sshd waits for an
    /// unresponsive client before it drops the connection; nil when it never does.
    var clientAliveLimit: Int? {
        guard let interval = value("clientaliveinterval").flatMap({ Int($0) }), interval > 0,
            let count = value("clientalivecountmax").flatMap({ Int($0) }), count > 0
        else { return nil }
        return interval * count
    }

    /// What went wrong running sshd, if it could not say.
    enum Failure: Error, Equatable {
        case notInstalled
        case failed(String)
    }

    /// `sshd -T` for the host (`user` nil) or for `user`'s connection, reading `file`
    /// (nil: sshd's own default).
    static func effective(file: String?, user: String?) -> Result<SSHDConfiguration, Failure> {
        guard access(program, X_OK) == 0 else { return .failure(.notInstalled) }
        var arguments = [program, "-T"]
        if let file { arguments += ["-f", file] }
        if let user { arguments += ["-C", "user=\(user),host=\(probeHost),addr=\(probeAddress)"] }
        guard let output = ProgramOutput.run(arguments, errors: true) else {
            return .failure(.failed("cannot run \(program)"))
        }
        guard output.succeeded else {
            let reason = output.text.split(separator: "\n").last.map(String.init) ?? "failed"
            return .failure(.failed("\(arguments.joined(separator: " ")): \(reason)"))
        }
        var configuration = SSHDConfiguration(parsing: output.text)
        configuration.command = arguments.joined(separator: " ")
        return .success(configuration)
    }
}

import Glibc
import PTYKit

/// Where the two configuration files are, and reading them safely: the system file
/// (site settings and policy, owned by root) and the user's file. A missing file is
/// fine; anything else wrong with one stops idlewrap before anything runs.
enum ConfigurationFiles {
    /// The system file's path, fixed when idlewrap is built.
    static let systemPath = "/etc/idlewrap/config"

    /// The system file in effect: `systemPath`, or `IDLEWRAP_SYSTEM_CONFIG` when root
    /// runs idlewrap (for tests). The variable is ignored for anyone else, who must not
    /// be able to swap the site's policy for another file, even a root-owned one (an
    /// empty root-owned file anywhere would lift every limit).
    static func systemPath(environment lookup: (String) -> String?) -> String {
        guard getuid() == 0, geteuid() == 0, let path = lookup("IDLEWRAP_SYSTEM_CONFIG"), !path.isEmpty else {
            return systemPath
        }
        return path
    }

    /// `$XDG_CONFIG_HOME/idlewrap`, else `$HOME/.config/idlewrap`: the user's directory
    /// for the configuration and password files; nil when neither variable is usable. A
    /// relative XDG_CONFIG_HOME is ignored, as the XDG base directory specification says.
    static func userDirectory(environment lookup: (String) -> String?) -> String? {
        if let config = lookup("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            return "\(config)/idlewrap"
        }
        if let home = lookup("HOME"), !home.isEmpty {
            return "\(home)/.config/idlewrap"
        }
        return nil
    }

    /// The settings of the system file, then the user's file; the lower precedence of
    /// the system file's values is `ValueSource`'s business, not the order.
    static func load(environment lookup: (String) -> String?) throws(UsageError) -> Settings {
        var settings = Settings()
        for (file, path, owners) in files(environment: lookup) {
            if let text = try read(path, owners: owners) {
                try ConfigurationText.apply(text, file: file, path: path, to: &settings)
            }
        }
        return settings
    }

    /// What `--check-config` finds: each file, whether it is there, and every problem of
    /// both, in order; `settings` are those of the good lines.
    struct Check {
        var files: [(path: String, isPresent: Bool)] = []
        var problems: [UsageError] = []
        var settings = Settings()
    }

    static func check(environment lookup: (String) -> String?) -> Check {
        var check = Check()
        for (file, path, owners) in files(environment: lookup) {
            do {
                let text = try read(path, owners: owners)
                check.files.append((path, text != nil))
                guard let text else { continue }
                check.problems += ConfigurationText.problems(
                    applying: text, file: file, path: path, to: &check.settings)
            } catch {
                check.files.append((path, true))
                check.problems.append(error)
            }
        }
        return check
    }

    /// The system file, then the user's, if there is a place for it.
    private static func files(
        environment lookup: (String) -> String?
    ) -> [(ConfigurationFile, String, StrictModes.Owners)] {
        var files = [(ConfigurationFile.system, systemPath(environment: lookup), StrictModes.Owners.root)]
        if let user = userDirectory(environment: lookup).map({ $0 + "/config" }) {
            files.append((.user, user, .userOrRoot))
        }
        return files
    }

    /// Larger than any sensible configuration.
    static let maximumSize = 65536

    /// The text of the file at `path`, checked as `TrustedFile` does; nil when there is
    /// no such file.
    static func read(_ path: String, owners: StrictModes.Owners) throws(UsageError) -> String? {
        let contents: [UInt8]
        do {
            contents = try TrustedFile.read(path, owners: owners, limit: maximumSize)
        } catch .cannotOpen(let error) where error == .noSuchFile || error == Errno(rawValue: ENOTDIR) {
            return nil
        } catch {
            throw UsageError(message: "\(path): \(description(of: error))")
        }
        return try text(of: contents, path: path)
    }

    /// `contents` as text, if it is valid UTF-8 as a configuration file must be.
    static func text(of contents: [UInt8], path: String) throws(UsageError) -> String {
        guard let text = String(validating: contents, as: UTF8.self) else {
            throw UsageError(message: "\(path): the configuration file is not valid UTF-8")
        }
        return text
    }

    private static func description(of problem: TrustedFile.Problem) -> String {
        switch problem {
        case .cannotOpen(let error): "cannot open the configuration file: \(error)"
        case .cannotExamine(let error), .cannotExamineDirectory(let error):
            "cannot examine the configuration file: \(error)"
        case .notRegularFile: "the configuration file is not a regular file"
        case .unsafe(let problem): "unsafe configuration file: it \(problem)"
        case .unsafeDirectory(let directory, let problem):
            "unsafe configuration file: its directory \(directory) \(problem)"
        case .cannotRead(let error): "cannot read the configuration file: \(error)"
        case .tooLarge: "the configuration file is larger than \(maximumSize) bytes"
        }
    }
}

import Glibc

/// The system configuration file as the audit reads it: through the reader and rules of a
/// normal run (`ConfigurationFiles.read`, then the keys and the policy), so that it is a
/// problem exactly where a run would refuse it, with the words the run would say.
struct SystemPolicyFile {
    let path: String
    /// Where the host keeps it (`path` without a test root), for evidence.
    let shownPath: String
    let exists: Bool
    /// The file's settings, defaults where it sets nothing or cannot be read.
    let settings: Settings
    /// Why a run would refuse the file, if it would.
    let problem: String?

    var options: Options { settings.options }

    init(host: AuditHost) {
        path = host.path(ConfigurationFiles.systemPath)
        shownPath = ConfigurationFiles.systemPath
        exists = access(path, F_OK) == 0
        var settings = Settings()
        var problem: String?
        var text: String?
        do {
            text = try ConfigurationFiles.read(path, owners: .root)
        } catch {
            problem = error.message.replacing(path, with: shownPath)
            // A file refused for its owner or mode (config-owner names who can write it)
            // is still judged for what it says; one too large or not UTF-8 says nothing.
            if let bytes = AuditHost.contents(of: path, limit: ConfigurationFiles.maximumSize) {
                text = try? ConfigurationFiles.text(of: bytes, path: shownPath)
            }
        }
        if let text {
            do {
                try ConfigurationText.apply(text, file: .system, path: shownPath, to: &settings)
                try settings.enforcePolicy()
            } catch {
                problem = problem ?? error.message
            }
        }
        self.settings = settings
        self.problem = problem
    }

    /// "timeout = 10m (/etc/idlewrap/config:3)" or "timeout: not set (default 5m)".
    func describe(_ option: OptionDefinition, _ value: String) -> String {
        let source = settings.source(of: option)
        if case .file(_, let file, let line) = source { return "\(file):\(line): \(option.configKey) = \(value)" }
        return "\(shownPath): \(option.configKey) not set (default \(value))"
    }
}

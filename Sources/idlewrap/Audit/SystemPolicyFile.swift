import Glibc

/// The system configuration file as the audit reads it: its settings even when idlewrap
/// itself would refuse the file (the ownership check reports that), and what is wrong.
struct SystemPolicyFile {
    let path: String
    /// Where the host keeps it (`path` without a test root), for evidence.
    let shownPath: String
    let exists: Bool
    /// The file's settings, defaults where it sets nothing or cannot be read.
    let settings: Settings
    /// Why the file's settings could not all be read, if so.
    let problem: String?

    var options: Options { settings.options }

    init(host: AuditHost) {
        path = host.path(ConfigurationFiles.systemPath)
        shownPath = ConfigurationFiles.systemPath
        var settings = Settings()
        var problem: String?
        if let text = AuditHost.text(of: path) {
            exists = true
            do {
                try ConfigurationText.apply(text, file: .system, path: shownPath, to: &settings)
                try settings.enforcePolicy()
            } catch {
                problem = error.message
            }
        } else {
            exists = access(path, F_OK) == 0
            if exists { problem = "\(shownPath): cannot be read" }
        }
        self.settings = settings
        self.problem = problem
    }

    /// "timeout = 10m (/etc/idlewrap/config:3)" or "timeout: not set (default 5m)".
    func describe(_ option: OptionDefinition, _ value: String) -> String {
        let source = settings.source(of: option)
        if case .file(_, let file, let line) = source { return "\(file):\(line): \(option.long) = \(value)" }
        return "\(shownPath): \(option.long) not set (default \(value))"
    }
}

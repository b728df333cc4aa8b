import PTYKit

/// `--check-config`: reads the system file and the user's as a run would, and says every
/// problem on stderr, not only the first (which is all a run says before it stops), then
/// what each file came to on stdout. Exit status 0 when there is none, else 125.
enum ConfigurationCheck {
    static func run(environment: Environment) -> Int32 {
        let lookup = { (name: String) in environment[name] }
        var check = ConfigurationFiles.check(environment: lookup)
        // What the files and the environment come to together (IDLEWRAP_TIMEOUT, site
        // policy): only once each file is fine on its own, as a run sees them.
        if check.problems.isEmpty {
            do {
                _ = try Options.parse([], environment: lookup, startingFrom: check.settings)
            } catch {
                check.problems.append(error)
            }
        }
        for problem in check.problems { Diagnostics.error(problem.message) }
        var report = ""
        for (path, isPresent) in check.files {
            let count = check.problems.filter { $0.message.hasPrefix(path + ":") }.count
            let verdict =
                !isPresent ? "not there" : count == 0 ? "fine" : count == 1 ? "1 problem" : "\(count) problems"
            report += "\(terminalSafe(path)): \(verdict)\n"
        }
        report += check.problems.isEmpty ? "no problems\n" : "\(check.problems.count) in all\n"
        try? FileDescriptor.standardOutput.writeAll(report)
        return check.problems.isEmpty ? ExitStatus.success : ExitStatus.failure
    }
}

import CPTYShims

/// The process's own arguments, from main's argv as the C library passed it, never from
/// /proc/self/cmdline, which Swift's `CommandLine.arguments` reads on Linux: in a chroot
/// without /proc that is empty, and idlewrap would ignore every option (`--version` would
/// run the shell, `--set-password`'s input would go to it as commands).
enum ProcessArguments {
    static var current: [String] {
        let count = Int(cpty_argument_count())
        guard count > 0, let vector = cpty_argument_vector() else { return CommandLine.arguments }
        return (0..<count).map { vector[$0].map { String(cString: $0) } ?? "" }
    }
}

import PTYKit

/// idlewrap's own exit statuses, as `env`, `timeout` and `nice` use them.
enum ExitStatus {
    static let success: Int32 = 0
    /// Bad usage or a failure of idlewrap itself.
    static let failure: Int32 = 125
    static let cannotExecute: Int32 = 126
    static let notFound: Int32 = 127

    static func killed(by signal: Int32) -> Int32 { TerminationStatus.signaled(signal).shellStatus }

    static func of(_ error: PTYError) -> Int32 {
        switch error.code {
        case .commandNotFound: return notFound
        case .commandNotExecutable: return cannotExecute
        default: return failure
        }
    }
}

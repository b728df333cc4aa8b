extension LockController {
    /// What the command line and the configuration say about locking.
    struct Settings {
        var timeout: Duration
        var lockKey: UInt8?
        var message: String?
        var screenKind: LockScreenKind
        /// The program's name and the host, for the lock screen.
        var program: String
        var host: String
        var user: UserName
        /// How long before an idle lock the title counts down; 0: no warning.
        var warn: Duration = .zero
        /// Ring once when the command exits while locked.
        var bellOnExit = false
    }
}

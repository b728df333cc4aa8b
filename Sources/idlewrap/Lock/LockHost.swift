import PTYKit

/// What the lock acts on besides the command's screen: the terminal, the command's input,
/// and whoever records and announces lock events. The session implements it over the
/// relay; tests implement it with recorders.
protocol LockHost: AnyObject {
    /// Writes the lock's own bytes to the terminal.
    func show(_ bytes: UnsafeRawBufferPointer)
    func forward(_ bytes: UnsafeRawBufferPointer)
    func discardTypedAhead()
    var windowSize: WindowSize { get }
    /// A descriptor to poll for the authenticator, or nil.
    func watch(_ descriptor: FileDescriptor?)
    /// A lock is asked for: called before anything of it shows, so that a session that
    /// ends abnormally from here on stays locked (`Guardian`).
    func lockWillEngage()
    func lockDidEngage()
    func lockDidRelease()
    func unlockDidFail(message: String, failures: Int)
    func checkIsUnavailable(reason: String)
}

extension LockHost {
    func show(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { show($0) }
    }
}

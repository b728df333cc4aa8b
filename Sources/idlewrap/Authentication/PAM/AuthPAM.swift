import CAuthShims
import Glibc
import PTYKit

/// The `pam` method: the user's login password (or whatever the service's
/// stack asks) through PAM. Each attempt is a fresh PAM transaction
/// (pam_start, pam_authenticate, pam_end) on a thread of its own, so a slow
/// module never stalls the relay; each question is handed to the lock screen
/// through a `PAMConversation`.
///
/// Choices:
/// - After pam_authenticate succeeds, the account phase runs too
///   (pam_acct_mgmt, then pam_setcred(PAM_REFRESH_CRED), as kbd's vlock
///   does): it is what resets pam_faillock's tally of failures, so typos
///   spread over days do not add up to a system-wide lock-out, and it notices
///   an account that has expired or been locked since. When it refuses, the
///   session stays locked and the lock screen shows why. A password that must
///   be changed is not changed here (a lock screen is no place for
///   pam_chauthtok's dialogue): the user is told to change it elsewhere.
/// - PAM_DISALLOW_NULL_AUTHTOK is passed, and a stack that succeeds without
///   having asked a hidden question (pam_permit, pam_rootok) does not unlock:
///   nothing unlocks without a password.
/// - PAM_FAIL_DELAY is set to a function that does not sleep: idlewrap has
///   its own back-off after a wrong password.
/// - PAM's own "Password: " prompt is shown as "Password for USER:".
final class PAMAuthenticator: Authenticator {
    struct Settings {
        var service: String
        var configurationDirectory: String?
        var user: String
        /// PAM_TTY: the terminal's path, e.g. /dev/pts/3.
        var terminalName: String?
        /// PAM_RHOST: the ssh client's address.
        var remoteHost: String?
    }

    private let library: PAMLibrary
    private let settings: Settings
    /// Why the stack's account phase refused the user at start, or nil: PAM
    /// would then refuse every right password, so the caller must not lock
    /// with this authenticator.
    let accountProblem: String?

    init(library: PAMLibrary, settings: Settings, accountProblem: String? = nil) {
        self.library = library
        self.settings = settings
        self.accountProblem = accountProblem
    }

    /// Loads libpam and checks that the service can be started, so that a
    /// broken setup is reported before the command runs. A service with no
    /// file of its own is reported through `notice`; if PAM would then fall
    /// back to an `other` stack that denies everyone, it is refused: a lock
    /// nobody can open must not start. The account phase (pam_acct_mgmt, which
    /// needs no password) runs once too: a stack that refuses it (a service
    /// file without `account` lines, an expired or disabled account) would
    /// refuse every unlock; `accountProblem` then says why.
    static func make(
        service: String, configurationDirectory: String?, user: String, terminal: FileDescriptor,
        environment lookup: (String) -> String?, notice: (String) -> Void
    ) throws(AuthenticationError) -> PAMAuthenticator {
        let library = try PAMLibrary.loaded.get()
        if let directory = configurationDirectory {
            let info: stat
            do {
                info = try FileSystem.status(ofPath: directory)
            } catch {
                throw AuthenticationError(description: "PAM configuration directory \(directory): \(error)")
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw AuthenticationError(description: "PAM configuration directory \(directory) is not a directory")
            }
        }
        if case .missing(let searched, let otherDenies) = PAMServiceFile.locate(
            service: service, configurationDirectory: configurationDirectory)
        {
            let missing = "no PAM service file \(service) in \(searched.joined(separator: " or "))"
            guard !otherDenies else {
                throw AuthenticationError(
                    description:
                        "\(missing), and PAM's fallback service 'other' denies everyone, so the lock could never be opened; install one (see 'make install') or use --auth ask or file"
                )
            }
            notice("\(missing); PAM uses the service 'other' instead")
        }
        let settings = Settings(
            service: service, configurationDirectory: configurationDirectory, user: user,
            terminalName: terminal.terminalPath(),
            remoteHost: lookup("SSH_CONNECTION")?.split(separator: " ").first.map(String.init))
        let transaction = PAMTransaction(library: library, settings: settings, attempt: nil)
        let accountProblem: String?
        switch transaction.start() {
        case .success(let handle):
            let status = library.accountManagement(handle, PAMConstant.silent)
            accountProblem = describeAccountRefusal(status, handle: handle, library: library, settings: settings)
            transaction.end(handle, status: status)
        case .failure(let failure):
            throw AuthenticationError(description: "PAM is not available: \(failure.reason)")
        }
        return PAMAuthenticator(library: library, settings: settings, accountProblem: accountProblem)
    }

    /// Why the account phase's `status` at start means no unlock could ever
    /// pass, or nil when it passed.
    private static func describeAccountRefusal(
        _ status: Int32, handle: OpaquePointer, library: PAMLibrary, settings: Settings
    ) -> String? {
        switch status {
        case PAMConstant.success:
            return nil
        case PAMConstant.newAuthenticationTokenRequired:
            return "\(settings.user)'s password has expired (PAM service \(settings.service)), so the lock could not be"
                + " opened until it is changed; change it (passwd) first"
        default:
            return "PAM service \(settings.service) refuses \(settings.user)'s account (pam_acct_mgmt:"
                + " \(library.describe(status, handle: handle))), so the lock could never be opened"
        }
    }

    func beginAttempt() -> AuthConversation {
        do {
            let exchange = try PAMExchange()
            try PAMAttempt(library: library, settings: settings, exchange: exchange).start()
            return PAMConversation(exchange: exchange)
        } catch {
            return UnavailableConversation(reason: "cannot start the PAM check: \(error)")
        }
    }
}

/// The relay's view of one PAM attempt.
final class PAMConversation: AuthConversation {
    private let exchange: PAMExchange

    init(exchange: PAMExchange) {
        self.exchange = exchange
    }

    deinit {
        exchange.cancel()
    }

    var readiness: FileDescriptor? { exchange.readiness }

    func currentStep() -> AuthStep { exchange.currentStep() }

    func takeNotices() -> [String] { exchange.takeNotices() }

    func answer(_ secret: SecretBuffer) { exchange.answer(secret) }

    func cancel() { exchange.cancel() }
}

/// An attempt that could not even start.
private final class UnavailableConversation: AuthConversation {
    private let reason: String

    init(reason: String) {
        self.reason = reason
    }

    var readiness: FileDescriptor? { nil }
    func currentStep() -> AuthStep { .unavailable(reason: reason) }
    func takeNotices() -> [String] { [] }
    func answer(_ secret: SecretBuffer) {}
    func cancel() {}
}

/// One attempt's PAM transaction on its own detached thread, which holds
/// the attempt (and through it the exchange) until PAM is done.
final class PAMAttempt: @unchecked Sendable {
    private let library: PAMLibrary
    private let settings: PAMAuthenticator.Settings
    private let exchange: PAMExchange
    /// Questions answered so far, and of them the hidden ones; touched only
    /// by the PAM thread.
    private var answers = 0
    private var hiddenAnswers = 0

    init(library: PAMLibrary, settings: PAMAuthenticator.Settings, exchange: PAMExchange) {
        self.library = library
        self.settings = settings
        self.exchange = exchange
    }

    func start() throws(Errno) {
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<PAMAttempt>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, retained)
        guard result == 0 else {
            Unmanaged<PAMAttempt>.fromOpaque(retained).release()
            throw Errno(rawValue: result)
        }
        pthread_detach(thread)
    }

    private func run() {
        let transaction = PAMTransaction(library: library, settings: settings, attempt: self)
        let handle: OpaquePointer
        switch transaction.start() {
        case .success(let started): handle = started
        case .failure(let failure):
            exchange.finish(.unavailable(reason: failure.reason))
            return
        }
        let status = library.authenticate(handle, PAMConstant.disallowNullAuthenticationToken)
        let step = verdict(status, handle: handle)
        transaction.end(handle, status: status)
        exchange.finish(step)
    }

    private func verdict(_ status: Int32, handle: OpaquePointer) -> AuthStep {
        // Whatever the stack made of the failed conversation, nobody waits
        // for this verdict any more.
        if exchange.isCancelled { return .unavailable(reason: "cancelled") }
        switch status {
        case PAMConstant.success:
            guard hiddenAnswers > 0 else {
                return .unavailable(
                    reason:
                        "PAM service \(settings.service) accepted without asking for a password; idlewrap does not unlock that way"
                )
            }
            // A module may change the user; only the invoking user's password
            // unlocks (as screen lockers check).
            guard authenticatedUser(handle) == settings.user else {
                return .unavailable(reason: "PAM service \(settings.service) authenticated another user")
            }
            return accountVerdict(handle)
        case _ where answers == 0:
            // Nobody was asked anything (pam_deny alone, a module that
            // cannot run): no password was wrong, and no attempt counts.
            return .unavailable(
                reason:
                    "cannot check: PAM service \(settings.service) failed without asking for a password (\(library.describe(status, handle: handle)))"
            )
        case PAMConstant.authenticationError, PAMConstant.userUnknown, PAMConstant.maximumTries,
            PAMConstant.credentialsInsufficient:
            return .failed(message: "Wrong password")
        default:
            return .unavailable(reason: "PAM: \(library.describe(status, handle: handle))")
        }
    }

    /// The account phase after a right password: unlocks only when it
    /// agrees. PAM's own messages (e.g. "Your account has expired") reach the
    /// lock screen through the conversation as notices.
    private func accountVerdict(_ handle: OpaquePointer) -> AuthStep {
        let status = library.accountManagement(handle, PAMConstant.disallowNullAuthenticationToken)
        if exchange.isCancelled { return .unavailable(reason: "cancelled") }
        switch status {
        case PAMConstant.success:
            // Best effort: a credential that cannot be refreshed (an expired
            // Kerberos ticket) must not keep the user out of their session.
            _ = library.setCredentials(handle, PAMConstant.refreshCredentials)
            return .succeeded
        case PAMConstant.newAuthenticationTokenRequired:
            return .unavailable(reason: "Your password has expired: change it (passwd) from another login, then unlock")
        default:
            return .unavailable(reason: "PAM account check refused: \(library.describe(status, handle: handle))")
        }
    }

    private func authenticatedUser(_ handle: OpaquePointer) -> String? {
        var item: UnsafeRawPointer?
        guard library.getItem(handle, PAMConstant.user, &item) == PAMConstant.success, let item else { return nil }
        return String(cString: item.assumingMemoryBound(to: CChar.self))
    }

    /// Answers one call of PAM's conversation function, on the PAM thread.
    fileprivate func converse(
        _ messages: UnsafeMutablePointer<UnsafePointer<cauth_pam_message>?>, count: Int
    ) -> (Int32, UnsafeMutablePointer<cauth_pam_response>?) {
        guard
            let replies = calloc(count, MemoryLayout<cauth_pam_response>.stride)?
                .bindMemory(to: cauth_pam_response.self, capacity: count)
        else { return (PAMConstant.bufferError, nil) }
        for index in 0..<count {
            guard let message = messages[index]?.pointee else {
                Self.discard(replies, count: count)
                return (PAMConstant.conversationError, nil)
            }
            let text = message.msg.map { String(cString: $0) } ?? ""
            switch message.msg_style {
            case PAMConstant.promptEchoOff, PAMConstant.promptEchoOn:
                let hidden = message.msg_style == PAMConstant.promptEchoOff
                guard let answer = exchange.ask(prompt: prompt(for: text)) else {
                    Self.discard(replies, count: count)
                    return (PAMConstant.conversationError, nil)
                }
                replies[index].resp = answer
                answers += 1
                if hidden { hiddenAnswers += 1 }
            case PAMConstant.errorMessage, PAMConstant.textInfo:
                exchange.post(notice: text)
            default:
                Self.discard(replies, count: count)
                return (PAMConstant.conversationError, nil)
            }
        }
        return (PAMConstant.success, replies)
    }

    private func prompt(for text: String) -> String {
        var trimmed = Substring(text)
        while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
        return trimmed == "Password:" ? passwordPrompt(for: settings.user) : String(trimmed)
    }

    private static func discard(_ replies: UnsafeMutablePointer<cauth_pam_response>, count: Int) {
        for index in 0..<count {
            if let answer = replies[index].resp { PAMExchange.discard(answer) }
        }
        free(replies)
    }
}

/// Starting and ending one PAM handle with idlewrap's items set.
private struct PAMTransaction {
    let library: PAMLibrary
    let settings: PAMAuthenticator.Settings
    /// Whose conversation answers PAM's questions; nil for the setup check,
    /// which never authenticates.
    let attempt: PAMAttempt?

    /// A started handle, or why PAM could not start.
    func start() -> Result<OpaquePointer, StartFailure> {
        // libpam copies the pam_conv structure in pam_start.
        var callbacks = cauth_pam_conv(
            conv: pamConversation,
            appdata_ptr: attempt.map { Unmanaged.passUnretained($0).toOpaque() })
        let service = settings.service
        var handle: OpaquePointer?
        let status: Int32
        if let directory = settings.configurationDirectory {
            guard let startIn = library.startWithConfigurationDirectory else {
                return .failure(
                    StartFailure(
                        reason: "\(PAMLibrary.soname) is too old for --pam-confdir (it lacks pam_start_confdir)"))
            }
            status = startIn(service, settings.user, &callbacks, directory, &handle)
        } else {
            status = library.start(service, settings.user, &callbacks, &handle)
        }
        guard status == PAMConstant.success, let handle else {
            return .failure(
                StartFailure(reason: "cannot start PAM service \(service): \(library.describe(status, handle: nil))"))
        }
        if let name = settings.terminalName {
            _ = library.setItem(handle, PAMConstant.terminal, name)
        }
        if let host = settings.remoteHost {
            _ = library.setItem(handle, PAMConstant.remoteHost, host)
        }
        _ = library.setItem(
            handle, PAMConstant.failDelay,
            unsafeBitCast(skipFailDelay as cauth_pam_fail_delay, to: UnsafeRawPointer.self))
        return .success(handle)
    }

    func end(_ handle: OpaquePointer, status: Int32) {
        _ = library.end(handle, status)
    }

    struct StartFailure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }
}

/// PAM's conversation function: forwards to the attempt in `context`.
private func pamConversation(
    count: Int32, messages: UnsafeMutablePointer<UnsafePointer<cauth_pam_message>?>?,
    responses: UnsafeMutablePointer<UnsafeMutablePointer<cauth_pam_response>?>?,
    context: UnsafeMutableRawPointer?
) -> Int32 {
    guard let context, let messages, let responses, count > 0, count <= PAMConstant.maximumMessages else {
        return PAMConstant.conversationError
    }
    let attempt = Unmanaged<PAMAttempt>.fromOpaque(context).takeUnretainedValue()
    let (status, replies) = attempt.converse(messages, count: Int(count))
    responses.pointee = replies
    return status
}

/// The PAM_FAIL_DELAY function: libpam calls it instead of sleeping.
private func skipFailDelay(status: Int32, delay: UInt32, context: UnsafeMutableRawPointer?) {}

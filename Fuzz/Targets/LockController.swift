import Glibc
import PTYKit
@testable import idlewrap

// Drives the lock through its LockHost with fuzzer-chosen typing, command
// output, lock requests (SIGUSR1 or the lock key), resizes, clock steps and
// authenticator behaviour, and checks the two promises of the lock:
// - while locked, no typed byte reaches the command;
// - it unlocks only after the exact password line was answered and the
//   authenticator said yes;
// and that after every unlock the terminal shows exactly the command's screen (a
// model fed everything shown against one fed everything the command wrote), a
// sequence cut short by the lock and finished while locked included.
//
// Input: a stream of operations, each a byte choosing it and its arguments.

private let password: [UInt8] = Array("hunter2".utf8)

final class FuzzClock: TimeSource {
    var current = MonotonicInstant(nanoseconds: 1_000_000_000)
    func now() -> MonotonicInstant { current }
    func wallTime() -> time_t { 1_800_000_000 + time_t(current.nanoseconds / 1_000_000_000) }
}

/// What the fuzzer decides while the lock runs (the authenticator's moves).
final class Choices {
    var input: FuzzInput
    init(_ input: FuzzInput) { self.input = input }
}

final class FuzzAuthenticator: Authenticator {
    let choices: Choices
    /// The conversation the lock last started; only it may have said yes. Kept here: the
    /// lock lets go of a conversation as soon as it said yes.
    var latest: Conversation?

    init(choices: Choices) { self.choices = choices }

    final class Conversation: AuthConversation {
        private let choices: Choices
        private var step: AuthStep
        /// Checks still to report as `.working` before the verdict.
        private var pendingChecks = 0
        /// What `.working` turns into: the first question, or the verdict on the answer.
        private var afterWork = AuthStep.asking(prompt: "Password:")
        private var notices: [String] = []
        private(set) var answeredPassword = false

        init(choices: Choices) {
            self.choices = choices
            switch choices.input.choice(8) {
            case 0: step = .unavailable(reason: "broken")
            case 1: step = .working  // PAM before its first question
            default: step = .asking(prompt: "Password:")
            }
            if step == .working { pendingChecks = choices.input.choice(3) }
        }

        var readiness: FileDescriptor? { nil }

        func currentStep() -> AuthStep {
            if step == .working {
                if pendingChecks > 0 {
                    pendingChecks -= 1
                } else {
                    step = afterWork
                }
            }
            return step
        }

        func takeNotices() -> [String] {
            defer { notices = [] }
            return notices
        }

        func answer(_ secret: SecretBuffer) {
            guard case .asking = step else { return }
            let typed = secret.withBytes { Array($0) }
            answeredPassword = typed == password
            var verdict = answeredPassword ? AuthStep.succeeded : .failed(message: "Wrong password")
            if !answeredPassword && choices.input.choice(4) == 0 { verdict = .unavailable(reason: "gone") }
            if choices.input.choice(2) == 0 { notices.append("checking") }
            if choices.input.choice(2) == 0 {
                step = .working
                afterWork = verdict
                pendingChecks = choices.input.choice(3)
            } else {
                step = verdict
            }
        }

        func cancel() { step = .unavailable(reason: "cancelled") }
    }

    func beginAttempt() -> AuthConversation {
        let conversation = Conversation(choices: choices)
        latest = conversation
        return conversation
    }
}

final class CheckingHost: LockHost {
    weak var lock: LockController?
    var authenticator: FuzzAuthenticator?
    var windowSize = WindowSize(rows: 24, columns: 80)
    /// Between lockDidEngage and lockDidRelease.
    var locked = false
    /// What a terminal shows of everything written to it.
    let terminal = ScreenModel(rows: 24, columns: 80)
    /// What the command's screen is: everything it wrote, with no lock in between.
    let reference = ScreenModel(rows: 24, columns: 80)

    func show(_ bytes: UnsafeRawBufferPointer) {
        terminal.feed(bytes)
    }

    func resize(to size: WindowSize) {
        windowSize = size
        terminal.resize(rows: Int(size.rows), columns: Int(size.columns))
        reference.resize(rows: Int(size.rows), columns: Int(size.columns))
    }

    func checkScreenIsExact(_ moment: String) {
        require(
            terminal.snapshot().withoutInputModes == reference.snapshot().withoutInputModes,
            "the terminal does not show the command's screen \(moment)")
        let (shown, wanted) = (terminal.modes, reference.modes)
        for mode in ScreenModes.inputPrivateModes {
            require(shown.isSet(mode) == wanted.isSet(mode), "mode \(mode) \(moment)")
        }
        require(shown.applicationKeypad == wanted.applicationKeypad, "keypad \(moment)")
        require(shown.kittyKeyboardFlags == wanted.kittyKeyboardFlags, "kitty flags \(moment)")
        require(shown.modifyOtherKeys == wanted.modifyOtherKeys, "modifyOtherKeys \(moment)")
        require(shown.keyboardLocked == wanted.keyboardLocked, "KAM \(moment)")
        require(shown.localEcho == wanted.localEcho, "SRM \(moment)")
    }

    func forward(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        require(!locked, "typed bytes forwarded to the command while locked")
        if let lock { require(!lock.isLocked, "typed bytes forwarded in state \(lock.state)") }
    }

    func discardTypedAhead() {}
    func watch(_ descriptor: FileDescriptor?) {}

    func lockWillEngage() {}

    func lockDidEngage() {
        require(!locked, "locked twice without an unlock")
        locked = true
    }

    func lockDidRelease() {
        require(locked, "unlocked without a lock")
        require(authenticator?.latest?.answeredPassword == true, "unlocked without the password being answered")
        locked = false
        checkScreenIsExact("after an unlock")
    }

    func unlockDidFail(message: String, failures: Int) {}
    func checkIsUnavailable(reason: String) {}
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let choices = Choices(FuzzInput(data, size))
    let clock = FuzzClock()
    let host = CheckingHost()
    let authenticator = FuzzAuthenticator(choices: choices)
    host.authenticator = authenticator
    let lockKey: UInt8? = choices.input.choice(2) == 0 ? 0x1D : nil
    let screen = CommandScreen(size: host.windowSize, holdLimit: 1 + choices.input.choice(64)) { host.show($0) }
    let lock = LockController(
        settings: LockController.Settings(
            timeout: .seconds(1 + choices.input.choice(4)), lockKey: lockKey, message: nil,
            // Only the full lock screen gives the command's screen back exactly, as checked.
            screenKind: .full(wipeScrollback: choices.input.choice(2) == 0),
            program: "sh", host: "fuzzhost", user: "fuzz"),
        authenticator: authenticator, clock: clock, host: host, screen: screen)
    host.lock = lock

    while !choices.input.isAtEnd {
        let operation = choices.input.choice(10)
        switch operation {
        case 0, 1:
            let bytes = choices.input.take(choices.input.choice(32))
            bytes.withUnsafeBytes { lock.handleInput($0) }
        case 2:
            let line = password + (choices.input.choice(2) == 0 ? [0x0D] : [0x0A, 0x78])
            line.withUnsafeBytes { lock.handleInput($0) }
        case 3, 4:
            let bytes = choices.input.take(choices.input.choice(32))
            bytes.withUnsafeBytes { output in
                // As the session does: nothing is followed once the session ends.
                guard lock.state != .abandoned else { return }
                host.reference.feed(output)
                screen.follow(output)
            }
        case 5:
            lock.requestLock()
        case 6:
            // As the session does on SIGWINCH.
            host.resize(to: WindowSize(rows: UInt16(choices.input.choice(60)), columns: UInt16(choices.input.choice(200))))
            screen.resize(host.windowSize)
            lock.handleResize()
        case 7:
            clock.current = clock.current + .milliseconds(50 * Int(choices.input.byte()))
            lock.handleDeadline()
        case 8:
            if let deadline = lock.nextDeadline { clock.current = max(clock.current, deadline) }
            lock.handleDeadline()
        default:
            lock.handleAuthenticatorReadiness()
        }
        require(host.locked == lock.isLocked || lock.state == .abandoned, "the host was told \(host.locked), the lock is \(lock.state)")
    }
    if lock.state == .active { host.checkScreenIsExact("at the end") }
    if choices.input.choice(2) == 0 { lock.abandon() }
    return 0
}

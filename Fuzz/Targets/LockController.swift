import Glibc
import PTYKit
@testable import idlewrap

// Drives the lock through its LockHost with fuzzer-chosen typing, command
// output, lock requests (SIGUSR1 or the lock key), resizes, clock steps and
// authenticator behaviour, and checks the two promises of the lock:
// - while locked, no typed byte reaches the command;
// - it unlocks only after the exact password line was answered and the
//   authenticator said yes;
// and that the command's output reaches the screen whole and in order across
// locks, a sequence cut short by the lock sent again at the unlock.
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
    /// The conversation the lock last started; only it may have said yes.
    weak var latest: Conversation?

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
    var isReadingOutput = true
    var windowSize = WindowSize(rows: 24, columns: 80)
    /// Between lockDidEngage and lockDidRelease.
    var locked = false

    /// What the command wrote, all of it.
    var written: [UInt8] = []
    /// The command's output as shown, cut into segments where the lock cut a sequence
    /// short, with how much had been written at each cut.
    var shownSegments: [[UInt8]] = [[]]
    var writtenAtCuts: [Int] = []
    /// Set by the harness while it asks the lock to act on its deadline.
    var inDeadline = false
    private var showingLockScreen = false
    private var nextShowLeavesLockScreen = false

    // The lock screen comes between discardTypedAhead and lockDidEngage's redraws
    // (engage), and ends with the first show after discardTypedAhead at release.
    func show(_ bytes: UnsafeRawBufferPointer) {
        if nextShowLeavesLockScreen {
            nextShowLeavesLockScreen = false
            showingLockScreen = false
            return
        }
        guard !showingLockScreen, let lock, lock.state != .abandoned else { return }
        if inDeadline, case .locking = lock.state {
            require(Array(bytes) == OutputParser.cut, "the lock showed something else than the cut in a deadline")
            writtenAtCuts.append(written.count)
            shownSegments.append([])
            return
        }
        shownSegments[shownSegments.count - 1] += bytes
    }

    /// The command's output reaches the screen whole, in order, once: each segment is
    /// the written bytes from where the one before it ended, or a little before it (the
    /// sequence cut short, sent again), up to the next cut or to what is still held.
    func checkOutputIsExact(held: Int) {
        var end = 0
        for (index, segment) in shownSegments.enumerated() {
            let until = index < writtenAtCuts.count ? writtenAtCuts[index] : written.count - held
            let start = until - segment.count
            require(start >= 0 && start <= end, "segment \(index) shows bytes never written, or skips some")
            require(end - start <= OpenSequence.limit, "segment \(index) sends back more than the limit")
            require(segment.elementsEqual(written[start..<until]), "segment \(index) differs from what was written")
            end = until
        }
    }

    func forward(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        require(!locked, "typed bytes forwarded to the command while locked")
        if let lock { require(!lock.isLocked, "typed bytes forwarded in state \(lock.state)") }
    }

    func discardTypedAhead() {
        if locked { nextShowLeavesLockScreen = true } else { showingLockScreen = true }
    }
    func nudgeRedraw() {}
    func watch(_ descriptor: FileDescriptor?) {}

    func lockDidEngage() {
        require(!locked, "locked twice without an unlock")
        locked = true
    }

    func lockDidRelease() {
        require(locked, "unlocked without a lock")
        require(authenticator?.latest?.answeredPassword == true, "unlocked without the password being answered")
        locked = false
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
    let lock = LockController(
        settings: LockController.Settings(
            timeout: .seconds(1 + choices.input.choice(4)), holdLimit: 1 + choices.input.choice(64),
            lockKey: lockKey, message: nil, wipeScrollback: choices.input.choice(2) == 0, program: "sh", host: "fuzzhost",
            user: "fuzz"),
        authenticator: authenticator, clock: clock, host: host)
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
            if lock.state != .abandoned { host.written += bytes }
            bytes.withUnsafeBytes { lock.handleOutput($0) }
        case 5:
            lock.requestLock()
        case 6:
            host.windowSize = WindowSize(rows: UInt16(choices.input.choice(60)), columns: UInt16(choices.input.choice(200)))
            lock.handleResize()
        case 7:
            clock.current = clock.current + .milliseconds(50 * Int(choices.input.byte()))
            host.inDeadline = true
            lock.handleDeadline()
            host.inDeadline = false
        case 8:
            if let deadline = lock.nextDeadline { clock.current = max(clock.current, deadline) }
            host.inDeadline = true
            lock.handleDeadline()
            host.inDeadline = false
        default:
            lock.handleAuthenticatorReadiness()
        }
        require(host.locked == lock.isLocked || lock.state == .abandoned, "the host was told \(host.locked), the lock is \(lock.state)")
    }
    host.checkOutputIsExact(held: lock.heldByteCount)
    if choices.input.choice(2) == 0 { lock.abandon() }
    return 0
}

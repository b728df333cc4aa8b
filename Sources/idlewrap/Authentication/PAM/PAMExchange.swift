import CAuthShims
import Glibc
import PTYKit

/// What the relay thread and one attempt's PAM thread share: the current
/// question or verdict, the answer on its way, notices and cancellation, all
/// under one mutex, and an event counter that wakes the relay's poll when
/// something changed. Whoever of the two lets go last frees it, so a PAM thread that
/// outlives its cancelled conversation never writes to a closed descriptor.
final class PAMExchange: @unchecked Sendable {
    private enum Phase {
        case working
        case asking(prompt: String)
        /// A malloc'd copy of the answer (nil when malloc failed), not yet
        /// taken by the PAM thread.
        case answered(UnsafeMutablePointer<CChar>?)
        case finished(AuthStep)
    }

    /// Signalled when the phase changed or notices arrived.
    private let changes: EventCounter
    /// Readable when the phase changed or notices arrived.
    var readiness: FileDescriptor { changes.descriptor }
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var phase = Phase.working
    private var notices: [String] = []
    private var cancelled = false

    init() throws(Errno) {
        changes = try EventCounter()
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        if case .answered(let pending?) = phase {
            Self.discard(pending)
        }
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    // MARK: The relay's side

    func currentStep() -> AuthStep {
        changes.reset()
        return locked {
            switch phase {
            case .working, .answered: .working
            case .asking(let prompt): .asking(prompt: prompt)
            case .finished(let step): step
            }
        }
    }

    func takeNotices() -> [String] {
        locked {
            defer { notices = [] }
            return notices
        }
    }

    /// Hands a malloc'd copy of `secret` to the waiting PAM thread; libpam
    /// frees it once the module is done with it.
    func answer(_ secret: SecretBuffer) {
        locked {
            guard case .asking = phase else { return }
            let copy = secret.withBytes { bytes in
                let copy = malloc(bytes.count + 1)?.assumingMemoryBound(to: CChar.self)
                if let copy {
                    if let source = bytes.baseAddress { memcpy(copy, source, bytes.count) }
                    copy[bytes.count] = 0
                }
                return copy
            }
            phase = .answered(copy)
            pthread_cond_broadcast(changed)
        }
    }

    func cancel() {
        locked {
            cancelled = true
            pthread_cond_broadcast(changed)
        }
    }

    // MARK: The PAM thread's side

    var isCancelled: Bool {
        locked { cancelled }
    }

    /// Publishes a question and waits for its answer: a malloc'd string for
    /// libpam to free, or nil when the attempt was cancelled or out of memory.
    func ask(prompt: String) -> UnsafeMutablePointer<CChar>? {
        let asked = locked { () -> Bool in
            guard !cancelled else { return false }
            phase = .asking(prompt: prompt)
            return true
        }
        guard asked else { return nil }
        changes.signal()
        return locked {
            while true {
                if cancelled {
                    if case .answered(let pending?) = phase { Self.discard(pending) }
                    phase = .working
                    return nil
                }
                if case .answered(let answer) = phase {
                    phase = .working
                    return answer
                }
                pthread_cond_wait(changed, mutex)
            }
        }
    }

    func post(notice: String) {
        locked { notices.append(notice) }
        changes.signal()
    }

    func finish(_ step: AuthStep) {
        locked { phase = .finished(step) }
        changes.signal()
    }

    // MARK: -

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Zeroes and frees an answer nobody will read.
    static func discard(_ answer: UnsafeMutablePointer<CChar>) {
        explicit_bzero(answer, strlen(answer))
        free(answer)
    }
}

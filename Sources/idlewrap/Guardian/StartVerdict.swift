import Glibc
import PTYKit

/// What the guardian tells the session process once it has checked PAM at start: the
/// check (libpam and every module of the stack loaded, the account phase run) takes
/// longer than anything else idlewrap does at start, so the guardian runs it while the
/// session process sets up, and the session process starts the command only on a
/// verdict that says so (`StartGate`). Written once over a pipe made before the split,
/// which the guardian then closes.
enum StartVerdict: Equatable {
    /// Start, and unlock with PAM: the session process loads libpam at its first lock.
    case pam
    /// Start, and unlock with the lock password the guardian asked for (its salted hash):
    /// PAM refuses the account, and the method was the default.
    case lockPassword(hash: String)
    /// Do not start: the guardian has said why.
    case refused

    private static let pamText = "pam"
    private static let refusedText = "refused"
    private static let hashPrefix = "hash "
    /// The longest message: a crypt hash is far shorter.
    static let longest = 512

    var text: String {
        switch self {
        case .pam: Self.pamText
        case .refused: Self.refusedText
        case .lockPassword(let hash): Self.hashPrefix + hash
        }
    }

    /// The verdict `text` says, or nil for anything else (a guardian that died halfway).
    init?(text: String) {
        switch text {
        case Self.pamText: self = .pam
        case Self.refusedText: self = .refused
        case _ where text.hasPrefix(Self.hashPrefix):
            let hash = String(text.dropFirst(Self.hashPrefix.count))
            guard PasswordHash.problem(with: hash) == nil else { return nil }
            self = .lockPassword(hash: hash)
        default: return nil
        }
    }

    /// The authenticator the session process unlocks with, for a verdict that lets the
    /// command start.
    func authenticator(pam: PAMAuthenticator, user: UserName) -> Authenticator? {
        switch self {
        case .pam: pam
        case .lockPassword(let hash): CryptAuthenticator(hash: hash, user: user)
        case .refused: nil
        }
    }
}

/// The pipe the verdict goes through, made before the split; after it, each process
/// keeps its own end and closes the other at once, so that the session process reads
/// the end of the pipe when the guardian dies.
struct StartVerdictPipe {
    private let reading: FileDescriptor
    private let writing: FileDescriptor

    init() throws(Errno) {
        (reading, writing) = try GuardianCalls.pipe()
    }

    func close() {
        try? reading.close()
        try? writing.close()
    }

    /// In the guardian.
    func sender() -> StartVerdictSender {
        try? reading.close()
        return StartVerdictSender(writing: writing)
    }

    /// In the session process.
    func gate() -> StartGate {
        try? writing.close()
        return StartGate(reading: reading)
    }
}

struct StartVerdictSender {
    fileprivate let writing: FileDescriptor

    /// Tells the session process `verdict`, once.
    func send(_ verdict: StartVerdict) {
        // A session process already gone is the guardian's to report (`Guardian.watch`).
        try? writing.writeAll(verdict.text)
        try? writing.close()
    }
}

/// Where the session process waits for the guardian's verdict before it starts the command.
struct StartGate {
    fileprivate let reading: FileDescriptor

    /// Waits for the verdict. Nil when the guardian ended without one, or said something
    /// else: the command must not start.
    func pass() -> StartVerdict? {
        defer { try? reading.close() }
        guard let bytes = try? reading.readToEnd(limit: StartVerdict.longest), bytes.count <= StartVerdict.longest
        else { return nil }
        return StartVerdict(text: String(decoding: bytes, as: UTF8.self))
    }
}

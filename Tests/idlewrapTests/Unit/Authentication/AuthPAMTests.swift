import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

/// PAM through stacks in a private configuration directory (--pam-confdir,
/// a PAMTestStack), built from the stock Linux-PAM modules. pam_exec hands the
/// typed password to a script on its standard input, followed by a NUL byte.
@Suite(.timeLimit(.minutes(2)))
struct AuthPAMTests {
    /// Answers each question in turn with `answers`; returns the final step.
    func run(_ authenticator: Authenticator, answers: [String], prompts: inout [AuthStep]) throws -> AuthStep {
        let conversation = authenticator.beginAttempt()
        var answers = answers[...]
        while true {
            let step = try settledStep(of: conversation)
            guard case .asking = step else { return step }
            prompts.append(step)
            let next = answers.popFirst()
            let answer = secret(try #require(next, "asked more questions than expected: \(prompts)"))
            conversation.answer(answer)
            answer.clear()
        }
    }

    func run(_ authenticator: Authenticator, answers: [String]) throws -> AuthStep {
        var prompts: [AuthStep] = []
        return try run(authenticator, answers: answers, prompts: &prompts)
    }

    @Test func rightPasswordSucceedsWrongFails() throws {
        let stack = try PAMTestStack(PAMTestStack.checkedPassword)
        let authenticator = try stack.authenticator()
        #expect(authenticator is PAMAuthenticator)
        var prompts: [AuthStep] = []
        #expect(try run(authenticator, answers: ["right horse"], prompts: &prompts) == .succeeded)
        #expect(prompts == [.asking(prompt: "Password for root:")])
        #expect(try run(authenticator, answers: ["wrong horse"]) == .failed(message: "Wrong password"))
        #expect(try run(authenticator, answers: ["right horse"]) == .succeeded)
    }

    @Test func startsWorkingThenAsks() throws {
        let stack = try PAMTestStack(PAMTestStack.checkedPassword)
        let authenticator = try stack.authenticator()
        let conversation = authenticator.beginAttempt()
        #expect(conversation.readiness != nil)
        #expect(try settledStep(of: conversation) == .asking(prompt: "Password for root:"))
        #expect(conversation.currentStep() == .asking(prompt: "Password for root:"), "waits for the answer")
        conversation.answer(secret("right horse"))
        #expect(try settledStep(of: conversation) == .succeeded)
    }

    @Test func twoQuestionsAreAskedInTurn() throws {
        // pam_stress asks a question of its own and makes its answer the
        // password that the next module checks.
        let stack = try PAMTestStack(
            """
            auth requisite pam_exec.so quiet expose_authtok CHECK
            auth requisite pam_stress.so
            auth requisite pam_exec.so quiet expose_authtok SECOND
            account required pam_permit.so
            """)
        let authenticator = try stack.authenticator()
        var prompts: [AuthStep] = []
        #expect(try run(authenticator, answers: ["right horse", "second answer"], prompts: &prompts) == .succeeded)
        #expect(
            prompts == [
                .asking(prompt: "Password for root:"),
                .asking(prompt: "STRESS Password:"),
            ])
        #expect(try run(authenticator, answers: ["right horse", "wrong answer"]) != .succeeded)
        #expect(try run(authenticator, answers: ["wrong horse"]) != .succeeded)
    }

    @Test func passesNoticesOn() throws {
        let stack = try PAMTestStack(
            """
            auth optional pam_echo.so Hello %u
            \(PAMTestStack.checkedPassword)
            """)
        let authenticator = try stack.authenticator()
        let conversation = authenticator.beginAttempt()
        #expect(try settledStep(of: conversation) == .asking(prompt: "Password for root:"))
        #expect(conversation.takeNotices() == ["Hello root"])
        #expect(conversation.takeNotices() == [], "each notice is returned once")
        conversation.answer(secret("right horse"))
        #expect(try settledStep(of: conversation) == .succeeded)
    }

    @Test func accountPhaseRefusalStaysLockedAndSaysWhy() throws {
        // The account is open at start and closed afterwards (it expired).
        let stack = try PAMTestStack(
            """
            auth [success=done default=ignore] pam_exec.so quiet expose_authtok CHECK
            auth requisite pam_deny.so
            account [success=done default=ignore] pam_exec.so quiet DIR/open.sh
            account required pam_echo.so Account closed for %u
            account requisite pam_deny.so
            """)
        try stack.directory.write("open.sh", "#!/bin/sh\n[ ! -e \"$(dirname \"$0\")/closed\" ]\n", mode: 0o755)
        let authenticator = try stack.authenticator()
        try stack.directory.write("closed", "")
        let conversation = authenticator.beginAttempt()
        #expect(try settledStep(of: conversation) == .asking(prompt: "Password for root:"))
        conversation.answer(secret("right horse"))
        let step = try settledStep(of: conversation)
        // pam_deny answers the account phase with PAM_AUTH_ERR.
        #expect(step == .unavailable(reason: "PAM account check refused: Authentication failure"))
        #expect(conversation.takeNotices() == ["Account closed for root"])
        #expect(try run(authenticator, answers: ["wrong horse"]) == .failed(message: "Wrong password"))
    }

    @Test func anAccountPhaseThatCanNeverPassIsRefusedAtStart() throws {
        // Linux-PAM denies pam_acct_mgmt for a service without account lines.
        for (account, refusal) in [
            ("", "Permission denied"), ("account requisite pam_deny.so", "Authentication failure"),
        ] {
            let stack = try PAMTestStack(
                """
                auth [success=done default=ignore] pam_exec.so quiet expose_authtok CHECK
                auth requisite pam_deny.so
                \(account)
                """)
            #expect(
                throws: AuthenticationError(
                    description:
                        "PAM service \(PAMTestStack.service) refuses root's account (pam_acct_mgmt: \(refusal)), so the lock"
                        + " could never be opened; use --auth ask or --auth file")
            ) { try stack.authenticator() }
        }
    }

    @Test func accountPhaseRunsOnlyAfterTheRightPassword() throws {
        // The account phase is what resets failure tallies: apart from the
        // check at start (which needs no password), it must not run for a
        // wrong password.
        let stack = try PAMTestStack(
            """
            \(PAMTestStack.checkedPassword)
            account required pam_exec.so quiet DIR/account.sh
            """)
        try stack.directory.write(
            "account.sh", "#!/bin/sh\necho ran >> \"$(dirname \"$0\")/account-log\"\n", mode: 0o755)
        let authenticator = try stack.authenticator()
        #expect(stack.directory.read("account-log") == "ran\n")
        #expect(try run(authenticator, answers: ["wrong horse"]) == .failed(message: "Wrong password"))
        #expect(stack.directory.read("account-log") == "ran\n")
        #expect(try run(authenticator, answers: ["right horse"]) == .succeeded)
        #expect(stack.directory.read("account-log") == "ran\nran\n")
    }

    @Test func setsTheTerminalAndRemoteHost() throws {
        let stack = try PAMTestStack(PAMTestStack.checkedPassword)
        let terminal = try TestTerminal()
        var name = [CChar](repeating: 0, count: 256)
        try #require(ttyname_r(terminal.replica.rawValue, &name, name.count) == 0)
        let authenticator = try stack.authenticator(
            terminal: terminal.replica,
            environment: ["SSH_CONNECTION": "192.0.2.7 51234 198.51.100.1 22"])
        #expect(try run(authenticator, answers: ["right horse"]) == .succeeded)
        #expect(try readFile(stack.directory.file("items")) == "\(string(fromNulTerminated: name))|192.0.2.7\n")
    }

    @Test func doesNotWaitForPAMFailDelay() throws {
        let stack = try PAMTestStack(
            """
            auth optional pam_faildelay.so delay=4000000
            \(PAMTestStack.checkedPassword)
            """)
        let authenticator = try stack.authenticator()
        let started = monotonicMilliseconds()
        #expect(try run(authenticator, answers: ["wrong horse"]) == .failed(message: "Wrong password"))
        #expect(monotonicMilliseconds() - started < 2000, "idlewrap backs off by itself")
    }

    @Test func aModuleErrorFailsClosed() throws {
        let stack = try PAMTestStack(
            """
            auth requisite pam_exec.so quiet expose_authtok CHECK
            auth required pam_exec.so quiet /bin/false
            account required pam_permit.so
            """)
        let authenticator = try stack.authenticator()
        let step = try run(authenticator, answers: ["right horse"])
        guard case .unavailable(let reason) = step else {
            Issue.record("expected .unavailable, got \(step)")
            return
        }
        #expect(reason.hasPrefix("PAM: "))
    }

    @Test func aMissingModuleFailsClosed() throws {
        let stack = try PAMTestStack(
            """
            auth required pam_idlewrap_no_such_module.so
            \(PAMTestStack.checkedPassword)
            """)
        let authenticator = try stack.authenticator()
        let step = try run(authenticator, answers: ["right horse"])
        guard case .unavailable = step else {
            Issue.record("expected .unavailable, got \(step)")
            return
        }
    }

    @Test func neverUnlocksWithoutAPassword() throws {
        let stack = try PAMTestStack("auth required pam_permit.so\naccount required pam_permit.so")
        let authenticator = try stack.authenticator()
        let step = try run(authenticator, answers: [])
        guard case .unavailable(let reason) = step else {
            Issue.record("expected .unavailable, got \(step)")
            return
        }
        #expect(reason.contains("without asking for a password"))
    }

    @Test func cancellingWhileAskingEndsTheAttempt() throws {
        let stack = try PAMTestStack(PAMTestStack.checkedPassword)
        let authenticator = try stack.authenticator()
        let conversation = authenticator.beginAttempt()
        #expect(try settledStep(of: conversation) == .asking(prompt: "Password for root:"))
        conversation.cancel()
        conversation.answer(secret("right horse"))
        let step = try settledStep(of: conversation)
        #expect(step == .unavailable(reason: "cancelled"))
    }

    @Test func droppingAConversationCancelsIt() throws {
        // When the conversation fails, the stack goes on to a module that
        // leaves a mark: the PAM thread did not stay waiting for an answer.
        let stack = try PAMTestStack(
            """
            auth [default=ignore] pam_exec.so quiet expose_authtok CHECK
            auth optional pam_exec.so quiet /usr/bin/touch DIR/ended
            auth requisite pam_deny.so
            account required pam_permit.so
            """)
        let authenticator = try stack.authenticator()
        var conversation: AuthConversation? = authenticator.beginAttempt()
        #expect(try settledStep(of: conversation!) == .asking(prompt: "Password for root:"))
        conversation = nil
        let deadline = monotonicMilliseconds() + 10_000
        var info = stat()
        while lstat(stack.directory.file("ended"), &info) != 0 && monotonicMilliseconds() < deadline {
            usleep(10_000)
        }
        #expect(lstat(stack.directory.file("ended"), &info) == 0, "the PAM thread went on")
    }

    @Test func aStackThatFailsWithoutAskingCannotCheckAndCountsNoFailure() throws {
        let stack = try PAMTestStack("auth required pam_deny.so\naccount required pam_permit.so\n")
        let authenticator = try stack.authenticator()
        for _ in 0..<2 {
            var prompts: [AuthStep] = []
            let step = try run(authenticator, answers: [], prompts: &prompts)
            #expect(prompts.isEmpty)
            guard case .unavailable(let reason) = step else {
                Issue.record("expected .unavailable, got \(step)")
                return
            }
            #expect(
                reason.hasPrefix(
                    "cannot check: PAM service \(PAMTestStack.service) failed without asking for a password"))
        }
    }

    @Test func aMissingServiceFileIsANoticeWhenOtherCanAsk() throws {
        let directory = try TemporaryDirectory()
        try directory.write("other", "auth required pam_unix.so\naccount required pam_permit.so\n")
        var notices: [String] = []
        _ = try AuthSetup.makeAuthenticator(
            method: .pam, passwordFile: nil, pamService: PAMTestStack.service, pamConfigDirectory: directory.path,
            user: "root", terminal: .standardInput, environment: { _ in nil }, notice: { notices.append($0) })
        #expect(
            notices == [
                "no PAM service file \(PAMTestStack.service) in \(directory.path); PAM uses the service 'other' instead"
            ])
    }

    @Test func aMissingServiceFileIsRefusedWhenOtherDenies() throws {
        let directory = try TemporaryDirectory()
        // RHEL's /etc/pam.d/other.
        try directory.write(
            "other", "#%PAM-1.0\nauth     required       pam_deny.so\naccount  required       pam_deny.so\n")
        #expect {
            try AuthSetup.makeAuthenticator(
                method: .pam, passwordFile: nil, pamService: PAMTestStack.service, pamConfigDirectory: directory.path,
                user: "root", terminal: .standardInput, environment: { _ in nil })
        } throws: { error in
            "\(error)".hasPrefix(
                "no PAM service file \(PAMTestStack.service) in \(directory.path), and PAM's fallback service 'other' denies everyone"
            )
        }
    }

    @Test func serviceFileLookup() throws {
        let directory = try TemporaryDirectory()
        #expect(
            PAMServiceFile.locate(service: "x", configurationDirectory: directory.path)
                == .missing(searched: [directory.path], otherDenies: false))
        // Debian's other reaches pam_deny only through its includes: it works.
        try directory.write("other", "@include common-auth\n@include common-account\n")
        #expect(
            PAMServiceFile.locate(service: "x", configurationDirectory: directory.path)
                == .missing(searched: [directory.path], otherDenies: false))
        try directory.write("x", "auth required pam_deny.so\n")
        #expect(
            PAMServiceFile.locate(service: "x", configurationDirectory: directory.path)
                == .found(path: directory.file("x")))
        #expect(PAMServiceFile.directories(configurationDirectory: nil) == ["/etc/pam.d", "/usr/lib/pam.d"])
    }

    @Test func setupReportsAMissingConfigurationDirectory() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: AuthenticationError.self) {
            try AuthSetup.makeAuthenticator(
                method: .pam, passwordFile: nil, pamService: PAMTestStack.service,
                pamConfigDirectory: directory.file("absent"), user: "root", terminal: .standardInput,
                environment: { _ in nil })
        }
    }
}

import Glibc
import PTYKit
import Testing

@testable import idlewrap

/// A configuration directory (--pam-confdir) whose service runs `stack`, in
/// which CHECK stands for a script that accepts "right horse" and SECOND for
/// one that accepts "second answer"; built from the stock Linux-PAM modules.
/// Keep it alive while its authenticator is used: it deletes its files.
final class PAMTestStack {
    static let service = "idlewrap-test"

    static let checkedPassword = """
        auth [success=done default=ignore] pam_exec.so quiet expose_authtok CHECK
        auth requisite pam_deny.so
        account required pam_permit.so
        """

    let directory: TemporaryDirectory

    init(_ stack: String) throws {
        directory = try TemporaryDirectory()
        let check = try directory.write("check.sh", Self.script(accepting: "right horse"), mode: 0o755)
        let second = try directory.write("second.sh", Self.script(accepting: "second answer"), mode: 0o755)
        let lines =
            stack
            .replacing("CHECK", with: check)
            .replacing("SECOND", with: second)
            .replacing("DIR", with: directory.path)
        try directory.write(Self.service, lines)
    }

    static func script(accepting password: String) -> String {
        """
        #!/bin/bash
        IFS= read -r -d '' password
        echo "$PAM_TTY|$PAM_RHOST" > "$(dirname "$0")/items"
        [ "$password" = '\(password)' ]

        """
    }

    func authenticator(
        terminal: FileDescriptor = .standardInput, environment: [String: String] = [:]
    ) throws(AuthenticationError) -> Authenticator {
        try AuthSetup.makeAuthenticator(
            method: .pam, passwordFile: nil, pamService: Self.service,
            pamConfigDirectory: directory.path, user: "root", terminal: terminal,
            environment: { environment[$0] })
    }
}

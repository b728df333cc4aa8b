import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// Real accounts (useradd) running the real binary through runuser, so
    /// that PAM, unix_chkpwd and `passwd -S` see an ordinary user.
    @Suite(.enabled(if: TestUser.canBeMade, "needs root to add users"))
    struct NoLockout {
        @Test func lockedPasswordFallsBackToAskByDefaultAndSaysHowToStopIt() throws {
            let user = try TestUser(password: nil)
            let environment = ["XDG_CONFIG_HOME": try user.privateDirectory("config")]
            let file = environment["XDG_CONFIG_HOME"]! + "/idlewrap/password"
            let shown = try user.terminal([user.idlewrap, "--show-config"], environment: environment)
            #expect(shown.waitForExit() == .exited(0))
            #expect(
                shown.hasShown(
                    "auth = ask  # default: \(user.name) has no usable login password (it is locked), so PAM could never unlock"
                ), "\(shown.text)")
            #expect(
                shown.hasShown(
                    "password-file =  # default: not used; idlewrap --set-password makes \(file), and then it is"))

            let terminal = try user.terminal(
                [user.idlewrap, "-t", "0", "--", "sh", "-c", "echo command-started"], environment: environment)
            #expect(terminal.expect("\(user.name) has no usable login password (it is locked)"))
            #expect(terminal.expect("(--auth ask)"))
            #expect(
                terminal.expect(
                    "To be asked no more, run idlewrap --set-password: it makes the password file \(file), which is used"
                        + " from the next login on"))
            #expect(terminal.expect("Lock password:"))
            try terminal.type("stand-in\r")
            #expect(terminal.expect("Repeat password:"))
            try terminal.type("stand-in\r")
            #expect(terminal.expect("command-started"))
            #expect(terminal.waitForExit() == .exited(0))

            // As the notice says: from then on the file is used, and nothing is asked.
            let setter = try user.terminal(
                ["sh", "-c", "printf '%s\\n' stand-in | \"$0\" --set-password", user.idlewrap], environment: environment
            )
            #expect(setter.waitForExit() == .exited(0))
            let next = try user.terminal([user.idlewrap, "--show-config"], environment: environment)
            #expect(next.waitForExit() == .exited(0))
            #expect(next.hasShown("auth = file  # default: \(file) exists"))
            #expect(next.hasShown("password-file = \(file)  # default\r\n"))
            let again = try user.terminal(
                [user.idlewrap, "-t", "0", "--", "sh", "-c", "echo command-started"], environment: environment)
            #expect(again.expect("command-started"))
            #expect(again.waitForExit() == .exited(0))
            #expect(!again.hasShown("Lock password:"))
            #expect(!again.hasShown("no usable login password"))
        }

        @Test func lockedPasswordRefusesAnExplicitPAM() throws {
            let user = try TestUser(password: nil)
            let terminal = try user.terminal([
                user.idlewrap, "-a", "pam", "-t", "0", "--", "sh", "-c", "echo command-started",
            ])
            #expect(terminal.waitForExit() == .exited(125))
            #expect(terminal.hasShown("idlewrap: \(user.name) has no usable login password (it is locked)"))
            #expect(!terminal.hasShown("command-started"))
        }

        @Test func usablePasswordKeepsPAMByDefault() throws {
            let user = try TestUser(password: "Corr3ct-horse")
            let terminal = try user.terminal([user.idlewrap, "-t", "0", "-k", "^]", "--", "cat"])
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            try terminal.type("\u{1d}")
            #expect(terminal.expect("Password for \(user.name):"))
            #expect(try terminal.unlockAfterAWrongPassword("wrong", then: "Corr3ct-horse"))
            #expect(!terminal.hasShown("no usable login password"))
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))
        }

        /// Linux-PAM refuses pam_acct_mgmt for a service with no `account`
        /// lines: every right password would meet "Permission denied" at the
        /// lock screen, for ever. Found at start instead.
        @Test func aStackWhoseAccountPhaseCanNeverPassIsFoundAtStart() throws {
            let user = try TestUser(password: "Corr3ct-horse")
            let confdir = try user.privateDirectory("pam.d")
            let service = try user.directory.write("pam.d/auth-only", "auth required pam_unix.so\n", mode: 0o644)
            #expect(chown(service, user.uid, user.gid) == 0)
            let refusal =
                "PAM service auth-only refuses \(user.name)'s account (pam_acct_mgmt: Permission denied), so the lock could never be opened"
            // Asked for: refused before the command runs.
            let explicit = try user.terminal([
                user.idlewrap, "-a", "pam", "--pam-service", "auth-only", "--pam-confdir", confdir, "-t", "0", "--",
                "sh", "-c", "echo command-started",
            ])
            #expect(explicit.waitForExit() == .exited(125))
            #expect(explicit.hasShown("idlewrap: \(refusal)"), "\(explicit.text)")
            #expect(!explicit.hasShown("command-started"))
            // By default: a lock password for this session instead, as for an
            // account without a usable password.
            let byDefault = try user.terminal([
                user.idlewrap, "--pam-service", "auth-only", "--pam-confdir", confdir, "-t", "0", "--",
                "sh", "-c", "echo command-started",
            ])
            #expect(byDefault.expect("\(refusal); asking for a lock password for this session instead (--auth ask)"))
            #expect(byDefault.expect("Lock password:"))
            try byDefault.type("stand-in\r")
            #expect(byDefault.expect("Repeat password:"))
            try byDefault.type("stand-in\r")
            #expect(byDefault.expect("command-started"))
            #expect(byDefault.waitForExit() == .exited(0))
        }

        /// pam_unix's account phase answers PAM_NEW_AUTHTOK_REQD once an
        /// administrator forces a change (`chage -d 0`): the right password
        /// does not unlock, and the lock screen says why.
        @Test func expiredPasswordStaysLockedAndSaysWhy() throws {
            let user = try TestUser(password: "Corr3ct-horse")
            let terminal = try user.terminal([user.idlewrap, "-a", "pam", "-t", "0", "-k", "^]", "--", "cat"])
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            try #require(TestUser.run(["chage", "-d", "0", user.name]), "chage failed")
            try terminal.type("\u{1d}")
            #expect(terminal.expect("Password for \(user.name):"))
            try terminal.type("Corr3ct-horse\r")
            #expect(terminal.expect("Your password has expired: change it (passwd) from another login, then unlock"))
            #expect(!terminal.waitUntil(timeout: 2) { terminal.hasShown("\u{1b}[?1049l") })
        }

        /// pam_faillock counts the two typos and the account phase after the
        /// right password resets the count; without it the tally would stay
        /// and add up to a lock-out.
        @Test func rightPasswordAfterTyposLeavesNoFaillockTally() throws {
            let user = try TestUser(password: "Corr3ct-horse")
            let tally = try user.privateDirectory("faillock")
            let terminal = try lockedBehindFaillock(user, service: "idlewrap-faillock", tally: tally)
            for wrong in ["typo-one", "typo-two"] {
                try terminal.type(wrong + "\r")
                #expect(terminal.expect("Wrong password"))
                #expect(terminal.expect("Password for"))
            }
            #expect(failures(of: user, in: tally) == 2)
            try terminal.type("Corr3ct-horse\r")
            #expect(terminal.expect("\u{1b}[?1049l"))
            #expect(failures(of: user, in: tally) == 0)
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))
        }

        /// pam_faillock's `preauth` judges the account when the PAM conversation starts: the
        /// conversation starts when the user begins to type, so the first right password
        /// after a lock-out expired unlocks, and preauth never runs (nor says "locked")
        /// during the lock-out the user waited out.
        @Test func rightPasswordAfterAFaillockLockOutExpiredUnlocks() throws {
            let user = try TestUser(password: "Corr3ct-horse")
            let tally = try user.privateDirectory("faillock")
            let terminal = try lockedBehindFaillock(
                user, service: "idlewrap-lockout", tally: tally, limits: "deny=2 unlock_time=4")
            try terminal.type("typo-one\r")
            #expect(terminal.expect("Wrong password"))
            #expect(terminal.expect("Password for"))
            try terminal.type("typo-two\r")
            #expect(terminal.expect("Wrong password"))
            // Locked out for 4 s from now: the prompt comes back after 2 s of back-off,
            // and the user waits out the rest.
            #expect(terminal.expect("Password for"))
            #expect(failures(of: user, in: tally) == 2)
            #expect(!terminal.waitUntil(timeout: 5) { false })
            try terminal.type("Corr3ct-horse\r")
            #expect(terminal.expect("\u{1b}[?1049l"), "\(terminal.text.debugDescription)")
            #expect(!terminal.hasShown("locked due to"))
            #expect(failures(of: user, in: tally) == 0)
            try terminal.type("\u{04}")
            #expect(terminal.waitForExit() == .exited(0))
        }

        /// As root, /etc/shadow says (the tests run as root).
        @Test func rootReadsShadow() throws {
            let locked = try TestUser(password: nil)
            #expect(LoginPassword.status(of: locked.name) == .locked)
            let usable = try TestUser(password: "Corr3ct-horse")
            #expect(LoginPassword.status(of: usable.name) == .usable)
            #expect(LoginPassword.status(of: "no-such-user-here") == .unknown)
        }

        @Test func explicitPAMIsRefusedForALockedAccountButNotWithItsOwnStack() throws {
            let locked = try TestUser(password: nil)
            let user = UserName(stringLiteral: locked.name)
            #expect(
                throws: AuthenticationError(
                    description:
                        "\(locked.name) has no usable login password (it is locked), so PAM could never unlock; use --auth ask or --auth file"
                )
            ) {
                try AuthSetup.makeAuthenticator(
                    method: .pam, passwordFile: nil, pamService: "idlewrap", pamConfigDirectory: nil, user: user,
                    terminal: .standardInput, environment: { _ in nil })
            }
            // A --pam-confdir stack is the caller's and may not use the login password.
            let stack = try PAMTestStack(PAMTestStack.checkedPassword)
            let authenticator = try AuthSetup.makeAuthenticator(
                method: .pam, passwordFile: nil, pamService: PAMTestStack.service,
                pamConfigDirectory: stack.directory.path,
                user: user, terminal: .standardInput, environment: { _ in nil })
            #expect(authenticator is PAMAuthenticator)
        }

        /// `cat` in idlewrap as `user`, locked at once with ^], unlocking through a PAM
        /// `service` (in a pam.d of the user's) that wraps pam_unix in pam_faillock with its
        /// records in `tally`; its auth lines take `limits` (`deny=2 unlock_time=4`) too.
        func lockedBehindFaillock(
            _ user: TestUser, service: String, tally: String, limits: String? = nil
        ) throws -> TerminalDriver {
            let confdir = user.directory.file("pam.d")
            mkdir(confdir, 0o755)
            let arguments = (limits.map { $0 + " " } ?? "") + "dir=\(tally)"
            try user.directory.write(
                "pam.d/\(service)",
                """
                auth     required                 pam_faillock.so preauth \(arguments)
                auth     [success=1 default=bad]  pam_unix.so
                auth     [default=die]            pam_faillock.so authfail \(arguments)
                account  required                 pam_faillock.so dir=\(tally)
                account  required                 pam_unix.so

                """, mode: 0o644)
            let terminal = try user.terminal([
                user.idlewrap, "-a", "pam", "--pam-service", service, "--pam-confdir", confdir,
                "-t", "0", "-k", "^]", "--", "cat",
            ])
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            try terminal.type("\u{1d}")
            #expect(terminal.expect("Password for \(user.name):"))
            return terminal
        }

        /// The records `faillock` lists for `user`: one line each, starting
        /// with the date.
        func failures(of user: TestUser, in tally: String) -> Int? {
            guard let text = TestUser.output(of: ["faillock", "--dir", tally, "--user", user.name]) else { return nil }
            return text.split(whereSeparator: \.isNewline).filter { $0.first?.isNumber == true }.count
        }
    }
}

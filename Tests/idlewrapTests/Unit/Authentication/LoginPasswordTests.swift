import Glibc
import Testing

@testable import idlewrap

@Suite(.timeLimit(.minutes(2)))
struct LoginPasswordTests {
    @Test func hashesPAMCouldNeverAccept() {
        #expect(LoginPassword.status(ofHash: "") == .empty)
        #expect(LoginPassword.status(ofHash: "!") == .locked)
        #expect(LoginPassword.status(ofHash: "*") == .locked)
        #expect(LoginPassword.status(ofHash: "!$y$j9T$abc$def") == .locked, "passwd -l keeps the hash behind a !")
        #expect(LoginPassword.status(ofHash: "$y$j9T$abc$def") == .usable)
        #expect(LoginPassword.status(ofHash: "$6$salt$hash") == .usable)
    }

    @Test func passwdStatusLines() {
        #expect(LoginPassword.status(ofPasswdLine: "alice P 2026-12-01 0 99999 7 -1", user: "alice") == .usable)
        #expect(LoginPassword.status(ofPasswdLine: "alice L 2026-12-01 0 99999 7 -1", user: "alice") == .locked)
        #expect(LoginPassword.status(ofPasswdLine: "alice NP 2026-12-01 0 99999 7 -1", user: "alice") == .empty)
        #expect(LoginPassword.status(ofPasswdLine: "bob L 2026-12-01 0 99999 7 -1", user: "alice") == .unknown)
        #expect(LoginPassword.status(ofPasswdLine: "Only root can do that.", user: "alice") == .unknown)
        #expect(LoginPassword.status(ofPasswdLine: "", user: "alice") == .unknown)
    }

    @Test(.enabled(if: TestUser.canBeMade, "needs root to add users"))
    func rootReadsShadow() throws {
        let locked = try TestUser(password: nil)
        #expect(LoginPassword.status(of: locked.name) == .locked)
        let usable = try TestUser(password: "Corr3ct-horse")
        #expect(LoginPassword.status(of: usable.name) == .usable)
        #expect(LoginPassword.status(of: "no-such-user-here") == .unknown)
    }

    @Test(.enabled(if: TestUser.canBeMade, "needs root to add users"))
    func explicitPAMIsRefusedForALockedAccountButNotWithItsOwnStack() throws {
        let locked = try TestUser(password: nil)
        let user = UserName(stringLiteral: locked.name)
        #expect(throws: AuthenticationError(description: "\(locked.name) has no usable login password (it is locked), so PAM could never unlock; use --auth ask or --auth file")) {
            try AuthSetup.makeAuthenticator(
                method: .pam, passwordFile: nil, pamService: "idlewrap", pamConfigDirectory: nil, user: user,
                terminal: .standardInput, environment: { _ in nil })
        }
        // A --pam-confdir stack is the caller's and may not use the login password.
        let stack = try AuthPAMTests.Stack(AuthPAMTests.checkedPassword)
        let authenticator = try AuthSetup.makeAuthenticator(
            method: .pam, passwordFile: nil, pamService: AuthPAMTests.service, pamConfigDirectory: stack.directory.path,
            user: user, terminal: .standardInput, environment: { _ in nil })
        #expect(authenticator is PAMAuthenticator)
    }
}

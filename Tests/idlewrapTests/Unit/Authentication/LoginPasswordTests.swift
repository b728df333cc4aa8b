import Glibc
import Testing

@testable import idlewrap

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
}

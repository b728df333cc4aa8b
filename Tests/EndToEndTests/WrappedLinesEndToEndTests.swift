import Glibc
import Testing

@testable import TestSupport

extension EndToEnd.ScreenRestore {
    /// Lines longer than the row, as a command printed them: plain, coloured across the
    /// wrap, ending in a wide character that did not fit in the last column, and one over
    /// three rows.
    static let longLines =
        "printf 'PLAIN-%075dnext row\\n' 0; printf '\\033[1;31mRED-%076d\\033[0;44mblue\\033[m\\n' 0; "
        + "printf 'WIDE-%074d\\344\\270\\255\\346\\226\\207 end\\n' 0; printf 'LONG-%0200d\\n' 0"

    /// After the unlock the terminal still knows which rows are one line (issue 29): tmux's
    /// `capture-pane -J` joins them as before the lock; printed on the main screen or on
    /// the alternate one (which the lock screen draws over), also when the command turned
    /// autowrap off after printing them.
    @Test(arguments: [(false, false), (false, true), (true, false), (true, true)], alternateScreens)
    func wrappedLinesAreStillOneLineAfterTheUnlock(
        printed: (onAlternateScreen: Bool, autowrapOffAfter: Bool), alternateScreen: Bool
    ) throws {
        let before = printed.onAlternateScreen ? "printf '\\033[?1049h'; " : ""
        let after = printed.autowrapOffAfter ? "printf '\\033[?7l'; " : ""
        let screen = try wrapped(
            ["sh", "-c", "stty -echo; \(before)\(Self.longLines); \(after)exec sleep 1000"],
            alternateScreen: alternateScreen)
        #expect(try screen.waitForText("LONG-"))
        let shown = try settled(screen)
        let joined = try screen.history(joined: true)
        #expect(joined.contains("PLAIN-" + String(repeating: "0", count: 75) + "next row"), "\(joined)")
        #expect(joined.contains("WIDE-" + String(repeating: "0", count: 74) + "中文 end"), "\(joined)")
        try lock(screen)
        try unlock(screen)
        try eventually { try screen.exactScreen() == shown }
        #expect(try screen.exactScreen() == shown)
        let rejoined = try screen.history(joined: true)
        #expect(
            rejoined == joined,
            "before:\n\(joined.joined(separator: "\n"))\nafter:\n\(rejoined.joined(separator: "\n"))")
    }
}

extension EndToEnd.ScreenRestore {
    /// The same lines printed while locked and scrolled into the history: the held lines
    /// reach it joined as the command's output would have.
    @Test func wrappedLinesHeldWhileLockedAreOneLineInTheHistory() throws {
        let screen = try locked(whileRunning: "\(Self.longLines); seq 1 30")
        try unlock(screen)
        #expect(try screen.waitForText("30"))
        let joined = try screen.history(joined: true)
        for line in [
            "PLAIN-" + String(repeating: "0", count: 75) + "next row",
            "RED-" + String(repeating: "0", count: 76) + "blue",
            "WIDE-" + String(repeating: "0", count: 74) + "中文 end", "LONG-" + String(repeating: "0", count: 200),
        ] {
            #expect(joined.contains(line), "\(line) in \(joined.joined(separator: "\n"))")
        }
    }
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// Double-width and double-height lines through the real binary (issue 29): the unlock
    /// sets each row's size (`ESC # n`) right after it puts the cursor on the row, before
    /// the row's text. Read as raw bytes: tmux ignores `ESC # 3` to `6`.
    @Suite struct LineSizes {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        @Test func theUnlockSetsEachRowsSizeBeforeItsText() throws {
            let banner = "printf '\\033#6WIDE\\r\\n\\033#3TALL\\r\\n\\033#4TALL\\r\\nplain\\r\\n'"
            let unlocked = try unlockBytes(of: banner, in: directory)
            let first = (1...24).first { unlocked.contains("\u{1b}[\($0);1H\u{1b}#6WIDE") }
            #expect(first != nil, "\(unlocked.debugDescription)")
            for (offset, text) in ["\u{1b}#3TALL", "\u{1b}#4TALL", "plain"].enumerated() {
                let cursorOnRow = "\u{1b}[\((first ?? 0) + offset + 1);1H"
                #expect(unlocked.contains(cursorOnRow + text), "\(text.debugDescription): \(unlocked.debugDescription)")
            }
        }
    }
}

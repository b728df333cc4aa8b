import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// Output that fills the screen model's style, cluster and hyperlink tables while the
    /// session is locked (issue 27, findings 1, 2, 5 and 7) must not end idlewrap, which
    /// would hand the keyboard to the shell that started it; after the unlock the pane shows
    /// exactly what a pane that ran the same command without idlewrap shows. (tmux 3.3 does
    /// not keep OSC 8 links; the unit tests in ScreenTablesTests check them.)
    @Suite(.requires(.tmux)) struct ModelTables {
        let directory: TemporaryDirectory

        init() throws {
            directory = try TemporaryDirectory()
        }

        /// `script` (sh) run while locked at `rows` by `columns`: idlewrap lives on, and the
        /// unlock gives back the screen the script gives a pane of its own.
        func expectBackAsWithoutLock(_ script: String, rows: Int, columns: Int) throws {
            let ran = directory.file("ran")
            let reference = try TmuxDriver(
                ["sh", "-c", "echo ready; \(script); touch \"$0\"; exec sleep 1000", ran], rows: rows, columns: columns)
            let go = directory.file("go")
            let password = try makePasswordFile(in: directory)
            let screen = try TmuxDriver(
                [
                    TerminalDriver.idlewrap, "--password-file", password, "-t", "0", "--", "sh", "-c",
                    "stty -echo; echo ready; while [ ! -e \"$0\" ]; do sleep 0.1; done; \(script); "
                        + "touch \"$0.done\"; exec sleep 1000",
                    go,
                ], rows: rows, columns: columns)
            #expect(try screen.waitForText("ready"))
            #expect(try screen.lockNow())
            _ = try directory.write("go", "")
            #expect(
                eventually(timeout: 120) { directory.read("go.done") != nil }, "the script did not end while locked")
            #expect(eventually(timeout: 120) { directory.read("ran") != nil }, "the reference did not end")
            let pid = try screen.panePid()
            #expect(kill(pid, 0) == 0, "idlewrap died while locked")
            #expect(try screen.screen().contains("Password for"))
            #expect(try screen.unlock())
            let expected = try reference.exactScreen()
            #expect(try eventually { try screen.exactScreen() == expected })
            let after = try screen.exactScreen()
            #expect(after == expected, "expected:\n\(expected)\nafter the unlock:\n\(after)")
            #expect(kill(pid, 0) == 0, "idlewrap died after the unlock")
        }

        /// Finding 1: 1026 links, then 1100 colours on one cell.
        @Test func manyHyperlinksWhileLocked() throws {
            try expectBackAsWithoutLock(
                #"""
                i=0; while [ $i -le 1025 ]; do printf '\033]8;;http://a/%d\033\\X\033]8;;\033\\\r\n' $i; i=$((i+1)); done
                i=0; while [ $i -lt 1100 ]; do printf '\033[1;1H\033[38;2;1;%d;%dmY' $((i/256)) $((i%256)); i=$((i+1)); done
                """#, rows: 24, columns: 80)
        }

        /// Finding 1's harmless trigger: `ls --hyperlink=auto` in a directory of 2600 files.
        @Test func aLongListingWithLinksWhileLocked() throws {
            let files = directory.file("files")
            mkdir(files, 0o700)
            for index in 0..<2600 { _ = try directory.write("files/file-\(index)", "") }
            try expectBackAsWithoutLock(
                "cd \(files) && ls --hyperlink=auto --color=always", rows: 50, columns: 200)
        }

        /// Finding 2: coloured lines scroll away, 256 clusters fill their table, a coloured
        /// `Q` gets a mark, then 556 clusters on the top left cell.
        @Test func manyClustersWhileLocked() throws {
            try expectBackAsWithoutLock(
                #"""
                i=0; while [ $i -lt 300 ]; do printf '\033[38;2;2;%d;%dmcoloured\r\n' $((i/256)) $((i%256)); i=$((i+1)); done
                printf '\033[m'
                cluster() { printf "\\$(printf %o $((97+$1%26)))\\314\\$(printf %o $((128+$1/26)))"; }
                i=0; while [ $i -lt 256 ]; do cluster $i; printf '\r\n'; i=$((i+1)); done
                printf '\033[38;2;9;9;9mQ\314\201'
                i=256; while [ $i -lt 556 ]; do printf '\033[1;1H'; cluster $i; i=$((i+1)); done
                """#, rows: 24, columns: 80)
        }

        /// Finding 5: a link whose URI is longer than the model keeps is not repainted as a
        /// link to its first 4093 bytes, another URI. tmux 3.3 drops links, so the bytes of
        /// the unlock are read on a terminal of the test's own.
        @Test func aLinkTooLongToKeepIsNotRepaintedCut() throws {
            let go = directory.file("go")
            let password = try makePasswordFile(in: directory)
            let terminal = try TerminalDriver(idlewrap: [
                "--password-file", password, "-t", "0", "--", "sh", "-c",
                #"stty -echo; echo ready; while [ ! -e "$0" ]; do sleep 0.1; done; "#
                    + #"printf '\033]8;;http://a/%04115d\033\\LINKED\033]8;;\033\\ after\r\n' 0; "#
                    + #"touch "$0.done"; exec sleep 1000"#,
                go,
            ])
            #expect(terminal.expect("ready"))
            #expect(terminal.waitForAttributes { !$0.isCanonical })
            terminal.signal(SIGUSR1)
            #expect(terminal.expect("Password for"))
            _ = try directory.write("go", "")
            #expect(eventually { directory.read("go.done") != nil })
            try terminal.type("open sesame\r")
            #expect(terminal.expect("LINKED"))
            #expect(terminal.expect("after"))
            // Read by idlewrap before the unlock, the link is gone from the repaint; on a busy
            // machine the rest of it may come after, relayed as the command wrote it, whole.
            let text = terminal.text
            for link in text.ranges(of: "]8;;http://a/") {
                let digits = text[link.upperBound...].prefix { $0 == "0" }.count
                #expect(digits == 4115, "linked to a cut URI of \(digits) digits")
            }
        }

        /// Finding 7: 1500 colours on screen when a collection drops a link.
        @Test func manyColoursWhenALinkIsCollectedWhileLocked() throws {
            try expectBackAsWithoutLock(
                #"""
                printf '\033[10;1H\033]8;;http://gone/\033\\L\033]8;;\033\\\033[1;1H'
                i=0; while [ $i -lt 1500 ]; do printf '\033[38;2;3;%d;%dmC' $((i/256)) $((i%256)); i=$((i+1)); done
                printf '\033[10;1HM'
                i=0; while [ $i -lt 700 ]; do printf '\033[20;1H\033[38;2;4;%d;%dmZ' $((i/256)) $((i%256)); i=$((i+1)); done
                """#, rows: 60, columns: 200)
        }
    }
}

import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

extension EndToEnd {
    /// idlewrap in real terminal emulators, each on an X server of its own (Xvfb), run by
    /// Tests/RealTerminals/lock-in-terminal.py: a command draws every part below on one
    /// screen, idlewrap is locked (SIGUSR1) and unlocked (the password typed with xdotool),
    /// and a screenshot before the lock must equal one after the unlock pixel for pixel,
    /// the window titles too. Blinking is off. Versions measured are in docs/screen-model.md.
    @Suite(.requires(.xvfb, .xdotool, .xwd), .serialized) struct RealTerminals {
        /// What the command draws, a part after another.
        enum Drawing: String, CaseIterable, Sendable {
            case colours, colonColours, underlines, lineDrawing, wide, combining, lineSizes, title

            var bytes: [UInt8] {
                let text: String
                switch self {
                case .colours:
                    text =
                        (30...37).map { "\u{1b}[\($0)m\($0)\u{1b}[\($0 + 60)m\($0 + 60) " }.joined() + "\u{1b}[m\r\n"
                        + (40...47).map { "\u{1b}[\($0)m\($0)\u{1b}[\($0 + 60)m\($0 + 60) " }.joined() + "\u{1b}[m\r\n"
                        + stride(from: 0, to: 256, by: 9).map { "\u{1b}[38;5;\($0)m#\u{1b}[48;5;\($0)m@" }.joined()
                        + "\u{1b}[m\r\n\u{1b}[38;2;255;128;0;48;2;0;0;128m orange on navy \u{1b}[m\r\n"
                case .colonColours:
                    text =
                        "\u{1b}[38:5:208m colon 256 \u{1b}[48:5:17m on navy \u{1b}[m\r\n"
                        + "\u{1b}[38:2::10:200:30m colon green \u{1b}[48:2::90:0:90m on purple \u{1b}[m\r\n"
                case .underlines:
                    text =
                        "\u{1b}[4msingle\u{1b}[m \u{1b}[21mdouble21\u{1b}[m \u{1b}[4:2mdouble\u{1b}[m "
                        + "\u{1b}[4:3mcurly\u{1b}[m \u{1b}[4:4mdotted\u{1b}[m \u{1b}[4:5mdashed\u{1b}[m\r\n"
                        + "\u{1b}[4;58;5;196mred line\u{1b}[m \u{1b}[4:3;58:2::0:160:255mblue curl\u{1b}[m "
                        + "\u{1b}[4;58;2;0;200;0mgreen line\u{1b}[m\r\n"
                case .lineDrawing:
                    text =
                        "\u{1b}(0lqqwqqk\r\nx  x  x\r\ntqqnqqu\r\nmqqvqqj\r\n`afgjklmnopqrstuvwxyz{|}~\u{1b}(B\r\n"
                case .wide:
                    text = "漢字かな 😀 x\r\n"
                case .combining:
                    text = "e\u{301} a\u{308}\u{332} n\u{303} o\u{302}\u{323}\r\n"
                case .lineSizes:
                    // Double width and double height (top and bottom halves); terminals that
                    // do not draw them show single rows before the lock and after.
                    text = "\u{1b}#6double width\r\n\u{1b}#3double height\r\n\u{1b}#4double height\r\n"
                case .title:
                    text = "\u{1b}]2;idlewrap oracle title\u{7}a title is set\r\n"
                }
                return Array(text.utf8)
            }
        }

        /// A terminal, the package it comes from, and the parts it gets wrong from the command's
        /// own bytes, left out of its screen: urxvt and st read colon sub-parameters as SGR
        /// codes of their own (`4:5` blinks, `38:2::r:g:b` sets other attributes) and read the
        /// underline colour's parameters as attributes (`58;5;196` blinks); st has no
        /// combining characters (a mark is drawn in a cell of its own, where the next
        /// character overwrites it or not).
        struct Terminal: Sendable, CustomTestStringConvertible {
            let name: String
            let tool: RequiredTool
            var leftOut: [Drawing] = []
            var testDescription: String { name }

            /// Every part this terminal shows as the command meant, on one screen.
            var screen: [UInt8] {
                Drawing.allCases.filter { !leftOut.contains($0) }.flatMap(\.bytes) + Array("$ ".utf8)
            }
        }

        static let terminals = [
            Terminal(name: "xterm", tool: .xterm),
            Terminal(name: "urxvt", tool: .urxvt, leftOut: [.colonColours, .underlines]),
            Terminal(name: "st", tool: .st, leftOut: [.colonColours, .underlines, .combining]),
            Terminal(name: "mlterm", tool: .mlterm),
            Terminal(name: "kitty", tool: .kitty),
            Terminal(name: "alacritty", tool: .alacritty),
            Terminal(name: "konsole", tool: .konsole),
            Terminal(name: "xfce4-terminal", tool: .xfce4Terminal),
        ]

        @Test(arguments: terminals)
        func theUnlockShowsExactlyWhatTheTerminalShowedBefore(_ terminal: Terminal) throws {
            guard terminal.tool.isInstalled || RequiredTool.isStrict else { return }
            try #require(terminal.tool.isInstalled, "\(RequiredTool.missingText([terminal.tool]))")
            let directory = try TemporaryDirectory()
            let password = try makePasswordFile(in: directory)
            let output = directory.file("screen.bytes")
            try writeBytes(terminal.screen, to: output)
            let work = directory.file("work")
            mkdir(work, 0o700)
            let arguments = ["python3", Self.script, terminal.name, TerminalDriver.idlewrap, password, output, work]
            let result = Shell.run(Shell.quoted(arguments) + " 2>&1").output.trimmingSuffix("\n")
            #expect(result == "same", "\(terminal.name): \(result)")
        }

        static let script = packageDirectory + "/Tests/RealTerminals/lock-in-terminal.py"
    }
}

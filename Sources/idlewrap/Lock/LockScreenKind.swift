import PTYKit

/// How a lock shows on this terminal, from the moment it hides the command's screen to the
/// moment it gives it back: drawn on the alternate screen with the command's modes and
/// titles put aside (`LockScreen`), or, on a terminal idlewrap cannot drive, as lines of
/// text that push the command's screen out of view (`PlainLockScreen`).
enum LockScreenKind: Equatable {
    /// `wipeScrollback`: the terminal's history is erased at the lock and at an end while
    /// locked (`--wipe-scrollback`).
    case full(wipeScrollback: Bool)
    case plain

    init(term: String?, wipeScrollback: Bool) {
        self = PlainLockScreen.isNeeded(term: term) ? .plain : .full(wipeScrollback: wipeScrollback)
    }

    /// Puts the lock screen in front of `screen`, hidden already, whose modes at the lock
    /// are `modes` (a lock drawn anew on another terminal keeps those it began with), and
    /// returns what the lock put aside.
    func enter(_ screen: CommandScreen, modes: ScreenModes, afterCut: Bool = false) -> LockScreenEntry {
        switch self {
        case .full(let wipeScrollback):
            var entry: LockScreenEntry?
            screen.write { buffer in
                entry = LockScreen.enter(
                    modes: modes, titles: screen.titles, afterCut: afterCut, wipeScrollback: wipeScrollback,
                    into: buffer)
            }
            return entry!
        case .plain:
            // Nothing to turn off or save: the lock screen's first drawing is all it writes.
            return LockScreenEntry(
                modes: modes, titles: HiddenTitles(nothingHidden: screen.titles), pushedKeyboard: (false, false))
        }
    }

    /// Gives the command's screen back, the lock having been opened.
    func leave(_ entry: LockScreenEntry, _ screen: CommandScreen, rows: Int) {
        switch self {
        case .full:
            screen.show(hiddenModes: entry.modes) {
                LockScreen.leave(entry, titles: screen.titles, rows: rows, into: $0)
            }
        case .plain:
            screen.showAsText()
        }
    }

    /// The bytes that leave the lock screen at the end of the session while locked.
    func leaveForGood(_ entry: LockScreenEntry, into buffer: OutputBuffer) {
        switch self {
        case .full(let wipeScrollback):
            LockScreen.leaveForGood(entry, wipeScrollback: wipeScrollback, into: buffer)
        case .plain:
            buffer.append(contentsOf: PlainLockScreen.leave)
        }
    }

    /// The bytes that draw the lock screen as `refresh` has it now.
    func draw(
        _ refresh: inout LockScreenRefresh, size: WindowSize, droppedLines: Int, at now: MonotonicInstant
    ) -> [UInt8] {
        switch self {
        case .full: refresh.draw(size: size, droppedLines: droppedLines, at: now)
        case .plain: refresh.drawPlain(size: size, at: now)
        }
    }
}

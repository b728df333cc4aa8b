import PTYKit

/// The titles the command set on the terminal, as its model has them: the window title and
/// icon name (OSC 0, 1, 2), tmux's window name (`ESC k`) and the working directory (OSC 7).
struct CommandTitles {
    var title: [UInt8]
    /// The command set its window title (maybe to nothing): the unlock sets it again.
    var titleWasSet: Bool
    var iconName: [UInt8]?
    var windowName: [UInt8]?
    var workingDirectory: [UInt8]?
    /// Changes whenever the command sets its title or icon name.
    var titleSets: UInt

    init(_ model: ScreenModel) {
        title = model.title
        titleWasSet = model.modes.windowTitleWasSet
        iconName = model.iconName
        windowName = model.windowName
        workingDirectory = model.workingDirectory
        titleSets = model.titleSets
    }
}

/// What the lock hid of the command's titles, and how the unlock gives them back. The
/// title goes on the terminal's title stack, but urxvt, st and konsole have none: the
/// unlock sets every title again, as the command has it then (it may have set another
/// while locked, which must reach the terminal too).
struct HiddenTitles {
    /// The command's titles when the lock began.
    let atLock: CommandTitles
    let pushedTitle: Bool
    let iconName: Bool
    let windowName: Bool
    let workingDirectory: Bool

    /// The title pushed and replaced by the lock's (`title`), the icon name with it where
    /// the command set one (elsewhere it is the terminal's own, which a terminal without a
    /// title stack could not get back); tmux's window name and the working directory
    /// hidden. `afterCut`: the command's output was cut short, and a title or window name
    /// it was setting may have been set by the cut.
    init(_ titles: CommandTitles, modes: ScreenModes, afterCut: Bool, title: [UInt8], into buffer: OutputBuffer) {
        atLock = titles
        pushedTitle = modes.titleWasSet || afterCut
        iconName = pushedTitle && (titles.iconName != nil || afterCut)
        if pushedTitle {
            buffer.append(.pushTitle)
            buffer.append(iconName ? .setTitle(title) : .setWindowTitle(title))
        }
        // tmux has no stack for window names: a neutral one at once (an empty one would
        // bring back tmux's automatic name only at its next check).
        windowName = modes.windowNameWasSet || afterCut
        if windowName { buffer.append(.setWindowName(Array("idlewrap".utf8))) }
        workingDirectory = !(titles.workingDirectory ?? []).isEmpty
        if workingDirectory { buffer.append(.setWorkingDirectory([])) }
    }

    /// A lock that hides no title (the plain lock screen of a dumb terminal).
    init(nothingHidden titles: CommandTitles) {
        atLock = titles
        pushedTitle = false
        iconName = false
        windowName = false
        workingDirectory = false
    }

    /// At the unlock: the title popped, then each title set as the command has it `now`
    /// where the lock hid it or the command changed it while locked.
    func appendGivenBack(_ now: CommandTitles, into buffer: OutputBuffer) {
        if pushedTitle { buffer.append(.popTitle) }
        let titleChanged = now.titleSets != atLock.titleSets
        if pushedTitle || titleChanged {
            let icon = (iconName || titleChanged) ? now.iconName : nil
            if !now.title.isEmpty && icon == now.title {
                buffer.append(.setTitle(now.title))
            } else {
                if now.titleWasSet || !now.title.isEmpty { buffer.append(.setWindowTitle(now.title)) }
                if let icon { buffer.append(.setIconName(icon)) }
            }
        }
        if windowName || now.windowName != atLock.windowName {
            buffer.append(.setWindowName(now.windowName ?? []))
        }
        if workingDirectory || now.workingDirectory != atLock.workingDirectory, let directory = now.workingDirectory {
            buffer.append(.setWorkingDirectory(directory))
        }
    }

    /// The session ends while locked: the title popped, tmux's automatic window name, the
    /// working directory of before the lock.
    func appendGivenBackForGood(into buffer: OutputBuffer) {
        if pushedTitle { buffer.append(.popTitle) }
        if windowName { buffer.append(.setWindowName([])) }
        if workingDirectory, let directory = atLock.workingDirectory { buffer.append(.setWorkingDirectory(directory)) }
    }
}

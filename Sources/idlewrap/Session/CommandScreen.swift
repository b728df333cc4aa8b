import PTYKit

/// What hears of the command's output once the screen has followed it: the lock, which
/// counts it as arrived while locked, and waits for a boundary to engage at.
protocol CommandScreenObserver: AnyObject {
    /// `bytes` were followed; `titles` is what `titleSets` was before them.
    func screen(_ screen: CommandScreen, didFollow bytes: UnsafeRawBufferPointer, titlesBefore titles: UInt)
    /// The boundary `awaitBoundary` asked for: the rest of the output is followed after this.
    func screenReachedBoundary(_ screen: CommandScreen)
}

/// The command's screen, the one owner of its output: every byte goes through PTYKit's
/// screen model, locked or not. Shown, the bytes go on to the terminal as they came (the
/// model only follows them); hidden behind the lock screen, nothing reaches the terminal and
/// nothing makes the command wait, and showing it again repaints it from the model, the
/// lines that scrolled away meanwhile put into the terminal's history first.
final class CommandScreen {
    private var model: ScreenModel
    /// Where idlewrap's own bytes are built; reused, so a repaint allocates only the first time.
    private let buffer = OutputBuffer(capacity: 1 << 16)
    private let terminal: (UnsafeRawBufferPointer) -> Void
    /// Bytes of scrollback kept while hidden (`--hold-limit`).
    private let holdLimit: Int
    private(set) var isShown = true
    /// Hears of every output followed: the lock.
    weak var observer: (any CommandScreenObserver)?
    /// While true the terminal gets output only up to the next boundary (`awaitBoundary`).
    private(set) var awaitsBoundary = false
    /// Output that arrived since the screen was hidden, in bytes; 0 while shown.
    private(set) var hiddenByteCount = 0
    /// The output so far, kept while the terminal may still say where its cursor was when
    /// the command started (`StartPositionQuery`); nil when not waiting. Asked for every
    /// read of output, so unchecked as the relay's properties are (Relay.swift says why).
    @exclusivity(unchecked) private var outputBeforeStart: [UInt8]?
    /// The most output kept for that: past it the screen starts at the top left.
    static let outputBeforeStartLimit = 256 * 1024

    /// `write` puts bytes on the terminal.
    init(size: WindowSize, holdLimit: Int, write: @escaping (UnsafeRawBufferPointer) -> Void) {
        model = ScreenModel(rows: Int(size.rows), columns: Int(size.columns))
        self.holdLimit = holdLimit
        terminal = write
    }

    /// What the command's output has turned on.
    var modes: ScreenModes { model.modes }
    /// Nothing is half-written: no escape sequence, string or character is open.
    var isAtBoundary: Bool { model.isAtBoundary }
    /// Changes whenever the command sets its title.
    var titleSets: UInt { model.titleSets }
    var title: [UInt8] { model.title }
    var titles: CommandTitles { CommandTitles(model) }
    /// Lines of output that scrolled away while hidden and did not fit in the hold.
    var droppedScrollbackLines: Int { model.heldScrollback.dropped }

    // MARK: - Output

    /// Output from the command: to the model, and to the terminal while shown; the observer
    /// hears of it after. While a boundary is awaited (`awaitBoundary`), the terminal gets
    /// the bytes only up to it; the observer hears that it was reached, and the rest follows.
    func follow(_ bytes: UnsafeRawBufferPointer) {
        let titles = model.titleSets
        guard awaitsBoundary else {
            model.feed(bytes)
            if outputBeforeStart != nil { keepBeforeStart(bytes) }
            if isShown {
                terminal(bytes)
            } else {
                hiddenByteCount &+= bytes.count
            }
            observer?.screen(self, didFollow: bytes, titlesBefore: titles)
            return
        }
        let shown = model.feedUntilBoundary(bytes)
        terminal(UnsafeRawBufferPointer(rebasing: bytes[..<shown]))
        observer?.screen(self, didFollow: UnsafeRawBufferPointer(rebasing: bytes[..<shown]), titlesBefore: titles)
        guard awaitsBoundary, model.isAtBoundary else { return }
        awaitsBoundary = false
        observer?.screenReachedBoundary(self)
        if shown < bytes.count { follow(UnsafeRawBufferPointer(rebasing: bytes[shown...])) }
    }

    /// From now on the terminal gets output only up to the next boundary (the end of an
    /// escape sequence or character): a lock waits there, so the lock screen starts on a
    /// terminal that is not inside the command's sequence. Until `hide` or `cutShort`.
    func awaitBoundary() {
        giveUpStartPosition()
        awaitsBoundary = true
    }

    /// The command stopped inside a sequence and the lock waits no longer: the terminal
    /// gets bytes that end it, the model none, so it keeps following the sequence; showing
    /// the screen again puts the terminal back inside it (`show`).
    func cutShort() {
        giveUpStartPosition()
        awaitsBoundary = false
        ScreenModel.cut.withUnsafeBytes(terminal)
    }

    // MARK: - Hiding and showing

    /// From now on output reaches only the model: lines scrolling away are kept for the
    /// terminal's history up to the hold limit, queries for after the repaint.
    func hide() {
        giveUpStartPosition()
        awaitsBoundary = false
        guard isShown else { return }
        isShown = false
        hiddenByteCount = 0
        model.startHoldingScrollback(limit: holdLimit)
        model.isHoldingQueries = true
    }

    /// Writes what brings the terminal, wherever the lock screen left it, back to the
    /// command's screen: the lines held for its history (the last of them saying how many
    /// did not fit, if any), the repaint, the input modes the command has on (where
    /// `hiddenModes`, its modes when hidden, were turned off), the queries it asked
    /// meanwhile, the character it printed last again (for a REP), and the start of a
    /// sequence left open. `before` is written first, on the
    /// lock screen.
    func show(hiddenModes: ScreenModes, after before: (OutputBuffer) -> Void) {
        guard !isShown else { return }
        isShown = true
        hiddenByteCount = 0
        let dropped = droppedScrollbackLines
        let notice =
            dropped > 0
            ? Array("idlewrap: \(LockScreenRefresh.lines(dropped)) of output did not fit --hold-limit".utf8) : []
        buffer.removeAll()
        before(buffer)
        model.isHoldingQueries = false
        let queries = model.takeHeldQueries()
        // The repaint ends by printing the character REP would repeat: the input modes and
        // queries go before that, the open sequence after.
        // The held lines go out as they are written: a copy of them all could be the one
        // allocation that fails.
        model.appendHeldScrollbackAndRepaint(
            to: buffer, notice: notice, drain: { [unowned self] _ in flush() },
            beforeLastCharacter: { buffer in
                model.modes.appendInputModesOn(after: hiddenModes, to: buffer)
                buffer.append(contentsOf: queries)
            })
        buffer.append(contentsOf: model.openSequence)
        flush()
    }

    /// Shows the screen again on a terminal that cannot be driven (`PlainLockScreen`): from
    /// a line of its own, a line saying how many lines scrolled away past the hold limit,
    /// the lines held while hidden as text, then the screen's rows as text down to the
    /// cursor, which ends where the command's is. The queries the command asked meanwhile
    /// go after, as the command wrote them.
    func showAsText() {
        guard !isShown else { return }
        isShown = true
        hiddenByteCount = 0
        let dropped = droppedScrollbackLines
        model.isHoldingQueries = false
        let queries = model.takeHeldQueries()
        buffer.removeAll()
        var text = "\r\n"
        if dropped > 0 {
            text += "idlewrap: \(LockScreenRefresh.lines(dropped)) of output did not fit --hold-limit\r\n"
        }
        buffer.append(contentsOf: Array(text.utf8))
        // The held lines go out as they are written, as in `show`.
        model.appendHeldScrollbackAsText(to: buffer, drain: { [unowned self] _ in flush() })
        text = ""
        let cursor = model.cursor
        for row in 0..<cursor.row {
            var line = model.text(row: row)
            while line.last == " " { line.removeLast() }
            text += line + "\r\n"
        }
        text += String(model.text(row: cursor.row).prefix(cursor.column))
        buffer.append(contentsOf: Array(text.utf8))
        buffer.append(contentsOf: queries)
        flush()
    }

    /// The session ends while hidden: nothing held is ever shown.
    func discardHidden() {
        model.discardHeldScrollback()
        model.isHoldingQueries = false
        _ = model.takeHeldQueries()
        hiddenByteCount = 0
    }

    /// The terminal's size changed; the model cuts or pads its screens as a terminal does.
    func resize(_ size: WindowSize) {
        giveUpStartPosition()
        model.resize(rows: Int(size.rows), columns: Int(size.columns))
    }

    // MARK: - Where the command started

    /// The terminal was asked where its cursor is: the output is kept from now on, until
    /// `start(atRow:column:)` or `giveUpStartPosition`. Call it before any output.
    func awaitStartPosition() {
        outputBeforeStart = []
    }

    /// The terminal's cursor was at `row`, `column` (0-based) when the command started: the
    /// model is built again from there with the output so far, and the rows above are left
    /// to the terminal at every repaint. Too late once the screen was hidden or resized, or
    /// once the output kept outgrew its limit.
    func start(atRow row: Int, column: Int) {
        guard let output = outputBeforeStart else { return }
        outputBeforeStart = nil
        let started = ScreenModel(rows: model.rows, columns: model.columns)
        started.start(atRow: row, column: column)
        output.withUnsafeBytes { started.feed($0) }
        model = started
    }

    /// No answer in time (or something needed the model as it is): the screen stays
    /// started at the top left.
    func giveUpStartPosition() {
        outputBeforeStart = nil
    }

    private func keepBeforeStart(_ bytes: UnsafeRawBufferPointer) {
        guard let kept = outputBeforeStart?.count, kept + bytes.count <= Self.outputBeforeStartLimit else {
            outputBeforeStart = nil
            return
        }
        outputBeforeStart?.append(contentsOf: bytes)
    }

    /// Rows at the top still the terminal's from before the command.
    var rowsBeforeStart: Int { model.rowsBeforeStart }

    /// Writes bytes built by `build` through the screen's buffer.
    func write(_ build: (OutputBuffer) -> Void) {
        // Only a terminal that fails while written to comes back here (ending the session
        // writes again), and it takes nothing more: the buffer in use is left alone.
        guard !isWriting else { return }
        buffer.removeAll()
        build(buffer)
        flush()
    }

    private var isWriting = false

    private func flush() {
        guard buffer.count > 0 else { return }
        isWriting = true
        defer { isWriting = false }
        buffer.withUnsafeBytes(terminal)
    }
}

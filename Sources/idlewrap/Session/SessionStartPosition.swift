import PTYKit

/// The session asks the terminal where its cursor is as the command starts, so that the
/// command's screen starts there (`StartPositionQuery` says how the answer is told from
/// what is typed around it).
extension Session {
    /// Asks, once the terminal is raw (a terminal in its normal mode would echo the answer),
    /// when both ends of the terminal are one that understands the question: not TERM=dumb.
    /// The command's output is read from now on, after the question.
    func askStartPosition() {
        guard terminal.isTerminal, relay.terminalOutput.isTerminal, !PlainLockScreen.isNeeded(term: environment["TERM"])
        else { return }
        show(StartPositionQuery.question)
        guard ending.isRunning, !terminalIsGone else { return }
        startPosition = StartPositionQuery(askedAt: clock.now())
        screen.awaitStartPosition()
    }

    /// Input while the answer is awaited: the answer out, the rest to the lock.
    func takeStartPosition(from input: UnsafeRawBufferPointer) {
        guard var query = startPosition else { return }
        let outcome = query.take(input, at: clock.now())
        carryOut(outcome, of: query)
    }

    func startPositionDeadlinePassed(at now: MonotonicInstant) {
        guard var query = startPosition else { return }
        let outcome = query.expire(at: now)
        carryOut(outcome, of: query)
    }

    /// Output while the screen keeps it for the answer: past the patience it stops.
    func noteOutputBeforeStartPosition() {
        guard let query = startPosition, query.screenIsWaiting else { return }
        startPositionDeadlinePassed(at: clock.now())
    }

    /// At exit: an answer that has not come yet is still idlewrap's to take. Waits for it
    /// at most `StartPositionQuery.exitPatience`, not at all when it came, nor when idlewrap
    /// was asked to go; keys typed meanwhile have no command left to reach, and are dropped.
    func takeStartPositionAtExit() {
        guard var query = startPosition, !terminalIsGone, !ending.isSignalled else { return }
        startPosition = nil
        let giveUpAt = clock.now() + StartPositionQuery.exitPatience
        var input = [UInt8](repeating: 0, count: 256)
        // Typed bytes: a password, maybe.
        defer { for index in input.indices { input[index] = 0 } }
        while true {
            let now = clock.now()
            _ = query.expire(at: now)
            guard query.awaitsAnswer, now < giveUpAt else { return }
            let milliseconds = Int32(clamping: ((giveUpAt - now).wholeNanoseconds + 999_999) / 1_000_000)
            let count = input.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in
                    guard try terminal.waitUntilReadable(milliseconds: milliseconds) else { return 0 }
                    return try terminal.read(into: buffer)
                }
            }
            guard case .success(let read) = count, read > 0 else { return }
            var keys = input.withUnsafeBytes { query.take(UnsafeRawBufferPointer(rebasing: $0[..<read]), at: now).keys }
            for index in keys.indices { keys[index] = 0 }
        }
    }

    private func carryOut(_ outcome: StartPositionQuery.Outcome, of query: StartPositionQuery) {
        startPosition = query.isOver ? nil : query
        if let position = outcome.position {
            screen.start(atRow: position.row, column: position.column)
        } else if outcome.givesUp {
            screen.giveUpStartPosition()
        }
        var keys = outcome.keys
        guard !keys.isEmpty else { return }
        keys.withUnsafeBytes { lock.handleInput($0) }
        // Typed bytes: a password, maybe.
        for index in keys.indices { keys[index] = 0 }
    }
}

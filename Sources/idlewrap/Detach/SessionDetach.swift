import Glibc
import PTYKit

/// A session that outlives its terminal (`--detach hangup`): when the terminal goes away
/// the session locks and goes on with none, the command running and its output followed
/// by the screen model within the hold limit, until `idlewrap --attach` hands it another
/// terminal, which gets the lock screen (TerminalTenure.swift has the rules).
extension Session {
    /// The round is over, and the terminal went away in it (a hang-up, EIO, SIGHUP, its
    /// attaching client gone).
    func terminalWentAway() {
        guard ending.isRunning else { return }
        switch tenure.terminalWentAway(at: Int(clock.wallTime())) {
        case .hangUp: hangUp(.signal(SIGHUP))
        case .detach(let first): detach(leavingTerminalSession: first)
        case .nothing: break
        }
    }

    /// Locks, and lets go of the terminal: nothing is read from it or written to it, its
    /// descriptors are given up (so that a hung-up terminal can be freed), and the first
    /// time, the terminal's session is left, so that the login's end does not reach the
    /// session. The lock waits for no one: no deadline of its wakes the session.
    private func detach(leavingTerminalSession first: Bool) {
        lock.requestLock()
        startPosition = nil
        screen.giveUpStartPosition()
        // Restoring a terminal that has gone does nothing.
        rawMode = nil
        relay.isReadingInput = false
        attachedClient?.end(with: nil)
        attachedClient = nil
        lockSource.isDetached = true
        ending.detached(at: clock.now())
        do {
            try ProcessTerminal.replaceWithNothing()
            if first { try ProcessTerminal.leaveTerminalSession() }
        } catch {
            log.record("detaching: \(error)", priority: LOG_ERR)
        }
        log.record("detached")
    }

    /// `idlewrap --attach` (`--take`) asks for the session, passing its terminal.
    func answerAttach(_ call: ControlCall) -> ControlAnswer {
        // Closed on every way out: once in place, the terminal is on 0, 1 and 2.
        defer { call.closeDescriptors() }
        let refusal: String?
        if let stranger = tenure.refusal(of: call.peer.uid) {
            refusal = stranger
        } else if !ending.isRunning {
            refusal = "the session is ending"
        } else if call.descriptors.count != 2 || !call.descriptors.allSatisfy(\.isTerminal) {
            refusal = "no terminal was passed"
        } else {
            if call.request == .take, tenure.policy == .hangup, tenure.detachedSince == nil {
                // Locked before the new terminal is served.
                lock.requestLock()
            }
            refusal = nil
        }
        if let refusal { return refuse(call, refusal) }
        switch tenure.attach(peer: call.peer.uid, take: call.request == .take, locked: lock.isLocked) {
        case .refused(let reason):
            return refuse(call, reason)
        case .takeOver(let original):
            letGo(original: original)
        case .attach:
            break
        }
        take(input: call.descriptors[0], output: call.descriptors[1], client: call)
        return .kept
    }

    private func refuse(_ call: ControlCall, _ reason: String) -> ControlAnswer {
        log.record("attach refused: \(reason) (pid \(call.peer.pid), uid \(call.peer.uid))", priority: LOG_WARNING)
        return .reply(AttachMessage.refused(reason).line)
    }

    /// `--take`: the terminal the session is on, locked, is left as idlewrap found it (the
    /// lock screen gone for a cleared screen, its settings restored) with a line that says
    /// why, and let go of. The terminal idlewrap started on goes back to its shell at once:
    /// the session leaves its session and its guardian, which ends (`GuardianLink.leave`),
    /// and its socket is named by the session process's pid from then on.
    private func letGo(original: Bool) {
        let leaving = OutputBuffer(capacity: 512)
        lock.appendLetGo(to: leaving)
        leaving.append(contentsOf: Array("idlewrap: this session was taken over by another terminal\r\n".utf8))
        leaving.withUnsafeBytes { display.write($0) }
        rawMode = nil
        attachedClient?.end(with: .detached)
        attachedClient = nil
        guard original else { return }
        do {
            try ProcessTerminal.leaveTerminalSession()
        } catch {
            log.record("leaving the terminal's session: \(error)", priority: LOG_ERR)
        }
        do {
            try controlSocket?.moveToThisProcess()
        } catch {
            log.record("naming the control socket by the session process: \(error)", priority: LOG_ERR)
        }
        guardian.leave()
    }

    /// Puts the passed terminal in the session's place, raw, at its size (the command gets
    /// a SIGWINCH only if that differs: the kernel sends none for the same size), and has
    /// the lock draw its screen there.
    private func take(input: FileDescriptor, output: FileDescriptor, client call: ControlCall) {
        let client = AttachedClient(
            call.connection, resized: { [unowned self] in terminalResized() },
            gone: { [unowned self] in display.markGone() })
        attachedClient = client
        sources.add(client)
        do {
            try ProcessTerminal.replace(input: input, output: output)
            rawMode = try RawMode(terminal)
        } catch {
            log.record("attaching: \(error)", priority: LOG_ERR)
            display.markGone()
            return
        }
        display.replaced()
        relay.terminalWasReplaced()
        relay.isReadingInput = true
        lockSource.isDetached = false
        ending.attached()
        client.send(.attached)
        log.record("attached (pid \(call.peer.pid), \(terminal.terminalPath() ?? "?"))")
        followSize()
        lock.terminalReplaced()
    }

    /// The attaching client's terminal changed its size (the client gets the SIGWINCH).
    func terminalResized() {
        followSize()
        lock.handleResize()
    }

    /// The command and its screen take the terminal's size.
    private func followSize() {
        try? WindowSize.of(terminal).apply(to: relay.master)
        screen.resize(display.windowSize)
    }
}

extension ControlCall {
    func closeDescriptors() {
        for descriptor in descriptors { try? descriptor.close() }
    }
}

import CPTYShims
import Glibc

/// Signals turned into data: they are blocked and read from a signalfd, so the
/// relay handles them in its loop instead of in an asynchronous handler.
public final class SignalSource {
    public let descriptor: FileDescriptor
    /// The signals this source blocked, which it unblocks when released. One the
    /// caller had blocked already stays blocked: unblocking it would deliver one
    /// that came after the last read, at its default action (for SIGHUP, the end
    /// of the process whatever it was about to exit with).
    private let blockedHere: [Int32]

    /// Blocks `signals` for this (single) thread and starts reading them,
    /// until the source is released.
    public init(_ signals: [Int32]) throws(PTYError) {
        var wasBlocked = [Bool](repeating: false, count: signals.count)
        do {
            let fd = try valueOrErrno {
                signals.withUnsafeBufferPointer { signals in
                    wasBlocked.withUnsafeMutableBufferPointer {
                        cpty_signalfd_open(signals.baseAddress!, Int32(signals.count), $0.baseAddress!)
                    }
                }
            }
            descriptor = FileDescriptor(rawValue: fd)
        } catch {
            throw PTYError(.watchSignals, error, context: "signalfd")
        }
        blockedHere = zip(signals, wasBlocked).filter { !$0.1 }.map(\.0)
    }

    /// The next pending signal, or nil when none is.
    public func next() throws(PTYError) -> Int32? {
        do {
            let signal = try valueOrErrno { cpty_signalfd_read(descriptor.rawValue) }
            return signal == 0 ? nil : signal
        } catch {
            throw PTYError(.watchSignals, error, context: "read(signalfd)")
        }
    }

    deinit {
        try? descriptor.close()
        _ = blockedHere.withUnsafeBufferPointer { cpty_signals_unblock($0.baseAddress!, Int32($0.count)) }
    }
}

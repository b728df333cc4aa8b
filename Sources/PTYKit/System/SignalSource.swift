import CPTYShims
import Glibc

/// Signals turned into data: they are blocked and read from a signalfd, so the
/// relay handles them in its loop instead of in an asynchronous handler.
public final class SignalSource {
    public let descriptor: FileDescriptor
    private let signals: [Int32]

    /// Blocks `signals` for this (single) thread and starts reading them,
    /// until the source is released.
    public init(_ signals: [Int32]) throws(PTYError) {
        self.signals = signals
        do {
            let fd = try valueOrErrno {
                signals.withUnsafeBufferPointer { cpty_signalfd_open($0.baseAddress!, Int32($0.count)) }
            }
            descriptor = FileDescriptor(rawValue: fd)
        } catch {
            throw PTYError(.watchSignals, error, context: "signalfd")
        }
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
        _ = signals.withUnsafeBufferPointer { cpty_signals_unblock($0.baseAddress!, Int32($0.count)) }
    }
}

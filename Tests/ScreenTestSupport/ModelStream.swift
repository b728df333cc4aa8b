import PTYKit

/// A ScreenModel with value semantics, for the mode-tracking tests:
/// a copy that is fed afterwards replays what its original was fed into a model of its own.
public struct ModelStream {
    private final class Box {
        let model = ScreenModel(rows: 24, columns: 80)
        var history: [UInt8] = []
    }

    private var box = Box()

    public init() {}

    public static let cut = ScreenModel.cut

    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&box) else { return }
        let old = box
        box = Box()
        box.history = old.history
        old.history.withUnsafeBytes { box.model.feed($0) }
    }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        makeUnique()
        box.history += bytes
        box.model.feed(bytes)
    }

    public mutating func feedUntilBoundary(_ bytes: UnsafeRawBufferPointer) -> Int {
        makeUnique()
        let consumed = box.model.feedUntilBoundary(bytes)
        box.history += bytes[..<consumed]
        return consumed
    }

    public mutating func feed(_ bytes: some Collection<UInt8>) {
        Array(bytes).withUnsafeBytes { feed($0) }
    }

    public mutating func feedUntilBoundary(_ bytes: some Collection<UInt8>) -> Int {
        Array(bytes).withUnsafeBytes { feedUntilBoundary($0) }
    }

    public var isAtBoundary: Bool { box.model.isAtBoundary }
    public var modes: ScreenModes { box.model.modes }
    public var titleSets: UInt { box.model.titleSets }
    public func lastBoundary(in bytes: UnsafeRawBufferPointer) -> Int? { box.model.lastBoundary(in: bytes) }
}

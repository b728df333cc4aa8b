/// The parameters, private marker and intermediate of the escape or control sequence being
/// parsed, in fixed inline storage (no allocation). The limits (ScreenParserTable.swift): 16
/// parameters (later ones are dropped, the sequence still dispatches), values saturating at
/// 65535, one intermediate. `:` sub-parameters (SGR `38:2::10:20:30`, `4:3`) are kept too,
/// up to 32 values in all.
struct SequenceParameters: Sendable {
    static let maximumParameterCount = 16
    static let maximumValueCount = 32  // the size of `finished`
    /// Large enough for every mode number and coordinate in use, small enough that
    /// `value * 10 + 9` cannot overflow.
    static let maximumParameterValue: UInt32 = 65_535
    static let absent = UInt32.max

    /// `<`, `=`, `>` or `?` right after CSI, or 0.
    private(set) var marker: UInt8 = 0
    /// The first intermediate byte (0x20-0x2F), or 0.
    private(set) var intermediate: UInt8 = 0
    /// More than one intermediate: no sequence the model interprets has that.
    private(set) var hasExtraIntermediates = false
    /// `;`-separated parameters seen so far, at most `maximumParameterCount`; 0 when there
    /// were no parameter bytes at all.
    private(set) var parameterCount = 0
    /// Values seen, parameters and sub-parameters alike.
    private(set) var valueCount = 0
    /// Whether any `:` came: only SGR interprets sub-parameters; others ignore the sequence.
    private(set) var hasSubparameters = false
    private var dropping = false
    /// Bit i: value i came after a `:`.
    private var subparameterMask: UInt32 = 0
    /// The last value, still being read.
    private var current = absent
    private var finished = InlineArray<32, UInt32>(repeating: 0)

    mutating func clear() {
        marker = 0
        intermediate = 0
        hasExtraIntermediates = false
        parameterCount = 0
        valueCount = 0
        hasSubparameters = false
        dropping = false
        subparameterMask = 0
        current = Self.absent
    }

    @inline(__always)
    mutating func collect(_ byte: UInt8) {
        if (0x3C...0x3F).contains(byte) {
            marker = byte
        } else if intermediate == 0 {
            intermediate = byte
        } else {
            hasExtraIntermediates = true
        }
    }

    /// The first parameter byte starts the first value.
    @inline(__always)
    private mutating func beginValues() {
        if valueCount == 0 {
            valueCount = 1
            parameterCount = 1
        }
    }

    /// `value` with the decimal digit `byte` after it, saturating.
    @inline(__always)
    static func appending(digit byte: UInt8, to value: UInt32) -> UInt32 {
        min(value &* 10 &+ UInt32(byte &- UInt8(ascii: "0")), maximumParameterValue)
    }

    /// A digit or `;`.
    @inline(__always)
    mutating func param(_ byte: UInt8) {
        beginValues()
        guard !dropping else { return }
        if byte == UInt8(ascii: ";") {
            if parameterCount < Self.maximumParameterCount && valueCount < Self.maximumValueCount {
                finished[valueCount &- 1] = current
                valueCount &+= 1
                parameterCount &+= 1
                current = Self.absent
            } else {
                dropping = true
            }
            return
        }
        current = Self.appending(digit: byte, to: current == Self.absent ? 0 : current)
    }

    /// A number whose digits all came in a row, read by the caller: the same as the
    /// digits fed to `param` one by one.
    @inline(__always)
    mutating func number(_ value: UInt32) {
        beginValues()
        guard !dropping else { return }
        current = value
    }

    /// A `:`.
    mutating func subparam() {
        beginValues()
        hasSubparameters = true
        guard !dropping else { return }
        if valueCount < Self.maximumValueCount {
            finished[valueCount &- 1] = current
            subparameterMask |= 1 &<< UInt32(valueCount)
            valueCount &+= 1
            current = Self.absent
        } else {
            dropping = true
        }
    }

    /// Value `index` (parameters and sub-parameters counted alike), or nil if it is
    /// missing or empty.
    @inline(__always)
    func value(_ index: Int) -> UInt32? {
        guard index < valueCount else { return nil }
        let value = index == valueCount &- 1 ? current : finished[index]
        return value == Self.absent ? nil : value
    }

    /// Whether value `index` came after a `:`.
    @inline(__always)
    func isSubparameter(_ index: Int) -> Bool {
        index < 32 && subparameterMask & (1 &<< UInt32(index)) != 0
    }

    /// Parameter `index`, or `defaultValue` if it is missing or empty. For sequences
    /// without sub-parameters, where parameters and values are the same.
    @inline(__always)
    func parameter(_ index: Int, default defaultValue: UInt32) -> UInt32 {
        value(index) ?? defaultValue
    }

    /// Parameter `index` as a count or coordinate: missing, empty or 0 mean `defaultValue`.
    @inline(__always)
    func count(_ index: Int, default defaultValue: Int = 1) -> Int {
        let value = value(index) ?? 0
        return value == 0 ? defaultValue : Int(value)
    }
}

/// The payload of the control string (OSC, DCS, `ESC k`) being parsed, bounded: bytes past
/// `capacity` are dropped and `isTruncated` says so. The storage is allocated once by the
/// model and never grows.
struct ControlString {
    enum Kind: UInt8, Sendable {
        case none, osc, dcs, rename
    }

    static let capacity = 4096

    let storage: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var isTruncated = false
    var kind = Kind.none
    /// For a DCS: whether its payload is kept (only queries are interpreted).
    var isKept = true

    init(storage: UnsafeMutablePointer<UInt8>) {
        self.storage = storage
    }

    mutating func start(_ kind: Kind) {
        self.kind = kind
        count = 0
        isTruncated = false
        isKept = true
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        guard isKept else { return }
        if count < Self.capacity {
            storage[count] = byte
            count &+= 1
        } else {
            isTruncated = true
        }
    }

    mutating func put(_ bytes: UnsafePointer<UInt8>, count length: Int) {
        guard isKept, length > 0 else { return }
        let room = min(length, Self.capacity - count)
        if room > 0 {
            (storage + count).update(from: bytes, count: room)
            count &+= room
        }
        if room < length { isTruncated = true }
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: count) }

    /// The OSC command number before the first `;` (`0` in `0;title`), whether a `;` came,
    /// and where the rest begins; nil when something else than digits comes before the
    /// `;`, no digit does, or the string is empty.
    func oscCommand() -> (number: UInt32, hasSeparator: Bool, rest: Int)? {
        var number: UInt32 = 0
        var index = 0
        while index < count {
            let byte = storage[index]
            // No number before it: tmux and Ghostty set nothing (xterm reads 0).
            if byte == UInt8(ascii: ";") {
                return index == 0 ? nil : (number, true, index + 1)
            }
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            number = SequenceParameters.appending(digit: byte, to: number)
            index += 1
        }
        return index == 0 ? nil : (number, false, count)
    }
}

/// How a setting's value is written: `parse` checks text and gives the value, `format`
/// gives the text back, which `parse` reads as the same value.
///
/// Every stored property is a closure or the kind, none a `Value`: the layout is then the
/// same for every `Value`, and copying a grammar (into each `Setting`, as the option table
/// is made at every start) needs no type metadata made at run time, which cost the start
/// 45 k instructions when `alone` and `emptyInFile` were stored as `Value?`.
struct ValueGrammar<Value: Sendable>: Sendable {
    let kind: ValueKind
    /// The value of a switch given alone (`--quiet`); nil for any other grammar.
    let alone: (@Sendable () -> Value)?
    /// What an empty value in a configuration file means, for a grammar that refuses the
    /// empty text: not set, for a field that may be unset (`optional`), as `--show-config`
    /// shows it; nil when the empty text is up to `parse`.
    let emptyInFile: (@Sendable () -> Value)?
    let parse: @Sendable (String) throws(ValueProblem) -> Value
    let format: @Sendable (Value) -> String

    init(
        _ kind: ValueKind, alone: (@Sendable () -> Value)? = nil, emptyInFile: (@Sendable () -> Value)? = nil,
        parse: @escaping @Sendable (String) throws(ValueProblem) -> Value,
        format: @escaping @Sendable (Value) -> String
    ) {
        self.kind = kind
        self.alone = alone
        self.emptyInFile = emptyInFile
        self.parse = parse
        self.format = format
    }

    /// The value of `text`, or of the option given alone when `text` is nil.
    func value(of text: String?) throws(ValueProblem) -> Value {
        guard let text else {
            guard let alone else { preconditionFailure("an option with a value was given none") }
            return alone()
        }
        return try parse(text)
    }

    /// The same grammar for a field that may be unset (nil), which is shown as empty.
    var optional: ValueGrammar<Value?> {
        ValueGrammar<Value?>(
            kind, emptyInFile: { nil }, parse: { text throws(ValueProblem) in try parse(text) },
            format: { $0.map(format) ?? "" })
    }
}

extension ValueGrammar {
    /// A grammar whose parser gives nil for what it does not accept: "invalid `name`".
    fileprivate static func checked(
        _ kind: ValueKind, _ name: String, parse: @escaping @Sendable (String) -> Value?,
        format: @escaping @Sendable (Value) -> String
    ) -> ValueGrammar {
        ValueGrammar(
            kind,
            parse: { text throws(ValueProblem) in
                guard let value = parse(text) else { throw .invalid("invalid \(name)") }
                return value
            }, format: format)
    }
}

extension ValueGrammar where Value == Duration {
    static let duration = ValueGrammar(
        .duration,
        parse: { text throws(ValueProblem) in
            switch scanDuration(text) {
            case .success(let duration): return duration
            case .failure(.tooLong):
                throw .invalid(
                    "too long a duration", detail: " (the longest is \(longestDurationHours)h, about 292 years)")
            case .failure(.malformed): throw .invalid("invalid duration")
            }
        }, format: { formatDuration($0) })
}

extension ValueGrammar where Value == Int {
    /// Bytes, with an optional K, M or G.
    static let size = checked(.size, "size", parse: { parseSize($0) }, format: { formatSize($0) })

    /// A whole number from 1 to `PasswordLineEditor.maximumLength`.
    static let count = ValueGrammar(
        .number,
        parse: { text throws(ValueProblem) in
            guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let count = Int(text),
                (1...PasswordLineEditor.maximumLength).contains(count)
            else {
                throw .invalid(
                    "invalid number", detail: " (expected a whole number from 1 to \(PasswordLineEditor.maximumLength))"
                )
            }
            return count
        }, format: { String($0) })
}

extension ValueGrammar where Value == UInt8 {
    /// A control key in caret notation.
    static let key = ValueGrammar(
        .key,
        parse: { text throws(ValueProblem) in
            guard let key = parseLockKey(text) else {
                let reason = lockKeyRefusal(text) ?? "expected a control key such as ^] or ^\\"
                throw .invalid("invalid key", detail: ": \(reason)")
            }
            return key
        }, format: { caretNotation(of: $0) ?? "" })
}

extension ValueGrammar where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the enumeration's cases, by name; anything else is an unknown `what`.
    fileprivate static func choice(_ kind: ValueKind, _ what: String) -> ValueGrammar {
        ValueGrammar(
            kind,
            parse: { text throws(ValueProblem) in
                guard let value = Value(rawValue: text) else {
                    throw .invalid("unknown \(what)", detail: " (expected \(choiceList(kind.choices)))")
                }
                return value
            },
            // A closure, not the key path `\.rawValue`: in this generic context the key
            // path would be built at run time, 25 k instructions of each start per grammar.
            format: { $0.rawValue })
    }
}

extension ValueGrammar where Value == AuthMethod {
    static let method = choice(.method, "method")
}

extension ValueGrammar where Value == DetachWhen {
    static let detachWhen = choice(.detachWhen, "value")
}

extension ValueGrammar where Value == AttachAtLogin {
    static let attachAtLogin = choice(.attachAtLogin, "value")
}

extension ValueGrammar where Value == [AuthMethod] {
    /// Methods separated by commas, each at most once, at least one: `pam, file`.
    static let methods = ValueGrammar(
        .methods,
        parse: { text throws(ValueProblem) in
            var methods: [AuthMethod] = []
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                let name = String(item.trimmingBlanks())
                guard let method = AuthMethod(rawValue: name), !methods.contains(method) else {
                    throw .invalid(
                        "invalid list of methods",
                        detail:
                            " (expected one or more of \(choiceList(ValueKind.method.choices)), separated by commas, each once)"
                    )
                }
                methods.append(method)
            }
            return methods
        }, format: { $0.map(\.rawValue).joined(separator: ", ") })
}

extension ValueGrammar where Value == [String] {
    /// Keys of settings the site may fix (`OptionTable.fixable`), separated by commas, each
    /// at most once: `detach, attach`, by their keys in a file. The empty text fixes none.
    static let settingNames = ValueGrammar(
        .settingNames,
        parse: { text throws(ValueProblem) in
            var names: [String] = []
            guard !text.isEmpty else { return names }
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                let name = String(item.trimmingBlanks())
                guard OptionTable.fixable.contains(where: { $0.configKey == name }), !names.contains(name) else {
                    let keys = OptionTable.fixable.map(\.configKey)
                    throw .invalid(
                        "invalid list of keys",
                        detail: " (expected \(choiceList(keys)), separated by commas, each once)")
                }
                names.append(name)
            }
            return names
        }, format: { $0.joined(separator: ", ") })
}

extension ValueGrammar where Value == Bool {
    /// Given alone, it is on; a configuration file says `yes` or `no`.
    static let `switch` = ValueGrammar(
        .switch, alone: { true },
        parse: { text throws(ValueProblem) in
            switch text {
            case "yes": return true
            case "no": return false
            default: throw .invalid("invalid value", detail: " (expected \(choiceList(ValueKind.switch.choices)))")
            }
        }, format: { $0 ? "yes" : "no" })
}

extension ValueGrammar where Value == String {
    /// A name that must not be empty.
    static let name = nonEmpty(.text)
    /// A file's path, which must not be empty.
    static let path = nonEmpty(.path)
    /// A directory's path, which must not be empty.
    static let directory = nonEmpty(.directory)

    private static func nonEmpty(_ kind: ValueKind) -> ValueGrammar {
        ValueGrammar(
            kind,
            parse: { text throws(ValueProblem) in
                guard !text.isEmpty else { throw .empty }
                return text
            }, format: { $0 })
    }
}

extension ValueGrammar where Value == String? {
    /// Any text; the empty one means not set (nil), as `--show-config` shows an unset
    /// value, so that its lines read back the same.
    static let text = ValueGrammar(.text, parse: { $0.isEmpty ? nil : $0 }, format: { $0 ?? "" })
}

/// Why a value does not fit its option's grammar. `Settings` names the option and the
/// place of the value in the message.
enum ValueProblem: Error, Equatable {
    /// "invalid duration", followed by the value, the place, and `detail`.
    case invalid(String, detail: String = "")
    case empty
}

/// "pam, ask or file".
func choiceList(_ choices: [String]) -> String {
    choices.dropLast().joined(separator: ", ") + " or " + choices[choices.count - 1]
}

/// A setting's half of an option: the field of `Options` it sets and the grammar of its
/// value, which reads the field from text and writes it back as text. Everything that
/// handles settings (the parser, configuration files, `--show-config`, the fuzz targets)
/// goes through these two calls, so a new setting needs only its entry and its field.
struct Setting: Sendable {
    let kind: ValueKind
    private let store: @Sendable (String?, inout Options) throws(ValueProblem) -> Void
    /// Unsets the field, for `key =` in a file; nil when the grammar has no such value.
    private let unset: (@Sendable (inout Options) -> Void)?
    private let show: @Sendable (Options) -> String

    /// The field is reached through `get` and `set` rather than a key path: making a key
    /// path costs the runtime tens of thousands of instructions at its first use, which
    /// every start of idlewrap would pay.
    init<Value: Sendable>(
        _ grammar: ValueGrammar<Value>, get: @escaping @Sendable (Options) -> Value,
        set: @escaping @Sendable (inout Options, Value) -> Void
    ) {
        kind = grammar.kind
        store = { text, options throws(ValueProblem) in
            set(&options, try grammar.value(of: text))
        }
        if let empty = grammar.emptyInFile {
            unset = { options in set(&options, empty()) }
        } else {
            unset = nil
        }
        show = { options in grammar.format(get(options)) }
    }

    /// Sets the field from `text` in the setting's grammar. `text` is nil only for a
    /// switch given alone. In a configuration file (`inFile`) an empty text unsets a
    /// field that may be unset, as `--show-config` shows it.
    func set(_ text: String?, in options: inout Options, inFile: Bool = false) throws(ValueProblem) {
        if inFile, text == "", let unset {
            unset(&options)
            return
        }
        try store(text, &options)
    }

    /// The field's value as a configuration file spells it; empty when it is not set.
    func text(in options: Options) -> String {
        show(options)
    }
}

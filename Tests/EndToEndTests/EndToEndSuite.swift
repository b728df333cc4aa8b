import Testing

/// Every suite that runs the real binary nests here, so they run one at a
/// time: the machine is small and noisy, and timing-sensitive tests must not
/// compete with each other.
@Suite(.serialized, .timeLimit(.minutes(5)))
enum EndToEnd {}

// swift-tools-version:6.0
import PackageDescription

// Declarative: the README's `swift build -c release --static-swift-stdlib` is a
// developer's build, linked as the toolchain links. The shipped builds' tuned
// link (libstdc++ static, the hot functions first, hardening) is the
// Makefile's; docs/packaging.md explains it.
let package = Package(
    name: "idlewrap",
    products: [
        .library(name: "PTYKit", targets: ["PTYKit"]),
        .executable(name: "idlewrap", targets: ["idlewrap"]),
    ],
    targets: [
        // What Swift cannot reach through Glibc: signalfd, the wait-status
        // macros, posix_spawn's GNU extensions.
        .target(
            name: "CPTYShims",
            cSettings: [.define("_GNU_SOURCE")],
            // dlsym (for glibc 2.34's closefrom action) is in libdl before glibc 2.34.
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // Declarations for libcrypt (linked) and libpam (loaded at run time).
        .target(
            name: "CAuthShims",
            cSettings: [.define("_GNU_SOURCE")],
            linkerSettings: [.linkedLibrary("crypt"), .linkedLibrary("dl")]
        ),
        // Declarations for libsystemd's sd-bus (loaded at run time), to follow logind.
        .target(name: "CBusShims"),
        // The screen model's widest stores of text into cells (AVX2 where the
        // CPU has it, chosen at run time).
        .target(name: "CScreenKernels"),
        .target(
            name: "PTYKit",
            dependencies: ["CPTYShims", "CScreenKernels"]
        ),
        .executableTarget(
            name: "idlewrap",
            // CPTYShims for the calls idlewrap's own system wrappers need (accept4,
            // SO_PEERCRED, prctl), which PTYKit does not.
            dependencies: ["PTYKit", "CPTYShims", "CAuthShims", "CBusShims"]
        ),
        // The screen model's test helpers every tier uses (the notation, the model's
        // feed, every split, the transcripts): a test target with no tests, as
        // TestSupport, but of PTYKit alone.
        .testTarget(
            name: "ScreenTestSupport",
            dependencies: ["PTYKit"]
        ),
        // PTYKit's unit tier: seconds (CONTRIBUTING.md).
        .testTarget(
            name: "PTYKitTests",
            dependencies: ["PTYKit", "CScreenKernels", "ScreenTestSupport"]
        ),
        // The screen model's long runs: the fast paths against the plain feed and
        // every vector form against SSE2, over floods, recordings and random bytes.
        .testTarget(
            name: "ScreenDifferentialTests",
            dependencies: ["PTYKit", "ScreenTestSupport"]
        ),
        // The helpers both of idlewrap's test tiers use: the terminal and tmux
        // drivers, test users, temporary directories, fixtures. A test target
        // (with no tests) so that only test builds compile it: it imports
        // idlewrap @testable, which a release build is not.
        .testTarget(
            name: "TestSupport",
            dependencies: ["idlewrap", "PTYKit", "ScreenTestSupport"]
        ),
        // The unit tier: seconds (CONTRIBUTING.md).
        .testTarget(
            name: "idlewrapTests",
            dependencies: ["idlewrap", "PTYKit", "TestSupport"]
        ),
        // The end-to-end tier: the built idlewrap binary (found next to the
        // test bundle) under a pty and under tmux, and the screen model against
        // tmux, one serialized suite.
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["idlewrap", "PTYKit", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

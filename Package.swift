// swift-tools-version:6.0
import PackageDescription

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
            cSettings: [.define("_GNU_SOURCE")]
        ),
        // Declarations for libcrypt (linked) and libpam (loaded at run time).
        .target(
            name: "CAuthShims",
            cSettings: [.define("_GNU_SOURCE")],
            linkerSettings: [.linkedLibrary("crypt"), .linkedLibrary("dl")]
        ),
        .target(
            name: "PTYKit",
            dependencies: ["CPTYShims"]
        ),
        .executableTarget(
            name: "idlewrap",
            dependencies: ["PTYKit", "CAuthShims"],
            linkerSettings: [.unsafeFlags([
                // lld packs the ~15 000 relative relocations of a position-independent
                // binary with the static Swift runtime into a few KiB (DT_RELR, glibc
                // 2.36+) instead of 370 KiB that ld.so has to read at every start.
                "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                // The code that runs while starting and relaying, together: see
                // Linker/make-symbol-order.
                "-Xlinker", "--symbol-ordering-file=" + Context.packageDirectory + "/Linker/symbol-order.txt",
                "-Xlinker", "--no-warn-symbol-ordering",
            ]),
            // libstdc++ and libgcc from their archives: see Linker/libstdc++.so.
            // Release builds only: the test bundle links this target too, and
            // there libgcc_eh's private personality routine, called by the
            // shared unwinder when the main thread leaves through pthread_exit
            // (libdispatch does), aborts under ThreadSanitizer.
            .unsafeFlags(
                ["-L", Context.packageDirectory + "/Linker", "-Xclang-linker", "-static-libgcc"],
                .when(configuration: .release)),
            ]
        ),
        .testTarget(
            name: "PTYKitTests",
            dependencies: ["PTYKit"]
        ),
        .testTarget(
            name: "idlewrapTests",
            dependencies: ["idlewrap", "PTYKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

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
        // Declarations for libsystemd's sd-bus (loaded at run time), to follow logind.
        .target(name: "CBusShims"),
        .target(
            name: "PTYKit",
            dependencies: ["CPTYShims"]
        ),
        .executableTarget(
            name: "idlewrap",
            dependencies: ["PTYKit", "CAuthShims", "CBusShims"],
            linkerSettings: [.unsafeFlags([
                // lld packs the ~15 000 relative relocations of a position-independent
                // binary with the static Swift runtime into a few KiB (DT_RELR, glibc
                // 2.36+) instead of 370 KiB that ld.so has to read at every start.
                "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                // libstdc++ and libgcc from their archives: see Linker/libstdc++.so.
                "-L", Context.packageDirectory + "/Linker", "-Xclang-linker", "-static-libgcc",
                // The code that runs while starting and relaying, together: see
                // Linker/make-symbol-order.
                "-Xlinker", "--symbol-ordering-file=" + Context.packageDirectory + "/Linker/symbol-order.txt",
                "-Xlinker", "--no-warn-symbol-ordering",
            ])]
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

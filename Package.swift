// swift-tools-version:6.0
import Foundation
import PackageDescription

// The README's build (`swift build -c release --static-swift-stdlib`) on
// Linux, linked as `make` links it (see the Makefile) where the toolchain
// can, which keeps it inside the start-up and memory rails:
// - libstdc++ and libgcc's unwinder static where the toolchain's clang finds
//   libstdc++.a (g++ brings it on Debian and Ubuntu, libstdc++-static on
//   RHEL), else the shared libraries, as before: nothing new is needed to
//   build (packaging/static-libstdc++/libstdc++.so says how);
// - where the toolchain has ld.lld, the functions that run at start and
//   while relaying output first in the text
//   (packaging/portable/hot-functions.txt; idlewrap's own code in a section
//   per function, PTYKit's placed by object file). SwiftPM does not see the
//   list: a new one is linked in when the executable is next linked.
// Benchmarks/RESULTS.md has what they save. These are unsafe flags, so they
// sit on the executable alone: SwiftPM refuses a product with unsafe flags
// from a versioned dependency, and PTYKit's has none (the idlewrap
// executable's product is now usable from path dependencies only). Debug
// builds, and so the tests, link as before. SwiftPM keeps what a manifest
// found: after installing g++, `swift package purge-cache` looks again.
let release = BuildSettingCondition.when(platforms: [.linux], configuration: .release)
let toolchain = toolchainBinaryDirectory()
let staticLibstdcxx = toolchain.map { clangFindsFile($0 + "/clang", "libstdc++.a") } ?? false
let hotFunctionsFirst = toolchain.map { FileManager.default.isExecutableFile(atPath: $0 + "/ld.lld") } ?? false

let executableSwiftSettings: [SwiftSetting] =
    hotFunctionsFirst ? [.unsafeFlags(["-Xfrontend", "-function-sections"], release)] : []
let executableLinkerSettings: [LinkerSetting] =
    (staticLibstdcxx ? [.unsafeFlags(["-L", Context.packageDirectory + "/packaging/static-libstdc++"], release)] : [])
    + (hotFunctionsFirst
        ? [
            .unsafeFlags(
                [
                    "-use-ld=lld", "-Xlinker",
                    "--symbol-ordering-file=" + Context.packageDirectory + "/packaging/portable/hot-functions.txt",
                    "-Xlinker", "--no-warn-symbol-ordering",
                ], release)
        ] : [])

/// The bin folder of the toolchain that evaluates this manifest: the one
/// whose PackageDescription library this process has loaded
/// (TOOLCHAIN/usr/lib/swift/pm/ManifestAPI), or nil where that is not seen.
func toolchainBinaryDirectory() -> String? {
    #if os(Linux)
        let library = "/lib/swift/pm/ManifestAPI/libPackageDescription.so"
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
            let loaded = maps.split(separator: "\n").compactMap({ $0.split(separator: " ").last })
                .first(where: { $0.hasSuffix(library) })
        else { return nil }
        return loaded.dropLast(library.count) + "/bin"
    #else
        return nil
    #endif
}

/// Whether `clang -print-file-name=NAME` finds the file NAME where it links
/// from (it prints the name alone where it does not).
func clangFindsFile(_ clang: String, _ name: String) -> Bool {
    #if os(Linux)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: clang)
        process.arguments = ["-print-file-name=" + name]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        let path = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 && path.first == UInt8(ascii: "/")
    #else
        return false
    #endif
}

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
        .target(name: "CCellStores"),
        .target(
            name: "PTYKit",
            dependencies: ["CPTYShims", "CCellStores"]
        ),
        .executableTarget(
            name: "idlewrap",
            // CPTYShims for the calls idlewrap's own system wrappers need (accept4,
            // SO_PEERCRED, prctl), which PTYKit does not.
            dependencies: ["PTYKit", "CPTYShims", "CAuthShims", "CBusShims"],
            swiftSettings: executableSwiftSettings,
            linkerSettings: executableLinkerSettings
        ),
        .testTarget(
            name: "PTYKitTests",
            dependencies: ["PTYKit", "CCellStores"]
        ),
        .testTarget(
            name: "idlewrapTests",
            dependencies: ["idlewrap", "PTYKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.0
// The screen-model micro-benchmark: PTYKit's ScreenModel alone, over a corpus
// of real terminal output. Built and run by Benchmarks/run; not part of CI.
import PackageDescription

// SwiftPM names a path dependency after its folder, and the checkout's folder
// may be called anything (idlewrap, main, a CI clone), so derive that name.
let rootFolder = Context.packageDirectory.split(separator: "/").dropLast(2).last.map(String.init)
let rootPackage = (rootFolder ?? "idlewrap").lowercased()

let package = Package(
    name: "ParserBench",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "ParserBench",
            dependencies: [.product(name: "PTYKit", package: rootPackage)]
        ),
    ],
    swiftLanguageModes: [.v6]
)

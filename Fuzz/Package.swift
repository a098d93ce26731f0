// swift-tools-version: 6.1
import PackageDescription

/// The libFuzzer target over the GraphQL engine's parser, printer and validator (issue 18), a
/// package of its own so that the server's build never sees the sanitizer flags:
///
///     swift build --package-path Fuzz -Xswiftc -sanitize=fuzzer,address
///
/// `make fuzz` (scripts/fuzz.sh) builds and runs it. `Sources/GraphQL` is a link to the engine's
/// own sources, compiled here with the sanitizers; the engine depends on nothing else but
/// swift-distributed-tracing.
let package = Package(
    name: "StorykeepFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3")
    ],
    targets: [
        .target(name: "GraphQL", dependencies: [.product(name: "Tracing", package: "swift-distributed-tracing")]),
        // Starts libFuzzer's driver from the executable's own main.
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzGraphQL", dependencies: ["GraphQL", "FuzzDriver"]),
    ]
)

// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Storykeep",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "storykeep", targets: ["storykeep"]),
        .library(name: "GraphQL", targets: ["GraphQL"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // Configuration: Config/storykeep.json, overridden by the environment (DESIGN.md). Hummingbird
        // already builds it; the default trait adds its JSON file provider.
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        // Services run by the server (the tenant cache) and graceful shutdown; Hummingbird builds it.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // System libraries.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // The hand-written GraphQL engine: no PostgreSQL, no HTTP, no domain.
        .target(name: "GraphQL"),
        // The libpq client.
        .target(
            name: "Postgres",
            dependencies: [
                "CLibPQ",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The domain.
        .target(
            name: "Storykeep",
            dependencies: [
                "GraphQL", "Postgres", "CArgon2", "CCrypto",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
        // HTTP.
        .target(
            name: "StorykeepServer",
            dependencies: [
                "Storykeep", "GraphQL", "Postgres", "CCrypto",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The command line.
        .executableTarget(
            name: "storykeep",
            dependencies: [
                "StorykeepServer", "Storykeep", "GraphQL", "Postgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Corpus/: the differential cases and graphql-core's outputs, read by path (#filePath).
        .testTarget(name: "GraphQLTests", dependencies: ["GraphQL"], exclude: ["Corpus"]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres"]),
        .testTarget(name: "StorykeepTests", dependencies: ["Storykeep", "Postgres"]),
        .testTarget(
            name: "StorykeepServerTests",
            dependencies: [
                "StorykeepServer", "Storykeep", "Postgres",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(name: "storykeepTests", dependencies: ["storykeep"]),
    ]
)

// swift-tools-version: 6.1
import PackageDescription

/// The domain's modules, each a target `Storykeep<Name>` in `Sources/Storykeep/<Name>/` that sees
/// the core and the modules it `uses`, nothing else: a circle between modules, or a module reaching
/// into another it does not name here, does not build. Adding a module adds one line here and one
/// in `StorykeepModules.all` (docs/modules.md).
let domainModules: [(name: String, uses: [String])] = [
    ("Accounts", []),
    ("Journals", []),
    ("Profile", ["Journals"]),
    ("Tags", ["Journals"]),
    ("Archive", ["Journals"]),
    ("Rewards", ["Journals", "Profile", "Notifications", "Caseload"]),
    ("Notifications", []),
    ("Caseload", ["Profile", "Notifications"]),
    ("Sharing", ["Journals", "Caseload", "Notifications"]),
    ("Prompts", ["Journals", "Caseload", "Notifications"]),
    ("Safety", ["Caseload", "Notifications"]),
    ("Export", ["Accounts", "Journals", "Archive", "Caseload", "Sharing"]),
    ("Audit", ["Accounts", "Journals", "Caseload"]),
    ("Webhooks", []),
    ("Privacy", []),
    ("Social", ["Journals", "Notifications"]),
    ("Figures", ["Journals", "Sharing"]),
    ("Messaging", ["Journals", "Notifications", "Social"]),
]

/// System libraries a module calls itself (accounts: libcrypto's signatures, for passkeys).
let moduleLibraries: [String: [Target.Dependency]] = ["Accounts": ["CCrypto"]]

/// What a module's target depends on: the core, the modules it uses, its system libraries.
func moduleDependencies(_ module: (name: String, uses: [String])) -> [Target.Dependency] {
    let common: [Target.Dependency] = ["StorykeepCore", "GraphQL", "Postgres", .product(name: "Logging", package: "swift-log")]
    let used: [Target.Dependency] = module.uses.map { .target(name: "Storykeep" + $0) }
    return common + used + (moduleLibraries[module.name] ?? [])
}

/// Files a module reads at run time, in its folder (the export's HTML template).
let moduleResources: [String: [Resource]] = ["Export": [.copy("Templates")]]

let package = Package(
    name: "Storykeep",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "storykeep", targets: ["storykeep"]),
        .library(name: "GraphQL", targets: ["GraphQL"]),
        .library(name: "GraphQLHTTP", targets: ["GraphQLHTTP"]),
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
        // GraphQL subscriptions over WebSocket (graphql-ws): Hummingbird's own WebSocket upgrade.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // The metrics' backend: `GET /metrics` in Prometheus's text format (issue 17).
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Tracing (issue 17): spans for requests, GraphQL's phases and SQL statements, and the W3C
        // `traceparent` a request arrives with. Hummingbird already builds swift-distributed-tracing.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-w3c-trace-context.git", from: "1.0.0"),
    ],
    targets: domainModules.map { module in
        .target(
            name: "Storykeep" + module.name,
            dependencies: moduleDependencies(module),
            path: "Sources/Storykeep/" + module.name,
            resources: moduleResources[module.name]
        )
    } + [
        // System libraries.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // The hand-written GraphQL engine: no PostgreSQL, no HTTP, no domain; spans for its
        // phases through swift-distributed-tracing (nothing without a tracer).
        .target(name: "GraphQL", dependencies: [.product(name: "Tracing", package: "swift-distributed-tracing")]),
        // GraphQL over HTTP for any schema: the engine and Hummingbird, and libcrypto for the
        // SHA-256 of persisted queries. No PostgreSQL, no domain.
        .target(
            name: "GraphQLHTTP",
            dependencies: ["GraphQL", "CCrypto", .product(name: "Hummingbird", package: "hummingbird")]
        ),
        // The libpq client.
        .target(
            name: "Postgres",
            dependencies: [
                "CLibPQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // The domain: a shared core, one target per module (so that the compiler refuses a circle
        // between modules and anything a module did not make `package` or `public`), and the
        // composition root that lists the modules. See docs/modules.md.
        .target(
            name: "StorykeepCore",
            dependencies: [
                "GraphQL", "Postgres", "CArgon2", "CCrypto",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            path: "Sources/Storykeep/Core"
        ),
        .target(
            name: "StorykeepTenancy",
            dependencies: ["StorykeepCore", "Postgres", .product(name: "Yams", package: "Yams")],
            path: "Sources/Storykeep/Tenancy"
        ),
        .target(
            name: "Storykeep",
            dependencies: ["StorykeepCore", "StorykeepTenancy", "GraphQL", "Postgres", .product(name: "Logging", package: "swift-log")]
                + domainModules.map { .target(name: "Storykeep" + $0.name) },
            path: "Sources/Storykeep/Composition"
        ),
        .target(
            name: "StorykeepSeed",
            dependencies: ["Storykeep", "Postgres"],
            path: "Sources/Storykeep/Seed"
        ),
        // The HTTP application: tenant routing, the bearer token, files, health; GraphQL over HTTP
        // from GraphQLHTTP, run by the tenant's schema.
        .target(
            name: "StorykeepServer",
            dependencies: [
                "Storykeep", "GraphQLHTTP", "GraphQL", "Postgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ]
        ),
        // The command line.
        .executableTarget(
            name: "storykeep",
            dependencies: [
                "StorykeepServer", "GraphQLHTTP", "Storykeep", "StorykeepSeed", "GraphQL", "Postgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // What the HTTP tests share, free of the domain: reading a response, form encoding.
        .target(
            name: "HTTPTestSupport",
            dependencies: ["GraphQL", .product(name: "HummingbirdTesting", package: "hummingbird")],
            path: "Tests/HTTPTestSupport"
        ),
        // What the test targets share: the test database, tenants and people made for one test,
        // the application's test server and a GraphQL client for it, sample media.
        .target(
            name: "StorykeepTestSupport",
            dependencies: [
                "StorykeepServer", "Storykeep", "StorykeepCore", "StorykeepTenancy", "StorykeepAccounts", "GraphQL", "Postgres",
                "HTTPTestSupport", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/StorykeepTestSupport"
        ),
        // Corpus/: the differential cases and graphql-core's outputs, read by path (#filePath).
        .testTarget(name: "GraphQLTests", dependencies: ["GraphQL"], exclude: ["Corpus"]),
        // Client/: a Python GraphQL client's script, run against a live server.
        .testTarget(
            name: "GraphQLHTTPTests",
            dependencies: ["GraphQLHTTP", "GraphQL", "HTTPTestSupport", .product(name: "HummingbirdTesting", package: "hummingbird")],
            exclude: ["Client"]
        ),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "StorykeepTestSupport"]),
        .testTarget(
            name: "StorykeepTests",
            dependencies: ["Storykeep", "StorykeepCore", "StorykeepTenancy", "StorykeepSeed", "Postgres", "StorykeepTestSupport"]
                + domainModules.map { .target(name: "Storykeep" + $0.name) }
        ),
        // Client/: a Python graphql-ws client's script, run against a live server.
        .testTarget(
            name: "StorykeepServerTests",
            dependencies: [
                "StorykeepServer", "GraphQLHTTP", "Storykeep", "StorykeepCore", "StorykeepTenancy", "StorykeepSeed", "Postgres",
                "StorykeepTestSupport", .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ] + domainModules.map { .target(name: "Storykeep" + $0.name) },
            exclude: ["Client"]
        ),
        .testTarget(name: "storykeepTests", dependencies: ["storykeep", "StorykeepTestSupport"]),
    ]
)


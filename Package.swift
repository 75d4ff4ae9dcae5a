// swift-tools-version:6.1
import PackageDescription

// Dependencies point one way:
//   herald -> HeraldJobs -> HeraldPublish, HeraldStore -> HeraldCore
//   herald -> HeraldBoard -> HeraldPublish
//   HeraldStore -> PostgresClient -> CLibPQ
//   HeraldCore -> CLibCrypto (SHA-256 only)
// herald never imports PostgresClient, which knows nothing of Herald. Test support, tests
// and the benchmark sit on top and may use PostgresClient directly. Each target lists
// exactly the modules it imports, plus `herald` for the tests that run the binary.
let package = Package(
    name: "Herald",
    platforms: [.macOS(.v15)],  // Synchronization.Mutex
    products: [
        .executable(name: "herald", targets: ["herald"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // libpq's header (libpq-dev) and the functions PostgresClient calls, which load libpq.so.5
        // on the first call: a command that never connects never pays for mapping it.
        .target(name: "CLibPQ", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "PostgresClient", dependencies: ["CLibPQ"]),
        // OpenSSL's SHA-256 (CPU instructions where there are some) for the digests of published
        // files (libssl-dev's header), loaded on the first digest.
        .target(name: "CLibCrypto", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // The pure core (no I/O, no SQL) has one outside dependency: Yams, a pure YAML parser.
        // Campaigns files are parsed here, into the same domain values and rules everything
        // else uses, with every problem reported at its path; that needs YAML's node tree.
        // OpenSSL's SHA-256 (a pure function) names published files and checks migrations.
        .target(name: "HeraldCore", dependencies: ["CLibCrypto", .product(name: "Yams", package: "Yams")]),
        .executableTarget(name: "EmbedMigrations"),
        .plugin(name: "EmbedMigrationsPlugin", capability: .buildTool(), dependencies: ["EmbedMigrations"]),
        .target(
            name: "HeraldStore",
            dependencies: ["HeraldCore", "PostgresClient"],
            plugins: ["EmbedMigrationsPlugin"]
        ),
        .target(name: "HeraldPublish", dependencies: ["HeraldCore"]),
        // Publish, rollback and ingest as calls: for the CLI, tests and future commands.
        .target(name: "HeraldJobs", dependencies: ["HeraldCore", "HeraldStore", "HeraldPublish"]),
        // The review board: pure HTML/SVG from values (no database, no files), written by `herald board`.
        .target(name: "HeraldBoard", dependencies: ["HeraldCore", "HeraldPublish"]),
        .executableTarget(
            name: "herald",
            dependencies: [
                "HeraldCore", "HeraldStore", "HeraldPublish", "HeraldJobs", "HeraldBoard",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "HeraldTestSupport", dependencies: ["HeraldCore", "PostgresClient", "HeraldStore"]),
        // `scripts/benchmark-publish`: numbers, not tests.
        .executableTarget(name: "herald-benchmark", dependencies: ["HeraldTestSupport", "HeraldStore", "PostgresClient"], path: "Sources/HeraldBenchmark"),
        .testTarget(name: "PostgresClientTests", dependencies: ["PostgresClient", "HeraldTestSupport"]),
        .testTarget(
            name: "HeraldCoreTests",
            dependencies: ["HeraldCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "HeraldStoreTests",
            dependencies: [
                "HeraldCore", "HeraldStore", "PostgresClient", "HeraldTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "HeraldPublishTests", dependencies: ["HeraldCore", "HeraldPublish", "HeraldTestSupport"], exclude: ["Golden"]),
        // The board rendered from values and opened in a real headless Chromium.
        .testTarget(name: "HeraldBoardTests", dependencies: ["HeraldBoard", "HeraldCore", "HeraldPublish", "HeraldTestSupport"]),
        // Most CLI tests run commands in-process (InProcessHerald, `@testable import herald`); a few run the built binary.
        .testTarget(
            name: "HeraldCLITests",
            dependencies: [
                "HeraldCore", "HeraldJobs", "HeraldStore", "PostgresClient", "HeraldTestSupport", "herald",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "HeraldJobsTests",
            dependencies: ["HeraldJobs", "HeraldCore", "HeraldStore", "HeraldPublish", "HeraldTestSupport", "PostgresClient"]
        ),
        // docker-compose.yml parsed and checked; a real nginx serving a published site.
        .testTarget(
            name: "HeraldDeployTests",
            dependencies: ["HeraldTestSupport", "herald", .product(name: "Yams", package: "Yams")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

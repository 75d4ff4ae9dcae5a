// swift-tools-version:6.1
import PackageDescription

// Dependencies point one way:
//   herald -> HeraldJobs -> HeraldBoard, HeraldSite, HeraldStore
//   HeraldBoard, HeraldSite -> HeraldPublish -> HeraldCore
//   HeraldStore -> PostgresServer -> PostgresClient -> CLibPQ
//   HeraldCore -> CLibCrypto (SHA-256 only)
// HeraldCore and HeraldPublish (the compilers, encoders, lints and preview) touch no file;
// HeraldSite is the site folder's filesystem layer. herald never imports PostgresClient or
// PostgresServer, which know nothing of Herald. Test support, tests and the benchmark sit on
// top and may use them directly. Each target lists exactly the modules it imports, plus
// `herald` for the tests that run the binary.
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
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .target(name: "PostgresClient", dependencies: ["CLibPQ"]),
        // A PostgreSQL cluster of one's own (initdb, start, stop, who may connect): Herald's
        // local database and the tests' throwaway servers.
        .target(name: "PostgresServer", dependencies: ["PostgresClient"]),
        // OpenSSL's SHA-256 (CPU instructions where there are some) for the digests of published files.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
        ),
        // The pure core (no I/O, no SQL) has one outside dependency: Yams, a pure YAML parser.
        // Campaigns files are parsed here, into the same domain values and rules everything
        // else uses, with every problem reported at its path; that needs YAML's node tree.
        // OpenSSL's SHA-256 (a pure function) names published files and checks migrations.
        .target(name: "HeraldCore", dependencies: ["CLibCrypto", .product(name: "Yams", package: "Yams")]),
        .executableTarget(name: "EmbedMigrations"),
        .plugin(name: "EmbedMigrationsPlugin", capability: .buildTool(), dependencies: ["EmbedMigrations"]),
        .target(
            name: "HeraldStore",
            dependencies: ["HeraldCore", "PostgresClient", "PostgresServer"],
            plugins: ["EmbedMigrationsPlugin"]
        ),
        // Pure: snapshot → files, the device preview, lints, the manifest format, the site's layout.
        .target(name: "HeraldPublish", dependencies: ["HeraldCore"]),
        // The one writer of a published folder: what is on disk, and a plan carried out there.
        .target(name: "HeraldSite", dependencies: ["HeraldCore", "HeraldPublish"]),
        // The application layer: one type per use case (publish, apply, campaign editing, board,
        // preview, ingest, ...), each a call the CLI, the tests and later doors make alike.
        .target(name: "HeraldJobs", dependencies: ["HeraldCore", "HeraldStore", "HeraldPublish", "HeraldSite", "HeraldBoard"]),
        // The review board: pure HTML/SVG from values (no database, no files), written by `herald board`.
        .target(name: "HeraldBoard", dependencies: ["HeraldCore", "HeraldPublish"]),
        .executableTarget(
            name: "herald",
            dependencies: [
                "HeraldCore", "HeraldStore", "HeraldPublish", "HeraldSite", "HeraldJobs", "HeraldBoard",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "HeraldTestSupport", dependencies: ["HeraldCore", "PostgresClient", "PostgresServer", "HeraldStore"]),
        // `scripts/benchmark-publish`: numbers, not tests.
        .executableTarget(
            name: "herald-benchmark", dependencies: ["HeraldTestSupport", "HeraldStore", "PostgresClient", "PostgresServer"],
            path: "Sources/HeraldBenchmark"),
        .testTarget(name: "PostgresClientTests", dependencies: ["PostgresClient", "HeraldTestSupport"]),
        .testTarget(
            name: "HeraldCoreTests",
            dependencies: ["HeraldCore", "HeraldTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "HeraldStoreTests",
            dependencies: [
                "HeraldCore", "HeraldStore", "PostgresClient", "HeraldTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "HeraldPublishTests",
            dependencies: [
                "HeraldCore", "HeraldPublish", "HeraldTestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Golden"]),
        .testTarget(name: "HeraldSiteTests", dependencies: ["HeraldCore", "HeraldPublish", "HeraldSite", "HeraldTestSupport"]),
        // The board rendered from values and opened in a real headless Chromium.
        .testTarget(name: "HeraldBoardTests", dependencies: ["HeraldBoard", "HeraldCore", "HeraldPublish", "HeraldSite", "HeraldTestSupport"]),
        // Most CLI tests run commands in-process (InProcessHerald, `@testable import herald`); a few run the built binary.
        .testTarget(
            name: "HeraldCLITests",
            dependencies: [
                "HeraldCore", "HeraldJobs", "HeraldStore", "HeraldSite", "PostgresClient", "PostgresServer", "HeraldTestSupport", "herald",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "HeraldJobsTests",
            dependencies: ["HeraldJobs", "HeraldCore", "HeraldStore", "HeraldPublish", "HeraldSite", "HeraldTestSupport", "PostgresClient"]
        ),
        // docker-compose.yml parsed and checked; a real nginx serving a published site.
        .testTarget(
            name: "HeraldDeployTests",
            dependencies: ["HeraldTestSupport", "herald", .product(name: "Yams", package: "Yams")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

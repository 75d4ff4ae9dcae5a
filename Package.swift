// swift-tools-version:6.1
import PackageDescription

// Dependencies point one way:
//   herald -> HeraldPublish, HeraldStore -> HeraldCore
//   HeraldStore -> PostgresClient -> CLibPQ
let package = Package(
    name: "Herald",
    platforms: [.macOS(.v15)],
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
        // OpenSSL's SHA-256 (CPU instructions where there are some) for the digests of published files.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
        ),
        .target(name: "HeraldCore", dependencies: [.product(name: "Yams", package: "Yams")]),
        .executableTarget(name: "EmbedMigrations"),
        .plugin(name: "EmbedMigrationsPlugin", capability: .buildTool(), dependencies: ["EmbedMigrations"]),
        .target(
            name: "HeraldStore",
            dependencies: ["HeraldCore", "PostgresClient"],
            plugins: ["EmbedMigrationsPlugin"]
        ),
        .target(name: "HeraldPublish", dependencies: ["HeraldCore", "CLibCrypto"]),
        .executableTarget(
            name: "herald",
            dependencies: [
                "HeraldCore", "HeraldStore", "HeraldPublish",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "HeraldTestSupport", dependencies: ["PostgresClient", "HeraldStore", "HeraldCore"]),
        // `scripts/benchmark-publish`: numbers, not tests.
        .executableTarget(name: "herald-benchmark", dependencies: ["HeraldTestSupport", "HeraldStore", "PostgresClient"], path: "Sources/HeraldBenchmark"),
        .testTarget(name: "PostgresClientTests", dependencies: ["PostgresClient", "HeraldTestSupport"]),
        .testTarget(
            name: "HeraldCoreTests",
            dependencies: ["HeraldCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "HeraldStoreTests",
            dependencies: ["HeraldStore", "HeraldTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "HeraldPublishTests", dependencies: ["HeraldPublish", "HeraldTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "HeraldCLITests", dependencies: ["HeraldTestSupport", "herald"]),
        // docker-compose.yml parsed and checked; a real nginx serving a published site.
        .testTarget(
            name: "HeraldDeployTests",
            dependencies: ["HeraldTestSupport", "herald", .product(name: "Yams", package: "Yams")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

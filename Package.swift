// swift-tools-version:6.1
import PackageDescription

// Dependencies point one way:
//   herald -> HeraldJobs -> HeraldBoard, HeraldSite, HeraldStore
//   herald -> HeraldCollector -> HeraldJobs (the HTTP collector: Hummingbird in front of a use case)
//   HeraldBoard, HeraldSite -> HeraldPublish -> HeraldCore, HeraldLocalNotifications (the device client's plan, for preview)
//   HeraldStore -> PostgresServer -> PostgresClient -> CLibPQ
//   HeraldCore -> CLibCrypto (SHA-256 only)
//   HeraldCollector -> CConcurrencyHook (the runtime's global executor hook)
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
        // `herald collect`: an HTTP/1.1 server (Hummingbird on SwiftNIO), its lifecycle (SIGTERM drains),
        // its log line and its Prometheus metrics. Hummingbird's traits are off: no swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        // HTTP/1 as Hummingbird's channel carries it: the collector writes a 100 Continue head itself, and
        // reads a request's version where the codec still has it.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
    ],
    targets: [
        // libpq's header (libpq-dev) and the functions PostgresClient calls, which load libpq.so.5
        // on the first call: a command that never connects never pays for mapping it.
        .target(name: "CLibPQ", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "PostgresClient", dependencies: ["CLibPQ"]),
        // A PostgreSQL cluster of one's own (initdb, start, stop, who may connect): Herald's
        // local database and the tests' throwaway servers.
        .target(name: "PostgresServer", dependencies: ["PostgresClient"]),
        // OpenSSL's SHA-256 (CPU instructions where there are some) for the digests of published
        // files (libssl-dev's header), loaded on the first digest.
        .target(name: "CLibCrypto", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // Where the Swift runtime keeps its global executor's hook (`herald collect` runs Swift
        // concurrency's jobs on NIO's event loops): a C reference finds it in a static runtime too.
        .target(name: "CConcurrencyHook"),
        // herald's first step, before the Swift runtime starts: a command line that will connect
        // starts loading libpq on a thread of its own (a constructor), and the rule that says which do.
        .target(name: "CHeraldStartup", dependencies: ["CLibPQ"]),
        // The pure core (no I/O, no SQL) has one outside dependency: Yams, a pure YAML parser.
        // Campaigns files are parsed here, into the same domain values and rules everything
        // else uses, with every problem reported at its path; that needs YAML's node tree.
        // OpenSSL's SHA-256 (a pure function) names published files and checks migrations.
        .target(name: "HeraldCore", dependencies: ["CLibCrypto", .product(name: "Yams", package: "Yams")]),
        .executableTarget(name: "EmbedSQL"),
        .plugin(name: "EmbedSQLPlugin", capability: .buildTool(), dependencies: ["EmbedSQL"]),
        .target(
            name: "HeraldStore",
            dependencies: ["HeraldCore", "PostgresClient", "PostgresServer"],
            plugins: ["EmbedSQLPlugin"]
        ),
        // Pure: snapshot → files, the device preview, lints, the manifest format, the site's layout.
        // Its preview of local notifications is the device client's own plan (HeraldLocalNotifications).
        .target(name: "HeraldPublish", dependencies: ["HeraldCore", "HeraldLocalNotifications"]),
        // The one writer of a published folder: what is on disk, and a plan carried out there.
        .target(name: "HeraldSite", dependencies: ["HeraldCore", "HeraldPublish"]),
        // The application layer: one type per use case (publish, apply, campaign editing, board,
        // preview, ingest, ...), each a call the CLI, the tests and later doors make alike.
        .target(name: "HeraldJobs", dependencies: ["HeraldCore", "HeraldStore", "HeraldPublish", "HeraldSite", "HeraldBoard"]),
        // `herald collect`: the HTTP side (routes, statuses, limits, metrics, the activity line) of
        // HeraldJobs' EventCollector. The only target that knows HTTP.
        .target(
            name: "HeraldCollector",
            dependencies: [
                "HeraldCore", "HeraldStore", "HeraldJobs", "CConcurrencyHook",
                .product(name: "Hummingbird", package: "hummingbird"),
                // Its HTTP/1 channel, wrapped to apply a request's version rules (VersionAwareHTTP1Channel).
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // Its parser's errors: a body that is no HTTP body (400) from one its client left (499).
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // `HTTPResponsePart`: the informational 100 Continue written before a body is read.
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // `HTTP1ToHTTPServerCodec`: where a request's HTTP version is still known (VersionAwareHTTP1Channel).
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ]
        ),
        // The reference device client (clients/HeraldReporter.swift, Foundation only), built here so
        // that its tests run it against a real collector.
        .target(name: "HeraldReporter", path: "clients", exclude: ["HeraldLocalNotifications.swift"], sources: ["HeraldReporter.swift"]),
        // The local notifications client (clients/HeraldLocalNotifications.swift, Foundation only; its
        // UserNotifications adapter is left out on Linux), built here so that its tests run it and
        // preview decides with its code.
        .target(
            name: "HeraldLocalNotifications", path: "clients", exclude: ["HeraldReporter.swift"], sources: ["HeraldLocalNotifications.swift"]),
        // The review board: pure HTML/SVG from values (no database, no files), written by `herald board`.
        .target(name: "HeraldBoard", dependencies: ["HeraldCore", "HeraldPublish"]),
        // What herald shows people and scripts: text tables, JSON text, the terminal's safety net,
        // and the words for campaigns, stories, schedules and reports. Pure: values in, text out.
        .target(name: "HeraldText", dependencies: ["HeraldCore", "HeraldStore", "HeraldPublish", "HeraldJobs"]),
        .executableTarget(
            name: "herald",
            dependencies: [
                "HeraldCore", "HeraldStore", "HeraldPublish", "HeraldSite", "HeraldJobs", "HeraldBoard", "HeraldCollector", "HeraldText", "CHeraldStartup",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `publish --watch`'s one line per run.
                .product(name: "Logging", package: "swift-log"),
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
        // The local notifications client against an in-memory notification center, on files the compiler made.
        .testTarget(
            name: "HeraldLocalNotificationsTests", dependencies: ["HeraldLocalNotifications", "HeraldCore", "HeraldPublish"]),
        .testTarget(name: "HeraldSiteTests", dependencies: ["HeraldCore", "HeraldPublish", "HeraldSite", "HeraldTestSupport"]),
        // The board rendered from values and opened in a real headless Chromium.
        .testTarget(name: "HeraldBoardTests", dependencies: ["HeraldBoard", "HeraldCore", "HeraldPublish", "HeraldSite", "HeraldTestSupport"]),
        // Most CLI tests run commands in-process (InProcessHerald, `@testable import herald`); a few run the built binary.
        .testTarget(
            name: "HeraldCLITests",
            dependencies: [
                "HeraldCore", "HeraldJobs", "HeraldStore", "HeraldSite", "HeraldText", "PostgresClient", "PostgresServer", "HeraldTestSupport", "herald", "CHeraldStartup",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "HeraldJobsTests",
            dependencies: ["HeraldJobs", "HeraldCore", "HeraldStore", "HeraldPublish", "HeraldSite", "HeraldTestSupport", "PostgresClient"]
        ),
        // A real `herald collect` (the built binary) on a real PostgreSQL: statuses, limits, group commit,
        // kill -9, the database stopped, SIGTERM, two collectors; and the reference client against it.
        .testTarget(
            name: "HeraldCollectorTests",
            dependencies: ["HeraldCore", "HeraldStore", "HeraldReporter", "HeraldTestSupport", "PostgresClient", "PostgresServer", "herald"]
        ),
        // docker-compose.yml parsed and checked; a real nginx serving a published site.
        .testTarget(
            name: "HeraldDeployTests",
            dependencies: ["HeraldTestSupport", "herald", .product(name: "Yams", package: "Yams")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

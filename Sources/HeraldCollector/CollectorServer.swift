import Foundation
import HeraldJobs
import HeraldStore
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// `herald collect`: Hummingbird's HTTP/1.1 server in front of `EventCollector`. Runs until
/// SIGTERM or SIGINT, then stops accepting connections, answers the requests in flight
/// (their batches are stored first), closes the database connections and returns.
public enum CollectorServer {
    /// Runs the collector on the calling thread until it is told to stop; `announce` is told
    /// the address once the server listens (`127.0.0.1:8080`).
    public static func run(
        _ configuration: CollectorConfiguration, connector: HeraldDatabase.Connector, announce: @escaping @Sendable (String) -> Void
    ) throws {
        raiseOpenFileLimit()
        // Before the first task: a request's work then stays on its connection's event loop.
        if configuration.tasksOnEventLoops { EventLoopExecutor.install() }
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result = await Result { try await runAsync(configuration, connector: connector, announce: announce) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        try outcome.withLock { $0 }?.get()
    }

    static func runAsync(
        _ configuration: CollectorConfiguration, connector: HeraldDatabase.Connector, announce: @escaping @Sendable (String) -> Void
    ) async throws {
        LoggingBootstrap.once()
        let logger = Logger(label: "herald.collect")
        let metrics = CollectorMetrics()
        let collector = EventCollector(connector: connector, settings: configuration.store) { events, seconds in
            metrics.commitSeconds.recordSeconds(seconds)
            metrics.commitEvents.record(events)
        }
        collector.start()
        let activity = ActivityLog(logger: logger, seconds: configuration.activityLogSeconds)
        let endpoint = EventsEndpoint(collector: collector, configuration: configuration, metrics: metrics, activity: activity)
        let router = Router(context: CollectorRequestContext.self)
        router.addMiddleware { UnknownEndpoints(metrics: metrics) }
        router.post("/v1/events") { request, context in await endpoint.handle(request, channel: context.channel) }
        router.get("/healthz") { _, _ in EventsEndpoint.json(.ok, "{\"status\":\"alive\"}") }
        // Why it is not ready names the database (its host, its user): that goes to the log,
        // once per change, not to whoever can reach /readyz.
        let lastProblem = Mutex<String?>(nil)
        router.get("/readyz") { _, _ in
            let (ready, problem) = collector.readiness
            let changed = lastProblem.withLock { last in
                defer { last = ready ? nil : problem }
                return !ready && last != problem
            }
            if changed, let problem { logger.warning("not ready: \(problem)") }
            if ready { return EventsEndpoint.json(.ok, "{\"status\":\"ready\"}") }
            return EventsEndpoint.refusal(
                .serviceUnavailable, "not ready: the event store cannot be reached yet (the collector's log says why)", extra: [.retryAfter: "1"])
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        let address = "\(configuration.host):\(configuration.port)"
        let listening = Mutex(false)
        var app = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                VersionAwareHTTP1Channel(http1: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: .seconds(configuration.readTimeoutSeconds))))
            },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil, backlog: 4096),
            onServerRunning: { channel in
                listening.withLock { $0 = true }
                let port = channel.localAddress?.port ?? configuration.port
                let listening = configuration.host.contains(":") ? "[\(configuration.host)]:\(port)" : "\(configuration.host):\(port)"
                logger.info("listening on \(listening) (POST /v1/events; GET /healthz, /readyz, /metrics)")
                announce(listening)
            },
            logger: logger)
        // Stopped in reverse order: the server first (it answers what is in flight), then the
        // activity line, then the store (what is still queued is committed before it returns).
        app.addServices(StoreService(collector: collector, logger: logger, served: { listening.withLock { $0 } }), activity)
        do {
            try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } catch let error as IOError {
            collector.stop()
            throw CollectorError.cannotListen(address: address, reason: String(cString: strerror(error.errnoCode)))
        } catch is SocketAddressError.UnknownHost {
            collector.stop()
            throw CollectorError.cannotListen(address: address, reason: "\(configuration.host) is no address or host name this machine knows")
        } catch {
            collector.stop()
            throw error
        }
    }

    /// Each connection is a descriptor: 1,000 devices at once need more than the usual soft
    /// limit of 1,024, so take the hard limit.
    private static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// The event store as a service: at shutdown (after the server answered what was in flight)
/// it commits whatever is still queued and closes its connections.
struct StoreService: Service {
    let collector: EventCollector
    let logger: Logger
    /// Whether the server ever listened (one that could not says nothing of requests).
    let served: @Sendable () -> Bool

    func run() async throws {
        try? await gracefulShutdown()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                collector.stop()
                continuation.resume()
            }
        }
        if served() { logger.info("stopped: every request in flight was answered") }
    }
}

/// swift-log to standard error, once per process (the collector's and the watching publisher's).
public enum LoggingBootstrap {
    private static let done = Mutex(false)

    public static func once() {
        done.withLock { done in
            guard !done else { return }
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = .info
                return handler
            }
            done = true
        }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}

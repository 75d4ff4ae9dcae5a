import Hummingbird

/// What the router finds no route for, answered in JSON like every other answer: 405 with
/// `Allow` for a known path asked with another method, 404 naming the endpoints otherwise.
/// Counted in the metrics beside the other statuses.
struct UnknownEndpoints<Context: RequestContext>: RouterMiddleware {
    /// Each path the collector serves, and its one method.
    static var methods: [String: HTTPRequest.Method] {
        ["/v1/events": .post, "/healthz": .get, "/readyz": .get, "/metrics": .get]
    }

    let metrics: CollectorMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let response: Response
            if let method = Self.methods[request.uri.path], method != request.method {
                response = EventsEndpoint.refusal(
                    .methodNotAllowed, "\(request.uri.path) answers \(method.rawValue) only", extra: [.allow: method.rawValue])
            } else {
                response = EventsEndpoint.refusal(.notFound, "no such endpoint: the collector answers POST /v1/events, GET /healthz, /readyz and /metrics")
            }
            metrics.requestFinished(status: response.status.code)
            return response
        }
    }
}

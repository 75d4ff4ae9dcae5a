import Hummingbird
import NIOCore

/// Hummingbird's basic context and the request's connection: a request whose body does not
/// arrive in time is answered and its connection closed (Hummingbird would otherwise go on
/// reading what the client trickles in, before the next request).
struct CollectorRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

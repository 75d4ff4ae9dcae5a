import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 channel, plus the rules of a request's HTTP version, which its
/// requests no longer carry: it closes a connection after a request whose `Connection` header
/// is exactly `close`, and keeps every other open until the idle timeout, HTTP/1.0 ones too.
struct VersionAwareHTTP1Channel: ServerChildChannel {
    let http1: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // Between the HTTP/1 decoder and the conversion that drops the version.
            let conversion = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
            try channel.pipeline.syncOperations.addHandler(HTTP1VersionRules(), position: .before(conversion))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

/// A request head's version rules, applied while its version is known:
/// - one that does not keep its connection alive (HTTP/1.0 without `Connection: keep-alive`,
///   or `Connection: close` in any case or list) is marked `Connection: close`, so that its
///   connection ends once answered;
/// - an HTTP/1.0 request's `Expect` is ignored (RFC 9110 §10.1.1: no 100 Continue to it).
final class HTTP1VersionRules: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if !head.isKeepAlive { head.headers.replaceOrAdd(name: "Connection", value: "close") }
        if head.version == .http1_0 { head.headers.remove(name: "Expect") }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}

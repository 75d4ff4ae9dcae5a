import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 channel, plus what it leaves out: it closes a connection after a
/// request whose `Connection` header is exactly `close`, and keeps every other open until the
/// idle timeout, HTTP/1.0 ones too. A request that does not keep its connection alive (HTTP/1.0
/// without `Connection: keep-alive`, or `Connection: close` in any case or list) is marked
/// `close` here, where its version is still known, so that its connection ends once answered.
struct ClosingHTTP1Channel: ServerChildChannel {
    let http1: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // Between the HTTP/1 decoder and the conversion that drops the version.
            let conversion = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
            try channel.pipeline.syncOperations.addHandler(ConnectionCloseMarker(), position: .before(conversion))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

/// Marks `Connection: close` on every request head that does not keep its connection alive.
final class ConnectionCloseMarker: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}

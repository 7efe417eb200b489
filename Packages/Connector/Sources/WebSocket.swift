import CLibWebSockets
import Dispatch
import Foundation
import Synchronization

/// One whole WebSocket message, as the validation protocol uses them: JSON in text frames,
/// APDUs in binary frames.
public enum WebSocketMessage: Sendable, Equatable {
    case text(String)
    case binary([UInt8])
}

/// What waiting on a connection gave.
public enum WebSocketEvent: Sendable, Equatable {
    case message(WebSocketMessage)
    /// The connection is closed: the code and reason of the close frame (ours or the peer's),
    /// 1006 when the link dropped without one.
    case closed(code: UInt16, reason: String)
    /// Nothing arrived in time.
    case timeout
}

/// One WebSocket connection, used from any thread: `send` and `close` queue for the service
/// thread (which alone touches libwebsockets' `struct lws`), `receive` blocks until a message,
/// the close, or the timeout.
public final class WebSocketConnection: Sendable {
    private struct State {
        var outbound: [WebSocketMessage] = []
        var closeRequest: (code: UInt16, reason: String)?
        var inbound: [WebSocketEvent] = []
        /// Set once the close was handed out by `receive`: later calls return it at once.
        var closed: WebSocketEvent?
    }

    private let state = Mutex(State())
    private let arrived = DispatchSemaphore(value: 0)
    private let wake: @Sendable () -> Void

    /// The peer's IP address as text (a server's connection: the client's source address, what
    /// per-address budgets count; a client's: the server host it was asked to reach).
    package let peerAddress: String

    init(peerAddress: String, wake: @escaping @Sendable () -> Void) {
        self.peerAddress = peerAddress
        self.wake = wake
    }

    /// Queues `message`; dropped when a close was asked for.
    public func send(_ message: WebSocketMessage) {
        let queued = state.withLock { state in
            guard state.closeRequest == nil, state.closed == nil else { return false }
            state.outbound.append(message)
            return true
        }
        if queued { wake() }
    }

    /// Closes after the queued messages with `code` (RFC 6455 §7.4; 4000–4999 are the
    /// application's) and `reason` (cut to the 123 bytes a close frame holds).
    public func close(code: UInt16, reason: String) {
        let asked = state.withLock { state in
            guard state.closeRequest == nil else { return false }
            state.closeRequest = (code, String(decoding: Array(reason.utf8.prefix(123)), as: UTF8.self))
            return true
        }
        if asked { wake() }
    }

    /// The next message, the close, or `.timeout` after `timeout`.
    public func receive(timeout: Duration) -> WebSocketEvent {
        if let closed = state.withLock({ $0.closed }) { return closed }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = max(0, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        guard arrived.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return .timeout }
        return state.withLock { state in
            guard !state.inbound.isEmpty else { return state.closed ?? .timeout }
            let event = state.inbound.removeFirst()
            if case .closed = event { state.closed = event }
            return event
        }
    }

    // MARK: - The service thread's side

    func deliver(_ event: WebSocketEvent) {
        state.withLock { $0.inbound.append(event) }
        arrived.signal()
    }

    /// The next message to write, or the close to send once none is left.
    func nextOutbound() -> (message: WebSocketMessage?, close: (code: UInt16, reason: String)?, more: Bool) {
        state.withLock { state in
            guard !state.outbound.isEmpty else { return (nil, state.closeRequest, false) }
            let message = state.outbound.removeFirst()
            return (message, nil, !state.outbound.isEmpty || state.closeRequest != nil)
        }
    }

    /// Whether the connection is closed (the close is waiting for `receive`, or was handed out).
    package var isClosed: Bool {
        state.withLock { state in
            state.closed != nil || state.inbound.contains { if case .closed = $0 { true } else { false } }
        }
    }

    /// Messages received and not yet taken by `receive`.
    var backlog: Int { state.withLock { $0.inbound.count } }

    var wantsToWrite: Bool { state.withLock { !$0.outbound.isEmpty || $0.closeRequest != nil } }
}

/// What a WebSocket endpoint needs from its owner.
package struct WebSocketLimits: Sendable {
    /// Messages a peer may have waiting for `receive`: more close the connection with 1008, so
    /// a peer sending faster than it is read cannot grow the queue without bound.
    package static let maximumBacklog = 64

    /// A binary message (all its fragments) longer than this closes the connection with 1009.
    package var maximumMessageSize: Int
    /// The same for a text message: larger where the peer sends one large JSON message (the
    /// server's `result` to a client), the binary limit otherwise.
    package var maximumTextMessageSize: Int

    package init(maximumMessageSize: Int, maximumTextMessageSize: Int? = nil) {
        self.maximumMessageSize = maximumMessageSize
        self.maximumTextMessageSize = maximumTextMessageSize ?? maximumMessageSize
    }
}

/// A file a server hands out over plain HTTP GET beside its WebSocket (a page and its script),
/// from memory: the bytes are the program's own, nothing is read from disk.
package struct HTTPPage: Sendable {
    package let contentType: String
    package let body: [UInt8]

    package init(contentType: String, body: [UInt8]) {
        self.contentType = contentType
        self.body = body
    }
}

/// A libwebsockets context (server or client) and the thread that services it. libwebsockets
/// is single-threaded: every call on a `struct lws` happens on the service thread; other
/// threads queue on a `WebSocketConnection` and wake the thread with `lws_cancel_service`.
///
/// `@unchecked Sendable`: the context pointer and the protocol table are written once in `init`
/// and read-only after; everything else is `Mutex`, atomics or the service thread's alone.
package final class WebSocketEndpoint: @unchecked Sendable {
    /// What the service thread keeps per connection, reached from the callback through the
    /// connection's opaque user data.
    final class Link {
        let connection: WebSocketConnection
        var partial: [UInt8] = []
        var partialIsBinary = false
        var peerClose: (code: UInt16, reason: String)?
        /// A close decided while receiving (a message too large, too many waiting), sent from
        /// the next writable callback; what still arrives until then is dropped.
        var pendingClose: (code: UInt16, reason: String)?
        /// Set when our own close frame went out.
        var ownClose: (code: UInt16, reason: String)?
        /// Set when the service let go of the link (closed, or failed to connect).
        var finished = false
        init(_ connection: WebSocketConnection) { self.connection = connection }
    }

    /// The state the C callback reaches through `lws_context_user`; made before the context,
    /// released after it.
    final class Core: @unchecked Sendable {
        // `links` is touched on the service thread only (the callback): no lock needed. `context`
        // is behind a lock: any thread wakes the service through it, and the endpoint clears it
        // before destroying the context, so that a late wake never reaches a freed one.
        let limits: WebSocketLimits
        let path: String?
        let onAccept: (@Sendable (WebSocketConnection) -> Void)?
        /// The files served over HTTP by path (`/` the page); empty: HTTP requests are refused.
        let pages: [String: HTTPPage]
        /// The page each HTTP connection is waiting to write, by the connection's address.
        var pendingPages: [Int: HTTPPage] = [:]
        var links: [ObjectIdentifier: (wsi: OpaquePointer, link: Link)] = [:]
        /// The context's address (0: none); an address, because a pointer is not `Sendable`.
        let context = Mutex<Int>(0)
        let stopping = Atomic<Bool>(false)

        init(
            limits: WebSocketLimits, path: String?, onAccept: (@Sendable (WebSocketConnection) -> Void)?,
            pages: [String: HTTPPage] = [:]
        ) {
            self.limits = limits
            self.path = path
            self.onAccept = onAccept
            self.pages = pages
        }

        func wake() {
            context.withLock { address in
                if let context = OpaquePointer(bitPattern: address) { lws_cancel_service(context) }
            }
        }
    }

    private let core: Core
    private let context: OpaquePointer
    /// The protocol table (one entry and the terminator) and its name, alive as long as the context.
    private let protocols: UnsafeMutablePointer<lws_protocols>
    private let protocolName: UnsafeMutablePointer<CChar>
    /// The address a server listens on, as given to libwebsockets: its vhost keeps the pointer
    /// (`vhost->iface`), so the string lives as long as the context.
    private let listenAddress: UnsafeMutablePointer<CChar>?
    private let serviceStarted = Atomic<Bool>(false)
    private let stopped = DispatchSemaphore(value: 0)

    /// The TCP port the server listens on (the one given, or the kernel's pick for port 0).
    package let port: Int

    /// A server on exactly `host` (an IPv4 address, or an IPv6 one without brackets; `0.0.0.0`
    /// or `::` for every address of that family) and `port` (TLS when `certificate` and `key`
    /// are given) accepting WebSocket upgrades on `path` with subprotocol `protocolName`;
    /// `onAccept` gets each connection on the service thread and must return at once. `pages`
    /// are served to HTTP GET requests by path (any other path: 404).
    package init(
        serverOn host: String, port: Int, path: String, protocolName name: String,
        tls: (certificate: String, key: String)?,
        limits: WebSocketLimits, pages: [String: HTTPPage] = [:],
        onAccept: @escaping @Sendable (WebSocketConnection) -> Void
    ) throws(ConnectorError) {
        _ = libWebSocketsLogLevel
        // libwebsockets 4.1 takes `iface` as an interface name or an address, and on its default
        // IPv6 socket an IPv4 address lands in the wrong field and binds every interface; an
        // address it cannot bind only logs. So the address is checked and bound here first (a
        // clear error), and the socket's family is the address's.
        let family = try ListenAddress.family(of: host)
        try ListenAddress.probe(host, family: family, port: port)
        core = Core(limits: limits, path: path, onAccept: onAccept, pages: pages)
        client = nil
        (protocols, protocolName) = Self.protocolTable(name, limits: limits)
        let address = strdup(host)
        listenAddress = address
        var info = lws_context_creation_info()
        info.port = Int32(port)
        info.iface = UnsafePointer(address)
        info.protocols = UnsafePointer(protocols)
        info.user = Unmanaged.passUnretained(core).toOpaque()
        info.options =
            clws_option_validate_utf8() | clws_option_fail_upon_unable_to_bind()
            | (family == AF_INET ? clws_option_disable_ipv6() : clws_option_ipv6_only())
        // A connection that has not finished its HTTP upgrade holds a header table: 2 s, not 10.
        info.timeout_secs_ah_idle = 2
        info.gid = -1
        info.uid = -1
        let created = Self.withOptionalCString(tls?.certificate) { certificate in
            Self.withOptionalCString(tls?.key) { key in
                if certificate != nil {
                    info.options |= clws_option_ssl_global_init()
                    info.ssl_cert_filepath = certificate
                    info.ssl_private_key_filepath = key
                }
                return lws_create_context(&info)
            }
        }
        guard let created else {
            Self.release(protocols, protocolName)
            free(address)
            throw ConnectorError(
                .io, "cannot listen on \(ListenAddress.display(host, port)) (in use, or a TLS file unreadable)")
        }
        context = created
        core.context.withLock { $0 = Int(bitPattern: created) }
        let vhost = lws_get_vhost_by_name(created, "default")
        self.port = vhost.map { Int(lws_get_vhost_listen_port($0)) } ?? port
        start()
    }

    /// A client connected to `url` (`ws://` or `wss://`) offering subprotocol `protocolName`;
    /// `caFile` adds a CA to trust for `wss://`. The connection reports a failure to connect
    /// as `.closed(1006, reason)`.
    package init(
        clientTo url: URL, protocolName name: String, caFile: String?, limits: WebSocketLimits
    ) throws(ConnectorError) {
        guard let scheme = url.scheme, scheme == "ws" || scheme == "wss", let host = url.host else {
            throw ConnectorError(.invalidArgument, "the server URL must be ws://HOST[:PORT]/PATH or wss://…")
        }
        _ = libWebSocketsLogLevel
        core = Core(limits: limits, path: nil, onAccept: nil)
        (protocols, protocolName) = Self.protocolTable(name, limits: limits)
        listenAddress = nil
        var info = lws_context_creation_info()
        info.port = -1  // CONTEXT_PORT_NO_LISTEN
        info.protocols = UnsafePointer(protocols)
        info.user = Unmanaged.passUnretained(core).toOpaque()
        info.gid = -1
        info.uid = -1
        info.options = scheme == "wss" ? clws_option_ssl_global_init() : 0
        let created = Self.withOptionalCString(caFile) { ca in
            info.client_ssl_ca_filepath = ca
            return lws_create_context(&info)
        }
        guard let created else {
            Self.release(protocols, protocolName)
            throw ConnectorError(.io, "cannot make a WebSocket client (libwebsockets refused the context)")
        }
        context = created
        core.context.withLock { $0 = Int(bitPattern: created) }
        port = url.port ?? (scheme == "wss" ? 443 : 80)
        let connection = WebSocketConnection(peerAddress: host, wake: { [core] in core.wake() })
        client = connection
        // Connected before the service thread starts, so that this thread is the only one
        // touching libwebsockets until then.
        let link = Link(connection)
        let opaque = Unmanaged.passRetained(link).toOpaque()
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?\(query)" }
        var connect = lws_client_connect_info()
        connect.context = created
        connect.port = Int32(port)
        connect.ssl_connection = scheme == "wss" ? Int32(LCCSCF_USE_SSL.rawValue) : 0
        connect.ietf_version_or_minus_one = -1
        connect.opaque_user_data = opaque
        let hostHeader = url.port.map { "\(host):\($0)" } ?? host
        let wsi = host.withCString { address in
            path.withCString { pathPointer in
                hostHeader.withCString { hostPointer in
                    protocolName.withMemoryRebound(to: CChar.self, capacity: 1) { protocolPointer in
                        connect.address = address
                        connect.path = pathPointer
                        connect.host = hostPointer
                        connect.origin = hostPointer
                        connect.protocol = UnsafePointer(protocolPointer)
                        return lws_client_connect_via_info(&connect)
                    }
                }
            }
        }
        if wsi == nil && !link.finished {
            // Failed at once, without the error callback: let go of the link here.
            Unmanaged<Link>.fromOpaque(opaque).release()
            connection.deliver(.closed(code: 1006, reason: "cannot connect to \(hostHeader)"))
        }
        start()
    }

    /// The client's one connection (nil for a server).
    package let client: WebSocketConnection?

    deinit {
        stop()
        core.context.withLock { $0 = 0 }
        lws_context_destroy(context)
        Self.release(protocols, protocolName)
        free(listenAddress)
    }

    /// Stops the service thread; open connections are dropped (their peers see 1006).
    package func stop() {
        guard !core.stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        core.wake()
        if serviceStarted.load(ordering: .sequentiallyConsistent) { stopped.wait() }
    }

    private func start() {
        nonisolated(unsafe) let context = context
        let thread = Thread { [core, stopped] in
            while !core.stopping.load(ordering: .sequentiallyConsistent) {
                if lws_service(context, 0) < 0 { break }
            }
            stopped.signal()
        }
        thread.name = "emrtd.websocket"
        serviceStarted.store(true, ordering: .sequentiallyConsistent)
        thread.start()
    }

    private static func protocolTable(_ name: String, limits: WebSocketLimits) -> (
        UnsafeMutablePointer<lws_protocols>, UnsafeMutablePointer<CChar>
    ) {
        let table = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
        table.initialize(repeating: lws_protocols(), count: 2)
        let copy = strdup(name)!
        table[0].name = UnsafePointer(copy)
        table[0].callback = { wsi, reason, user, input, length in
            webSocketCallback(wsi, reason, user, input, length)
        }
        table[0].rx_buffer_size = 4096
        return (table, copy)
    }

    private static func release(_ table: UnsafeMutablePointer<lws_protocols>, _ name: UnsafeMutablePointer<CChar>) {
        table.deinitialize(count: 2)
        table.deallocate()
        free(name)
    }

    private static func withOptionalCString<Result>(
        _ text: String?, _ body: (UnsafePointer<CChar>?) -> Result
    ) -> Result {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }
}

/// libwebsockets logs its banner and notices on standard error; the server logs its own
/// structured lines, so only libwebsockets' errors are kept. Set once, before the first context.
private let libWebSocketsLogLevel: Void = lws_set_log_level(LLL_ERR, nil)

/// The one callback of every protocol table: finds the endpoint's `Core` through the context's
/// user pointer and the connection's `Link` through its opaque user data.
private func webSocketCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let user = lws_context_user(context) else { return 0 }
    let core = Unmanaged<WebSocketEndpoint.Core>.fromOpaque(user).takeUnretainedValue()
    return core.handle(wsi, reason, input, length)
}

extension WebSocketEndpoint.Core {
    typealias Link = WebSocketEndpoint.Link

    private func link(of wsi: OpaquePointer) -> Link? {
        lws_get_opaque_user_data(wsi).map { Unmanaged<Link>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Ends the service's hold on `wsi`'s link and tells the connection how it closed.
    private func finish(_ wsi: OpaquePointer, _ event: WebSocketEvent) {
        guard let opaque = lws_get_opaque_user_data(wsi) else { return }
        lws_set_opaque_user_data(wsi, nil)
        let link = Unmanaged<Link>.fromOpaque(opaque).takeRetainedValue()
        link.finished = true
        links[ObjectIdentifier(link)] = nil
        link.connection.deliver(event)
    }

    func handle(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ input: UnsafeMutableRawPointer?, _ length: Int)
        -> Int32
    {
        switch reason {
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            // Refuse upgrades on any other path (nonzero closes the connection).
            guard let path else { return 0 }
            var buffer = [CChar](repeating: 0, count: 256)
            let count = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), WSI_TOKEN_GET_URI)
            guard count > 0 else { return -1 }
            let uri = String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return uri == path || uri.hasPrefix(path + "?") ? 0 : -1

        case LWS_CALLBACK_ESTABLISHED:
            guard let onAccept, !stopping.load(ordering: .sequentiallyConsistent) else { return -1 }
            var peer = [CChar](repeating: 0, count: 64)
            let address = lws_get_peer_simple(wsi, &peer, peer.count).map { String(cString: $0) } ?? ""
            let connection = WebSocketConnection(peerAddress: address, wake: { [weak self] in self?.wake() })
            let link = Link(connection)
            lws_set_opaque_user_data(wsi, Unmanaged.passRetained(link).toOpaque())
            links[ObjectIdentifier(link)] = (wsi, link)
            onAccept(connection)
            return 0

        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            guard let link = link(of: wsi) else { return -1 }
            links[ObjectIdentifier(link)] = (wsi, link)
            if link.connection.wantsToWrite { lws_callback_on_writable(wsi) }
            return 0

        case LWS_CALLBACK_RECEIVE, LWS_CALLBACK_CLIENT_RECEIVE:
            // Never nonzero here: libwebsockets 4.1's client parser, told to close from this
            // callback in the middle of a frame, keeps its receive buffer's fill level and
            // writes the rest of the frame past the buffer's end while it waits for the close
            // acknowledgement (the relay's heap corruption on a result over the limit). A close
            // decided here goes out from the next writable callback instead.
            guard let link = link(of: wsi), link.pendingClose == nil, link.ownClose == nil else { return 0 }
            if link.partial.isEmpty { link.partialIsBinary = lws_frame_is_binary(wsi) != 0 }
            let limit = link.partialIsBinary ? limits.maximumMessageSize : limits.maximumTextMessageSize
            guard link.partial.count + length <= limit else {
                link.partial = []
                return closeSoon(wsi, link, code: 1009, reason: "message larger than \(limit) bytes")
            }
            if let input, length > 0 {
                link.partial += UnsafeRawBufferPointer(start: input, count: length)
            }
            guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return 0 }
            guard link.connection.backlog < WebSocketLimits.maximumBacklog else {
                link.partial = []
                return closeSoon(
                    wsi, link, code: 1008, reason: "more than \(WebSocketLimits.maximumBacklog) messages unanswered")
            }
            let bytes = link.partial
            link.partial = []
            link.connection.deliver(
                .message(link.partialIsBinary ? .binary(bytes) : .text(String(decoding: bytes, as: UTF8.self))))
            return 0

        case LWS_CALLBACK_SERVER_WRITEABLE, LWS_CALLBACK_CLIENT_WRITEABLE:
            guard let link = link(of: wsi) else { return -1 }
            if let close = link.pendingClose { return closeNow(wsi, link, code: close.code, reason: close.reason) }
            let next = link.connection.nextOutbound()
            if let message = next.message {
                let (bytes, kind): ([UInt8], lws_write_protocol) =
                    switch message {
                    case .text(let text): (Array(text.utf8), LWS_WRITE_TEXT)
                    case .binary(let bytes): (bytes, LWS_WRITE_BINARY)
                    }
                let pre = clws_pre()
                var buffer = [UInt8](repeating: 0, count: pre + bytes.count)
                buffer.replaceSubrange(pre..., with: bytes)
                let written = buffer.withUnsafeMutableBufferPointer { pointer in
                    lws_write(wsi, pointer.baseAddress! + pre, bytes.count, kind)
                }
                guard written >= Int32(bytes.count) else { return -1 }
                if next.more { lws_callback_on_writable(wsi) }
                return 0
            }
            if let close = next.close { return closeNow(wsi, link, code: close.code, reason: close.reason) }
            return 0

        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            guard let link = link(of: wsi) else { return 0 }
            if let input, length >= 2 {
                let bytes = UnsafeRawBufferPointer(start: input, count: length)
                link.peerClose = (
                    UInt16(bytes[0]) << 8 | UInt16(bytes[1]), String(decoding: bytes.dropFirst(2), as: UTF8.self)
                )
            } else {
                link.peerClose = (1005, "")
            }
            return 0

        case LWS_CALLBACK_CLOSED, LWS_CALLBACK_CLIENT_CLOSED:
            guard let link = link(of: wsi) else { return 0 }
            let close = link.peerClose ?? link.ownClose ?? link.pendingClose ?? (1006, "the connection dropped")
            finish(wsi, .closed(code: close.code, reason: close.reason))
            return 0

        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            let detail = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "no detail"
            finish(wsi, .closed(code: 1006, reason: "cannot connect: \(detail)"))
            return 0

        case LWS_CALLBACK_HTTP:
            // A server without pages (`emrtd serve`) answers HTTP as it always did: not at all.
            guard !pages.isEmpty else { return 0 }
            let uri = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/"
            let path = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            guard let page = path.flatMap({ pages[$0] }) else {
                lws_return_http_status(wsi, 404, nil)
                return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
            }
            return writeHeaders(wsi, page)

        case LWS_CALLBACK_HTTP_WRITEABLE:
            guard let page = pendingPages.removeValue(forKey: Int(bitPattern: wsi)) else { return 0 }
            let pre = clws_pre()
            var buffer = [UInt8](repeating: 0, count: pre + page.body.count)
            buffer.replaceSubrange(pre..., with: page.body)
            let written = buffer.withUnsafeMutableBufferPointer { pointer in
                lws_write(wsi, pointer.baseAddress! + pre, page.body.count, LWS_WRITE_HTTP_FINAL)
            }
            guard written >= Int32(page.body.count) else { return -1 }
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0

        case LWS_CALLBACK_CLOSED_HTTP:
            pendingPages[Int(bitPattern: wsi)] = nil
            return 0

        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            // Another thread queued output or a close: ask for a write slot for each.
            for (wsi, link) in links.values where link.connection.wantsToWrite {
                lws_callback_on_writable(wsi)
            }
            return 0

        default:
            return 0
        }
    }

    /// A page's status line and headers (no caching, nothing from elsewhere, not framed by
    /// another site); its body goes out from the next HTTP writable callback.
    private func writeHeaders(_ wsi: OpaquePointer, _ page: HTTPPage) -> Int32 {
        let pre = clws_pre()
        var buffer = [UInt8](repeating: 0, count: pre + 1024)
        let headers: [(String, String)] = [
            ("cache-control:", "no-store"), ("x-content-type-options:", "nosniff"), ("x-frame-options:", "DENY"),
            ("referrer-policy:", "no-referrer"),
            (
                "content-security-policy:",
                "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self';"
                    + " frame-ancestors 'none'"
            ),
        ]
        return buffer.withUnsafeMutableBufferPointer { pointer -> Int32 in
            let start = pointer.baseAddress! + pre
            let end = pointer.baseAddress! + pointer.count
            var cursor: UnsafeMutablePointer<UInt8>? = start
            guard
                lws_add_http_common_headers(
                    wsi, UInt32(HTTP_STATUS_OK.rawValue), page.contentType, lws_filepos_t(page.body.count), &cursor, end
                )
                    == 0
            else { return -1 }
            for (name, value) in headers {
                let added = lws_add_http_header_by_name(
                    wsi, Array(name.utf8) + [0], Array(value.utf8), Int32(value.utf8.count), &cursor, end)
                guard added == 0 else { return -1 }
            }
            guard lws_finalize_write_http_header(wsi, start, &cursor, end) == 0 else { return -1 }
            pendingPages[Int(bitPattern: wsi)] = page
            lws_callback_on_writable(wsi)
            return 0
        }
    }

    /// Closes with `code` and `reason` from the next writable callback (see the receive case);
    /// a peer that reads nothing, so that no writable callback comes, is dropped after 5 s.
    private func closeSoon(_ wsi: OpaquePointer, _ link: Link, code: UInt16, reason: String) -> Int32 {
        link.pendingClose = (code, reason)
        lws_callback_on_writable(wsi)
        lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, 5)
        return 0
    }

    /// Sends a close frame with `code` and `reason` and drops the connection; only from a
    /// writable callback.
    private func closeNow(_ wsi: OpaquePointer, _ link: Link, code: UInt16, reason: String) -> Int32 {
        link.ownClose = (code, reason)
        var bytes = Array(reason.utf8.prefix(123))
        bytes.withUnsafeMutableBufferPointer { pointer in
            lws_close_reason(wsi, lws_close_status(UInt32(code)), pointer.baseAddress, pointer.count)
        }
        return -1
    }
}
